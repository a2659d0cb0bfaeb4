import type { AccountFactorsTable } from '../schema.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

/**
 * A person's TOTP authenticator (`secretEncrypted` sealed with the key-encryption secret) or passkey
 * (`passkey`: its WebAuthn credential; `secretEncrypted` empty).
 */
export interface AccountFactor {
  factorId: string;
  subjectId: string;
  type: 'totp' | 'passkey';
  name: string;
  status: 'pending' | 'active';
  secretEncrypted: string;
  lastUsedStep: number | null;
  createdAt: number;
  lastUsedAt: number | null;
  passkey?: PasskeyCredential | undefined;
}

export interface PasskeyCredential {
  /** base64url */
  credentialId: string;
  /** COSE public key, base64url */
  publicKey: string;
  signCount: number;
  transports: string[];
}

export interface RecoveryCodeSet {
  createdAt: number;
  lastUsedAt: number | null;
  unused: number;
}

export interface AccountFactorRepository {
  insert(factor: AccountFactor): Promise<void>;
  find(subjectId: string, factorId: string): Promise<AccountFactor | undefined>;
  listOf(subjectId: string): Promise<AccountFactor[]>;
  /** Whether the person has a confirmed factor (TOTP): then every sign-in asks for the second factor. */
  hasActiveFactor(subjectId: string): Promise<boolean>;
  activate(factorId: string): Promise<boolean>;
  /**
   * Records that a code of `step` was accepted, only if no code of this step or a later one was
   * before: of two sign-ins racing with one code, one wins. False when the code was already used.
   */
  recordUse(factorId: string, step: number, at: number): Promise<boolean>;
  remove(subjectId: string, factorId: string): Promise<boolean>;
  /** Drops the person's authenticators that were started before `before` and never confirmed. */
  removePendingBefore(subjectId: string, before: number): Promise<void>;
  removeAllOf(subjectId: string): Promise<number>;
  /** Replaces the person's recovery codes with these digests. */
  replaceRecoveryCodes(subjectId: string, digests: string[], at: number): Promise<void>;
  /** Marks an unused code used; false when it is unknown or used already. */
  useRecoveryCode(subjectId: string, digest: string, at: number): Promise<boolean>;
  recoveryCodesOf(subjectId: string): Promise<RecoveryCodeSet | undefined>;
  removeRecoveryCodes(subjectId: string): Promise<void>;
  /** The active passkey with this WebAuthn credential id, whoever it belongs to. */
  findPasskey(credentialId: string): Promise<AccountFactor | undefined>;
  /**
   * Records a passkey assertion: the new signature counter and when. Only if the counter moved forward
   * (or the authenticator keeps none: 0), so a cloned authenticator replaying an old counter loses.
   */
  recordPasskeyUse(factorId: string, signCount: number, at: number): Promise<boolean>;
}

function toFactor(row: AccountFactorsTable): AccountFactor {
  return {
    factorId: row.factor_id,
    subjectId: row.subject_id,
    type: row.type,
    name: row.name,
    status: row.status,
    secretEncrypted: row.secret_encrypted,
    lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    ...(row.type === 'passkey' && row.credential_id && row.public_key
      ? { passkey: { credentialId: row.credential_id, publicKey: row.public_key, signCount: Number(row.sign_count ?? 0), transports: row.transports ? row.transports.split(',') : [] } }
      : {}),
  };
}

