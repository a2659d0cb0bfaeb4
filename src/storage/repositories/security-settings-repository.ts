import type { MfaPolicy, SecuritySettings } from '../../domain/mfa-policy.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

const ROW = 'instance';

export interface SecuritySettingsRepository {
  get(): Promise<SecuritySettings>;
  /** One conditional write: false when the version is no longer `expectedVersion`. */
  updateIfVersion(expectedVersion: number, mfaRequired: MfaPolicy, at: number): Promise<boolean>;
}

export const securitySettingsRepository: RepositoryFactory<SecuritySettingsRepository> = () => (executor: Executor) => ({
  async get() {
    const row = await executor.selectFrom('security_settings').select(['mfa_required', 'version']).where('settings_id', '=', ROW).executeTakeFirst();
    return row ? { mfaRequired: row.mfa_required, version: Number(row.version) } : { mfaRequired: 'none', version: 1 };
  },

  async updateIfVersion(expectedVersion, mfaRequired, at) {
    // The column is a 32-bit integer on PostgreSQL: a version it cannot hold is simply not the current one.
    if (!Number.isInteger(expectedVersion) || expectedVersion < 1 || expectedVersion > 2_147_483_647) return false;
    const updated = await executor
      .updateTable('security_settings')
      .set((eb) => ({ mfa_required: mfaRequired, version: eb('version', '+', 1), updated_at: at }))
      .where('settings_id', '=', ROW)
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  },
});
