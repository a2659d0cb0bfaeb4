import type { Clock } from '../../domain/clock.ts';
import { recoveryCodeDigest } from '../../security/recovery-codes.ts';
import { openSealedText, sealText } from '../../security/sealed-text.ts';
import { matchingTotpStep } from '../../security/totp.ts';
import type { Repositories, Store } from '../../storage/store.ts';
import { writeAudit } from '../shared/audit.ts';

const TOTP_SECRETS = { salt: 'sesame/totp', info: 'totp-secret aes-256-gcm v1' };

export interface SecondFactorDeps {
  store: Store;
  clock: Clock;
  /** OIDC_KEY_ENCRYPTION_SECRET from the environment; without it, the one generated and kept in the database (outside production). */
  keyEncryptionSecret?: string | undefined;
}

/** The key-encryption secret the instance runs with: the configured one, or the one start-up generated and stored. */
export async function keyEncryptionSecretOf(deps: Pick<SecondFactorDeps, 'keyEncryptionSecret'>, repos: Repositories): Promise<string> {
  const secret = deps.keyEncryptionSecret ?? (await repos.instanceSettings.find('OIDC_KEY_ENCRYPTION_SECRET'));
  if (!secret) throw new Error('no key-encryption secret: set OIDC_KEY_ENCRYPTION_SECRET');
  return secret;
}

/** TOTP secrets sealed at rest, and the one-time-code check every sign-in door runs. */
export function createSecondFactor(deps: SecondFactorDeps) {
  const { store, clock } = deps;

  async function totpStepFor(repos: Repositories, subjectId: string, code: string, factorId?: string): Promise<{ factorId: string; step: number } | null> {
    const secret = await keyEncryptionSecretOf(deps, repos);
    const factors = (await repos.accountFactors.listOf(subjectId)).filter((factor) => factor.type === 'totp' && (factorId === undefined ? factor.status === 'active' : factor.factorId === factorId));
    for (const factor of factors) {
      const totpSecret = openSealedText(factor.secretEncrypted, factor.factorId, secret, TOTP_SECRETS);
      if (totpSecret === null) throw new Error(`TOTP factor ${factor.factorId} cannot be decrypted: OIDC_KEY_ENCRYPTION_SECRET differs from the one it was stored with`);
      const step = await matchingTotpStep(totpSecret, code, clock.now(), factor.lastUsedStep);
      if (step !== null) return { factorId: factor.factorId, step };
    }
    return null;
  }

  async function acceptTotp(repos: Repositories, subjectId: string, code: string, factorId?: string): Promise<boolean> {
    const match = await totpStepFor(repos, subjectId, code, factorId);
    return match !== null && (await repos.accountFactors.recordUse(match.factorId, match.step, clock.now()));
  }

  return {
    async seal(totpSecret: string, factorId: string): Promise<string> {
      return sealText(totpSecret, factorId, await keyEncryptionSecretOf(deps, store.repos), TOTP_SECRETS);
    },

    /** The TOTP secret of a factor, unsealed (to show a pending one again); null when it cannot be opened. */
    async open(secretEncrypted: string, factorId: string): Promise<string | null> {
      return openSealedText(secretEncrypted, factorId, await keyEncryptionSecretOf(deps, store.repos), TOTP_SECRETS);
    },

    /** Whether the person has a confirmed factor: then every sign-in needs a one-time code too. */
    async enrolled(subjectId: string): Promise<boolean> {
      return store.repos.accountFactors.hasActiveFactor(subjectId);
    },

    /**
     * Whether `code` is a current TOTP code of `factorId` (pending or not), or of any confirmed factor when
     * none is named. An accepted code's time step is recorded in the same statement that checks it was not
     * used, so a code works once, even for two requests racing with it.
     */
    acceptTotp,

    /** A sign-in's one-time code: a TOTP code, or an unused recovery code (which is then used up, and audited). */
    async verify(subjectId: string, otp: string): Promise<boolean> {
      const code = otp.trim();
      if (/^\d{6}$/.test(code)) return acceptTotp(store.repos, subjectId, code);
      if (code.length === 0 || code.length > 64) return false;
      return store.transaction(async (repos) => {
        if (!(await repos.accountFactors.useRecoveryCode(subjectId, recoveryCodeDigest(subjectId, code), clock.now()))) return false;
        const left = (await repos.accountFactors.recoveryCodesOf(subjectId))?.unused ?? 0;
        await writeAudit(repos, clock, { subjectId, isAdmin: false, surface: 'system', ip: null }, { action: 'account.recovery_code_used', targetType: 'user', targetId: subjectId, after: { unusedRecoveryCodes: left } });
        return true;
      });
    },
  };
}

export type SecondFactor = ReturnType<typeof createSecondFactor>;
