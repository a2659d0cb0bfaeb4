import type { Executor, RepositoryFactory } from '../store.ts';

/** Values an instance keeps for itself by name (secrets generated outside production). */
export interface InstanceSettingsRepository {
  find(name: string): Promise<string | undefined>;
  /** Stores the value unless the name already has one; true when this call stored it. */
  insertIfAbsent(name: string, value: string, createdAt: number): Promise<boolean>;
}

export const instanceSettingsRepository: RepositoryFactory<InstanceSettingsRepository> = () => (executor: Executor) => ({
  async find(name) {
    const row = await executor.selectFrom('instance_settings').select('value').where('name', '=', name).executeTakeFirst();
    return row?.value;
  },

  async insertIfAbsent(name, value, createdAt) {
    const inserted = await executor
      .insertInto('instance_settings')
      .values({ name, value, created_at: createdAt })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  },
});
