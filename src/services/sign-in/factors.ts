import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { ownSubjectId } from '../shared/caller-checks.ts';
import { newFactorId } from '../../domain/ids.ts';
import { mfaRequiredFor } from '../../domain/mfa-policy.ts';
import { SIGN_IN_FIRST } from '../../domain/refusal-texts.ts';
import { AppError } from '../../errors.ts';
import { newRecoveryCode, RECOVERY_CODE_COUNT, recoveryCodeDigest } from '../../security/recovery-codes.ts';
import { newTotpSecret, qrCodeSvg, totpUri } from '../../security/totp.ts';
import type { Repositories } from '../../storage/store.ts';
import type { AccountService } from '../account/account.ts';
import { endEverySessionOf } from './end-sessions.ts';
import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { createSecondFactor } from './second-factor.ts';
import { createPersonOnlyCheck } from '../account/person-only.ts';
import { queueSecurityNotice } from '../account/security-notices.ts';
import type { FactorType, FactorView } from '../../domain/views.ts';

export type { FactorType, FactorView };

export interface TotpEnrolment {
  factorId: string;
  /** Base32, for typing into an app by hand; shown this once. */
  secret: string;
  otpauthUri: string;
  qrCodeSvg: string;
}

// The recovery codes are listed as one factor; they have no row of their own to name.
export const RECOVERY_CODES_FACTOR_ID = 'recovery_codes';
const TOTP_ISSUER = 'Sesame';
const PENDING_TOTP_KEPT_MS = 24 * 3600 * 1000;

export async function issueRecoveryCodes(repos: Repositories, subjectId: string, at: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await repos.accountFactors.replaceRecoveryCodes(subjectId, codes.map((code) => recoveryCodeDigest(subjectId, code)), at);
  return codes;
}

