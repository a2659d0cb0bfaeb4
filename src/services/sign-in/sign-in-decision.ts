import type { User } from '../../domain/accounts.ts';
import { decideSignIn, type FactorKind, type SignInDecision, type SignInProof } from '../../domain/sign-in-decision.ts';
import type { ServiceDeps } from '../shared/deps.ts';

export type { SignInDecision, SignInProof };

/**
 * What a sign-in still owes, asked by every door (src/domain/sign-in-decision.ts has the rule): loads the
 * person's active factors and the instance's second-factor policy, and answers done (with `amr`/`acr`),
 * second factor owed, or enrolment owed.
 */
export function createSignInDecisionService(deps: Pick<ServiceDeps, 'store'>) {
  const { store } = deps;
  return {
    async decide(person: Pick<User, 'subjectId' | 'isAdmin'>, proof: SignInProof, options: { clientWantsMfa?: boolean } = {}): Promise<SignInDecision> {
      const factors = (await store.repos.accountFactors.listOf(person.subjectId)).filter((factor) => factor.status === 'active').map((factor): FactorKind => factor.type);
      const { mfaRequired } = await store.repos.securitySettings.get();
      return decideSignIn(proof, { isAdmin: person.isAdmin, factors }, { policy: mfaRequired, clientWantsMfa: options.clientWantsMfa });
    },
  };
}

export type SignInDecisionService = ReturnType<typeof createSignInDecisionService>;
