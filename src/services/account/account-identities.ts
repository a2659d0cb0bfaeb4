import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import type { UpstreamIdentity } from '../../domain/identity-providers.ts';
import { AppError } from '../../errors.ts';
import type { Repositories } from '../../storage/store.ts';
import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { createPersonOnlyCheck } from './person-only.ts';
import { queueSecurityNotice } from './security-notices.ts';

export interface AccountIdentityView {
  identityId: string;
  provider: string;
  /** The provider's display name; the provider's name when it no longer exists. */
  displayName: string;
  linkedAt: number;
  lastSignInAt: number | null;
}

function subjectOf(actor: Actor): string {
  if (!actor.subjectId) throw new AppError('login_required', 'Sign in as a person first: these operations act on your own account.');
  return actor.subjectId;
}

/** Whether the person keeps a way to sign in once `identity` is gone: a password, a passkey, or another link. */
async function hasAnotherWayIn(repos: Repositories, subjectId: string, identity: UpstreamIdentity): Promise<boolean> {
  if (await repos.users.hasPassword(subjectId)) return true;
  if ((await repos.upstreamIdentities.listOf(subjectId)).some((other) => other.identityId !== identity.identityId)) return true;
  // Passkeys share the factors table with authenticator apps (their type is added by the passkey work).
  return (await repos.accountFactors.listOf(subjectId)).some((factor) => (factor.type as string) === 'passkey' && factor.status === 'active');
}

/** My account: the upstream identities (OpenID Connect providers, directories) linked to me. */
export function createAccountIdentityService(deps: ServiceDeps) {
  const { store, clock, mail } = deps;
  const personOnly = createPersonOnlyCheck(deps);
  return {
    async listIdentities(actor: Actor): Promise<AccountIdentityView[]> {
      const subjectId = subjectOf(actor);
      const [identities, providers] = await Promise.all([store.repos.upstreamIdentities.listOf(subjectId), store.repos.identityProviders.list()]);
      const displayNames = new Map(providers.map((provider) => [provider.name, provider.displayName]));
      return identities.map((identity) => ({
        identityId: identity.identityId,
        provider: identity.providerName,
        displayName: displayNames.get(identity.providerName) ?? identity.providerName,
        linkedAt: identity.createdAt,
        lastSignInAt: identity.lastSignInAt,
      }));
    },

    /** Unlinks one; refused (409 last_sign_in_method) when it is the person's last way to sign in. */
    async removeIdentity(actor: Actor, identityId: string): Promise<void> {
      const subjectId = personOnly.requirePerson(actor, 'Unlinking an identity');
      await store.transaction(async (repos) => {
        const identity = await repos.upstreamIdentities.find(subjectId, identityId);
        if (!identity) throw new AppError('not_found', said`You have no linked identity ${identityId}; list them with ${see('listMyIdentities')}.`);
        if (!(await hasAnotherWayIn(repos, subjectId, identity))) {
          throw new AppError(
            'last_sign_in_method',
            said`The ${identity.providerName} identity is your only way to sign in: first add a passkey (${see('passkeyOptions')}), set a password ("Forgot your password?" on the login page) or link another identity, then remove it.`,
          );
        }
        await repos.upstreamIdentities.remove(subjectId, identityId);
        await writeAudit(repos, clock, actor, {
          action: 'identity.unlink',
          targetType: 'user',
          targetId: subjectId,
          before: { identityId, provider: identity.providerName, issuer: identity.issuer, subject: identity.subject },
        });
        const person = await repos.users.findBySubjectId(subjectId);
        if (person) await queueSecurityNotice(repos, clock, mail, person, 'identity_unlinked');
      });
    },
  };
}