export const accountFactorRepository: RepositoryFactory<AccountFactorRepository> = () => (executor: Executor) => ({
  async insert(factor) {
    await executor
      .insertInto('account_factors')
      .values({
        factor_id: factor.factorId,
        subject_id: factor.subjectId,
        type: factor.type,
        name: factor.name,
        status: factor.status,
        secret_encrypted: factor.secretEncrypted,
        last_used_step: factor.lastUsedStep,
        created_at: factor.createdAt,
        last_used_at: factor.lastUsedAt,
        credential_id: factor.passkey?.credentialId ?? null,
        public_key: factor.passkey?.publicKey ?? null,
        sign_count: factor.passkey?.signCount ?? null,
        transports: factor.passkey ? factor.passkey.transports.join(',') : null,
      })
      .execute();
  },

  async find(subjectId, factorId) {
    const row = await executor.selectFrom('account_factors').selectAll().where('factor_id', '=', factorId).where('subject_id', '=', subjectId).executeTakeFirst();
    return row && toFactor(row);
  },

  async listOf(subjectId) {
    const rows = await executor.selectFrom('account_factors').selectAll().where('subject_id', '=', subjectId).orderBy('created_at').orderBy('factor_id').execute();
    return rows.map(toFactor);
  },

  async hasActiveFactor(subjectId) {
    const row = await executor.selectFrom('account_factors').select('factor_id').where('subject_id', '=', subjectId).where('status', '=', 'active').limit(1).executeTakeFirst();
    return row !== undefined;
  },

  async activate(factorId) {
    const updated = await executor.updateTable('account_factors').set({ status: 'active' }).where('factor_id', '=', factorId).where('status', '=', 'pending').executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  },

  async recordUse(factorId, step, at) {
    const updated = await executor
      .updateTable('account_factors')
      .set({ last_used_step: step, last_used_at: at })
      .where('factor_id', '=', factorId)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  },

  async remove(subjectId, factorId) {
    const deleted = await executor.deleteFrom('account_factors').where('factor_id', '=', factorId).where('subject_id', '=', subjectId).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  },

  async removePendingBefore(subjectId, before) {
    await executor.deleteFrom('account_factors').where('subject_id', '=', subjectId).where('status', '=', 'pending').where('created_at', '<', before).execute();
  },

  async removeAllOf(subjectId) {
    const deleted = await executor.deleteFrom('account_factors').where('subject_id', '=', subjectId).executeTakeFirst();
    return Number(deleted.numDeletedRows);
  },

  async replaceRecoveryCodes(subjectId, digests, at) {
    await executor.deleteFrom('recovery_codes').where('subject_id', '=', subjectId).execute();
    if (digests.length === 0) return;
    await executor.insertInto('recovery_codes').values(digests.map((digest) => ({ subject_id: subjectId, code_digest: digest, created_at: at, used_at: null }))).execute();
  },

  async useRecoveryCode(subjectId, digest, at) {
    const updated = await executor
      .updateTable('recovery_codes')
      .set({ used_at: at })
      .where('subject_id', '=', subjectId)
      .where('code_digest', '=', digest)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  },

  async recoveryCodesOf(subjectId) {
    const rows = await executor.selectFrom('recovery_codes').select(['created_at', 'used_at']).where('subject_id', '=', subjectId).execute();
    if (rows.length === 0) return undefined;
    const used = rows.flatMap((row) => (row.used_at === null ? [] : [Number(row.used_at)]));
    return { createdAt: Math.min(...rows.map((row) => Number(row.created_at))), lastUsedAt: used.length > 0 ? Math.max(...used) : null, unused: rows.length - used.length };
  },

  async removeRecoveryCodes(subjectId) {
    await executor.deleteFrom('recovery_codes').where('subject_id', '=', subjectId).execute();
  },

  async findPasskey(credentialId) {
    const row = await executor.selectFrom('account_factors').selectAll().where('credential_id', '=', credentialId).where('type', '=', 'passkey').where('status', '=', 'active').executeTakeFirst();
    return row && toFactor(row);
  },

  async recordPasskeyUse(factorId, signCount, at) {
    const updated = await executor
      .updateTable('account_factors')
      .set({ sign_count: signCount, last_used_at: at })
      .where('factor_id', '=', factorId)
      .where((eb) => eb.or([eb('sign_count', 'is', null), signCount === 0 ? eb('sign_count', '=', 0) : eb('sign_count', '<', signCount)]))
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  },
});