/** The caller's second factors: TOTP authenticators and recovery codes. */
export function createFactorService(deps: ServiceDeps, { account }: { account: AccountService }) {
  const { store, clock, mail } = deps;
  const secondFactor = createSecondFactor(deps);
  const personOnly = createPersonOnlyCheck(deps);

  /** Tells the person by mail, in the transaction of the change. */
  async function noticeFactorChange(repos: Repositories, subjectId: string): Promise<void> {
    const user = await repos.users.findBySubjectId(subjectId);
    if (user) await queueSecurityNotice(repos, clock, mail, user, 'second_factor_changed');
  }

  return {
    async listFactors(actor: Actor): Promise<{ factors: FactorView[]; mfaRequired: boolean }> {
      const subjectId = ownSubjectId(actor);
      const factors = (await store.repos.accountFactors.listOf(subjectId)).filter((factor) => factor.status === 'active');
      const codes = await store.repos.accountFactors.recoveryCodesOf(subjectId);
      const policy = (await store.repos.securitySettings.get()).mfaRequired;
      return {
        factors: [
          ...factors.map((factor) => ({ factorId: factor.factorId, type: factor.type, name: factor.name, createdAt: factor.createdAt, lastUsedAt: factor.lastUsedAt })),
          ...(codes ? [{ factorId: RECOVERY_CODES_FACTOR_ID, type: 'recovery_codes' as const, name: `Recovery codes (${codes.unused} unused)`, unusedCodes: codes.unused, createdAt: codes.createdAt, lastUsedAt: codes.lastUsedAt }] : []),
        ],
        mfaRequired: mfaRequiredFor(policy, actor),
      };
    },

    /** Whether the person has a confirmed second factor (an authenticator app or a passkey). */
    async hasFactor(subjectId: string): Promise<boolean> {
      return secondFactor.enrolled(subjectId);
    },

    /** A pending authenticator: it signs nobody in until a code from it is confirmed. */
    async startTotp(actor: Actor, input: { name?: string | undefined }): Promise<TotpEnrolment> {
      const subjectId = personOnly.requirePerson(actor, 'Adding an authenticator app');
      const user = await store.repos.users.findBySubjectId(subjectId);
      if (!user) throw new AppError('login_required', SIGN_IN_FIRST);
      const factorId = newFactorId();
      const secret = newTotpSecret();
      const name = input.name?.trim() || 'Authenticator app';
      const secretEncrypted = await secondFactor.seal(secret, factorId);
      await store.transaction(async (repos) => {
        // Each sign-in's enrolment page starts one; those never confirmed within a day are of no use.
        await repos.accountFactors.removePendingBefore(subjectId, clock.now() - PENDING_TOTP_KEPT_MS);
        await repos.accountFactors.insert({ factorId, subjectId, type: 'totp', name, status: 'pending', secretEncrypted, lastUsedStep: null, createdAt: clock.now(), lastUsedAt: null });
        await writeAudit(repos, clock, actor, { action: 'account.factor_start', targetType: 'user', targetId: subjectId, after: { factorId, type: 'totp', name } });
      });
      const otpauthUri = totpUri(secret, TOTP_ISSUER, user.account);
      return { factorId, secret, otpauthUri, qrCodeSvg: await qrCodeSvg(otpauthUri) };
    },

    /** A pending authenticator shown again (a sign-in's enrolment page after a wrong first code); null when it is not pending. */
    async pendingTotp(actor: Actor, factorId: string): Promise<TotpEnrolment | null> {
      const subjectId = ownSubjectId(actor);
      const factor = await store.repos.accountFactors.find(subjectId, factorId);
      const user = await store.repos.users.findBySubjectId(subjectId);
      if (!factor || !user || factor.type !== 'totp' || factor.status !== 'pending') return null;
      const secret = await secondFactor.open(factor.secretEncrypted, factorId);
      if (secret === null) return null;
      const otpauthUri = totpUri(secret, TOTP_ISSUER, user.account);
      return { factorId, secret, otpauthUri, qrCodeSvg: await qrCodeSvg(otpauthUri) };
    },

    /** Confirms a pending authenticator with a current code; the first factor also gets ten recovery codes, shown this once. */
    async confirmTotp(actor: Actor, factorId: string, code: string): Promise<{ factor: FactorView; recoveryCodes?: string[] }> {
      const subjectId = personOnly.requirePerson(actor, 'Confirming an authenticator app');
      return store.transaction(async (repos) => {
        const factor = await repos.accountFactors.find(subjectId, factorId);
        if (!factor) throw new AppError('not_found', said`You have no authenticator ${factorId}. Start one with ${see('startTotp')}.`);
        if (factor.status !== 'pending') throw new AppError('invalid_request', said`This authenticator is confirmed already; nothing to do. List your factors with ${see('listMyFactors')}.`);
        if (!(await secondFactor.acceptTotp(repos, subjectId, code, factorId))) {
          throw new AppError('invalid_request', 'The code does not match: type the 6-digit code the app shows now.', { fieldErrors: { code: 'does not match the authenticator' } });
        }
        const first = !(await repos.accountFactors.hasActiveFactor(subjectId));
        await repos.accountFactors.activate(factorId);
        const recoveryCodes = first ? await issueRecoveryCodes(repos, subjectId, clock.now()) : undefined;
        await writeAudit(repos, clock, actor, { action: 'account.factor_add', targetType: 'user', targetId: subjectId, after: { factorId, type: 'totp', name: factor.name, recoveryCodesIssued: first } });
        await noticeFactorChange(repos, subjectId);
        const view: FactorView = { factorId, type: 'totp', name: factor.name, createdAt: factor.createdAt, lastUsedAt: clock.now() };
        return recoveryCodes ? { factor: view, recoveryCodes } : { factor: view };
      });
    },

    /** Ten new recovery codes; the old ones stop working. */
    async newRecoveryCodes(actor: Actor): Promise<string[]> {
      const subjectId = personOnly.requirePerson(actor, 'Making new recovery codes');
      return store.transaction(async (repos) => {
        if (!(await repos.accountFactors.hasActiveFactor(subjectId))) {
          throw new AppError('invalid_request', said`Recovery codes stand in for an authenticator or a passkey: add one first (${see('startTotp')} or ${see('passkeyOptions')}).`);
        }
        const codes = await issueRecoveryCodes(repos, subjectId, clock.now());
        await writeAudit(repos, clock, actor, { action: 'account.recovery_codes_new', targetType: 'user', targetId: subjectId });
        await noticeFactorChange(repos, subjectId);
        return codes;
      });
    },

    /**
     * Removes a factor, in a session with fresh proof or after `currentPassword` is confirmed (the one
     * request whose password counts as that proof); without any authenticator left the recovery codes go too.
     */
    async removeFactor(actor: Actor, factorId: string, currentPassword?: string | undefined): Promise<void> {
      personOnly.requirePerson(actor, 'Removing a second factor', { proofInRequest: currentPassword !== undefined });
      const subjectId = currentPassword === undefined ? ownSubjectId(actor) : await account.requirePassword(actor, currentPassword);
      await store.transaction(async (repos) => {
        if (factorId === RECOVERY_CODES_FACTOR_ID) {
          if (!(await repos.accountFactors.recoveryCodesOf(subjectId))) throw new AppError('not_found', said`You have no recovery codes; list your factors with ${see('listMyFactors')}, and make codes with ${see('newRecoveryCodes')} once an authenticator is confirmed.`);
          await repos.accountFactors.removeRecoveryCodes(subjectId);
        } else {
          if (!(await repos.accountFactors.remove(subjectId, factorId))) throw new AppError('not_found', said`You have no factor ${factorId}. List them with ${see('listMyFactors')}.`);
          if (!(await repos.accountFactors.hasActiveFactor(subjectId))) await repos.accountFactors.removeRecoveryCodes(subjectId);
        }
        await writeAudit(repos, clock, actor, { action: 'account.factor_remove', targetType: 'user', targetId: subjectId, before: { factorId } });
        await noticeFactorChange(repos, subjectId);
      });
    },

    /** An administrator removes every factor of a person (a lost phone); the person's sessions end. */
    async resetFactors(actor: Actor, subjectId: string): Promise<void> {
      if (!actor.isAdmin) throw new AppError('forbidden', 'Only administrators reset another person\'s factors.');
      personOnly.requireAdminOnOther(actor, subjectId, 'Removing a person\'s second factors');
      await store.transaction(async (repos) => {
        if (!(await repos.users.findBySubjectId(subjectId))) throw new AppError('not_found', `No user with subjectId ${subjectId}.`);
        const removed = await repos.accountFactors.removeAllOf(subjectId);
        await repos.accountFactors.removeRecoveryCodes(subjectId);
        const now = clock.now();
        await endEverySessionOf(repos, subjectId, now);
        await writeAudit(repos, clock, actor, { action: 'user.factors_reset', targetType: 'user', targetId: subjectId, after: { removedFactors: removed } });
        await noticeFactorChange(repos, subjectId);
      });
    },
  };
}

export type FactorService = ReturnType<typeof createFactorService>;
