import { mfaRequiredFor, type MfaPolicy } from './mfa-policy.ts';

/**
 * The one rule of what a sign-in still owes (DESIGN 13), whatever door it came through: the OIDC login
 * page, the console or the Agent API login. Every door asks `decideSignIn` (through the service in
 * src/services/sign-in/sign-in-decision.ts) and acts on its answer; none computes `amr`/`acr` or decides enrolment
 * itself.
 */

/** The first proof: a password (local or a directory's), an upstream provider, or a passkey that verified the person. */
export type FirstProof = 'pwd' | 'fed' | 'hwk';
/** A second factor presented after the first proof: a one-time code (TOTP or recovery code), or a passkey. */
export type SecondProof = 'otp' | 'hwk';
/** The kinds of active second factor a person can have. */
export type FactorKind = 'totp' | 'passkey';
export type Acr = 'pwd' | 'mfa';

export interface SignInProof {
  first: FirstProof;
  second?: SecondProof | undefined;
}

export interface SignInPerson {
  isAdmin: boolean;
  /** The person's active factors (recovery codes stand in for them and are not listed). */
  factors: readonly FactorKind[];
}

export interface SignInCircumstances {
  policy: MfaPolicy;
  /** The application asked for `acr_values=mfa` (OIDC only). */
  clientWantsMfa?: boolean | undefined;
}

export type SignInDecision =
  /** Signed in: a code, session or token may be issued with these claims. */
  | { outcome: 'done'; amr: string[]; acr: Acr }
  /** Nothing is issued until a second factor is presented: a one-time code, or (`hwk`) one of the person's passkeys. */
  | { outcome: 'second_factor'; first: FirstProof; accepts: SecondProof[] }
  /**
   * The policy (or the application) wants a second factor the person has not added: the OIDC door enrols
   * before any code; a management door opens a session that may only enrol.
   */
  | { outcome: 'enrol'; first: FirstProof };

export function decideSignIn(proof: SignInProof, person: SignInPerson, circumstances: SignInCircumstances): SignInDecision {
  // A passkey that verified the person (PIN, biometrics) is two factors on its own.
  if (proof.first === 'hwk') return { outcome: 'done', amr: ['hwk', 'mfa'], acr: 'mfa' };
  if (proof.second) return { outcome: 'done', amr: [proof.first, proof.second, 'mfa'], acr: 'mfa' };
  if (person.factors.length > 0) {
    // Recovery codes go in the one-time-code input, so a person whose only factor is a passkey can still use one.
    return { outcome: 'second_factor', first: proof.first, accepts: person.factors.includes('passkey') ? ['otp', 'hwk'] : ['otp'] };
  }
  if (circumstances.clientWantsMfa || mfaRequiredFor(circumstances.policy, person)) return { outcome: 'enrol', first: proof.first };
  return { outcome: 'done', amr: [proof.first], acr: 'pwd' };
}

/** The first proof a live OIDC session was signed in with, from its `amr` (a step-up keeps it); a password when unknown. */
export function firstProofOf(amr: readonly string[] | undefined): FirstProof {
  const first = amr?.[0];
  return first === 'fed' || first === 'hwk' ? first : 'pwd';
}
