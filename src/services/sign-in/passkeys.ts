import { said, see } from '../../domain/pointed-text.ts';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Actor } from '../../domain/actor.ts';
import { sha256Hex } from '../../domain/digests.ts';
import { newFactorId } from '../../domain/ids.ts';
import { AppError } from '../../errors.ts';
import type { User } from '../../domain/accounts.ts';
import type { AccountFactor } from '../../storage/repositories/account-factor-repository.ts';
import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { issueRecoveryCodes, type FactorView } from './factors.ts';
import { createPersonOnlyCheck } from '../account/person-only.ts';
import { queueSecurityNotice } from '../account/security-notices.ts';
import type { SignInSource } from '../people/users.ts';


// Loaded on first use: the WebAuthn library and its ASN.1 dependencies add about 20 MB to every server that
// never sees a passkey (measured with npm run bench, peak RSS).
const webauthn = () => import('@simplewebauthn/server');

/** How long a ceremony may take between asking for options and answering them. */
export const PASSKEY_CHALLENGE_SECONDS = 300;
const RP_NAME = 'Sesame';
// EdDSA, ES256, RS256: what authenticators make today. Named, because simplewebauthn's default probes the
// runtime for ML-DSA, which Node 24 answers with an experimental-feature warning on every start.
const ALGORITHMS = [-8, -7, -257];
// An assertion from a credential nobody has still counts toward the address's limits, under this name.
const UNKNOWN_PASSKEY_ACCOUNT = '(unknown passkey)';

/**
 * Whom a challenge was made for: a person adding a passkey, or one sign-in (its ceremony: an OIDC
 * interaction's uid, or `console:` and the console's login-CSRF nonce; and the person once known).
 */
export const challengeBinding = {
  registration: (subjectId: string) => `register:${subjectId}`,
  signIn: (ceremony: string, subjectId?: string) => `sign-in:${ceremony}${subjectId ? `:${subjectId}` : ''}`,
};

export interface PasskeySignIn {
  user: User;
  /** Whether the authenticator verified the person (PIN, biometrics): then the passkey alone is two factors. */
  userVerified: boolean;
}

const passkeyView = (factor: AccountFactor): FactorView => ({ factorId: factor.factorId, type: 'passkey', name: factor.name, createdAt: factor.createdAt, lastUsedAt: factor.lastUsedAt });

/** Passkeys (WebAuthn): adding them to one's account, and signing in with them. */
export function createPasskeyService(deps: ServiceDeps) {
  const { store, clock, mail, signInLimiter } = deps;
  const personOnly = createPersonOnlyCheck(deps);

  function relyingParty(): { rpID: string; origin: string } {
    if (!deps.issuer) throw new AppError('invalid_request', 'Passkeys need the server\'s issuer (OIDC_ISSUER); this process has none.');
    const issuer = new URL(deps.issuer);
    return { rpID: issuer.hostname, origin: issuer.origin };
  }

  async function keepChallenge(challenge: string, binding: string): Promise<void> {
    const now = clock.now();
    await store.repos.webauthnChallenges.insert(sha256Hex(challenge), binding, now + PASSKEY_CHALLENGE_SECONDS * 1000, now);
  }

  /** simplewebauthn asks whether the challenge the browser signed is ours: yes once, for its binding, while fresh. */
  const challengeConsumer = (binding: string) => (challenge: string) => store.repos.webauthnChallenges.consume(sha256Hex(challenge), binding, clock.now());

  async function activePasskeysOf(subjectId: string): Promise<AccountFactor[]> {
    return (await store.repos.accountFactors.listOf(subjectId)).filter((factor) => factor.type === 'passkey' && factor.status === 'active' && factor.passkey);
  }

  /** The assertion's credential, checked against its challenge; null for anything that does not verify. */
  async function verifyAssertion(binding: string, response: AuthenticationResponseJSON, factor: AccountFactor): Promise<{ userVerified: boolean } | null> {
    const { rpID, origin } = relyingParty();
    const credential = factor.passkey!;
    try {
      const result = await (await webauthn()).verifyAuthenticationResponse({
        response,
        expectedChallenge: challengeConsumer(binding),
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: { id: credential.credentialId, publicKey: Buffer.from(credential.publicKey, 'base64url'), counter: credential.signCount, transports: credential.transports as never },
        requireUserVerification: false,
      });
      if (!result.verified) return null;
      if (!(await store.repos.accountFactors.recordPasskeyUse(factor.factorId, result.authenticationInfo.newCounter, clock.now()))) return null;
      return { userVerified: result.authenticationInfo.userVerified };
    } catch {
      return null;
    }
  }

  return {
    /** WebAuthn creation options for a new passkey of the caller: discoverable, user verification preferred. */
    async registrationOptions(actor: Actor): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const subjectId = personOnly.requirePerson(actor, 'Adding a passkey');
      const user = await store.repos.users.findBySubjectId(subjectId);
      if (!user) throw new AppError('login_required', 'Sign in again.');
      const { rpID } = relyingParty();
      const options = await (await webauthn()).generateRegistrationOptions({
        rpName: RP_NAME,
        rpID,
        userName: user.account,
        userDisplayName: user.displayName,
        userID: new TextEncoder().encode(subjectId),
        attestationType: 'none',
        excludeCredentials: (await activePasskeysOf(subjectId)).map((factor) => ({ id: factor.passkey!.credentialId, transports: factor.passkey!.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
        supportedAlgorithmIDs: ALGORITHMS,
      });
      await keepChallenge(options.challenge, challengeBinding.registration(subjectId));
      return options;
    },

    /** Adds the passkey the browser made from `registrationOptions`; the first factor also brings ten recovery codes, shown this once. */
    async addPasskey(actor: Actor, input: { name: string; response: unknown }): Promise<{ factor: FactorView; recoveryCodes?: string[] }> {
      const subjectId = personOnly.requirePerson(actor, 'Adding a passkey');
      const { rpID, origin } = relyingParty();
      let verified: Awaited<ReturnType<Awaited<ReturnType<typeof webauthn>>['verifyRegistrationResponse']>>;
      try {
        verified = await (await webauthn()).verifyRegistrationResponse({
          response: input.response as RegistrationResponseJSON,
          expectedChallenge: challengeConsumer(challengeBinding.registration(subjectId)),
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: false,
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch (error) {
        throw new AppError('invalid_request', said`The passkey could not be verified (${error instanceof Error ? error.message : 'malformed response'}). Ask for new options with ${see('passkeyOptions')} and try again.`, {
          fieldErrors: { response: 'is not a valid answer to the latest passkey options' },
        });
      }
      if (!verified.verified) {
        throw new AppError('invalid_request', said`The passkey could not be verified. Ask for new options with ${see('passkeyOptions')} and try again.`, { fieldErrors: { response: 'does not verify' } });
      }
      const { credential } = verified.registrationInfo;
      const now = clock.now();
      const factor: AccountFactor = {
        factorId: newFactorId(),
        subjectId,
        type: 'passkey',
        name: input.name.trim(),
        status: 'active',
        secretEncrypted: '',
        lastUsedStep: null,
        createdAt: now,
        lastUsedAt: null,
        passkey: { credentialId: credential.id, publicKey: Buffer.from(credential.publicKey).toString('base64url'), signCount: credential.counter, transports: credential.transports ?? [] },
      };
      return store.transaction(async (repos) => {
        const user = await repos.users.findBySubjectId(subjectId);
        if (!user) throw new AppError('login_required', 'Sign in again.');
        if (await repos.accountFactors.findPasskey(credential.id)) throw new AppError('invalid_request', 'This passkey is registered already.', { fieldErrors: { response: 'is a passkey registered already' } });
        const first = !(await repos.accountFactors.hasActiveFactor(subjectId));
        await repos.accountFactors.insert(factor);
        const recoveryCodes = first ? await issueRecoveryCodes(repos, subjectId, now) : undefined;
        await writeAudit(repos, clock, actor, { action: 'account.factor_add', targetType: 'user', targetId: subjectId, after: { factorId: factor.factorId, type: 'passkey', name: factor.name, recoveryCodesIssued: first } });
        await queueSecurityNotice(repos, clock, mail, user, 'second_factor_changed');
        return recoveryCodes ? { factor: passkeyView(factor), recoveryCodes } : { factor: passkeyView(factor) };
      });
    },

    /** Whether the person has a passkey (the second-step page then offers it). */
    async hasPasskey(subjectId: string): Promise<boolean> {
      return (await activePasskeysOf(subjectId)).length > 0;
    },

    /**
     * WebAuthn request options for one sign-in: any discoverable passkey of this site (the person is not
     * known yet), or, as the second step after a password, only that person's passkeys.
     */
    async signInOptions(ceremony: string, subjectId?: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const { rpID } = relyingParty();
      const allowCredentials = subjectId ? (await activePasskeysOf(subjectId)).map((factor) => ({ id: factor.passkey!.credentialId, transports: factor.passkey!.transports })) : [];
      const options = await (await webauthn()).generateAuthenticationOptions({ rpID, allowCredentials, userVerification: 'preferred', timeout: PASSKEY_CHALLENGE_SECONDS * 1000 });
      await keepChallenge(options.challenge, challengeBinding.signIn(ceremony, subjectId));
      return options;
    },

    /**
     * Checks a passkey assertion of one sign-in under the sign-in limits: a failed one counts like a wrong
     * password. With `subjectId` (the second step), the passkey must be that person's. Null when it fails.
     */
    async signIn(ceremony: string, response: unknown, from: SignInSource, subjectId?: string): Promise<PasskeySignIn | null> {
      const assertion = response as AuthenticationResponseJSON;
      const credentialId = typeof assertion?.id === 'string' ? assertion.id : '';
      const factor = credentialId ? await store.repos.accountFactors.findPasskey(credentialId) : undefined;
      const owner = factor ? await store.repos.users.findBySubjectId(factor.subjectId) : undefined;
      const account = subjectId ? (await store.repos.users.findBySubjectId(subjectId))?.account : owner?.account;
      return signInLimiter.attempt({ account: account ?? UNKNOWN_PASSKEY_ACCOUNT, ip: from.ip, surface: from.surface }, async () => {
        if (!factor || !owner || owner.status !== 'active') return null;
        if (subjectId && factor.subjectId !== subjectId) return null;
        const verified = await verifyAssertion(challengeBinding.signIn(ceremony, subjectId), assertion, factor);
        return verified ? { user: owner, userVerified: verified.userVerified } : null;
      });
    },
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
