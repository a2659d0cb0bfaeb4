import type { DirectorySettings, StoredIdentityProvider, UpstreamOidcSettings } from '../../domain/identity-providers.ts';
import { isStorableText } from '../../domain/text-rules.ts';
import type { IdentityProvidersTable } from '../schema.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

export interface IdentityProviderRepository {
  /** Every provider, in their order (position, then name). */
  list(): Promise<StoredIdentityProvider[]>;
  find(name: string): Promise<StoredIdentityProvider | undefined>;
  /** The position a new provider takes: after every other one. */
  nextPosition(): Promise<number>;
  /** False, and nothing written, when a provider of this name exists. */
  insert(provider: StoredIdentityProvider): Promise<boolean>;
  /** Writes `provider` (its version + 1) only if the stored one is still `expectedVersion`: false otherwise. */
  replaceIfVersion(provider: StoredIdentityProvider, expectedVersion: number): Promise<boolean>;
  removeIfVersion(name: string, expectedVersion: number): Promise<boolean>;
}

const flag = (value: boolean) => (value ? 1 : 0);
// The column is a 32-bit integer on PostgreSQL: a version it cannot hold is simply not the current one.
const storableVersion = (version: number) => Number.isInteger(version) && version >= 1 && version <= 2_147_483_647;

function toProvider(row: IdentityProvidersTable): StoredIdentityProvider {
  const common = {
    name: row.name,
    displayName: row.display_name,
    enabled: Number(row.enabled) === 1,
    provisioning: row.provisioning,
    linkByVerifiedEmail: Number(row.link_by_verified_email) === 1,
    allowedEmailDomains: JSON.parse(row.allowed_email_domains) as string[],
    position: Number(row.position),
    version: Number(row.version),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    secretSealed: row.secret_sealed,
    groupMapping: JSON.parse(row.group_mapping ?? '{}') as Record<string, string>,
  };
  return row.type === 'oidc'
    ? { ...common, type: 'oidc', oidc: JSON.parse(row.settings) as UpstreamOidcSettings, hasClientSecret: row.secret_sealed !== null }
    : { ...common, type: 'ldap', ldap: JSON.parse(row.settings) as DirectorySettings, hasBindPassword: row.secret_sealed !== null };
}

function toRow(provider: StoredIdentityProvider): IdentityProvidersTable {
  return {
    name: provider.name,
    type: provider.type,
    display_name: provider.displayName,
    enabled: flag(provider.enabled),
    provisioning: provider.provisioning,
    link_by_verified_email: flag(provider.linkByVerifiedEmail),
    allowed_email_domains: JSON.stringify(provider.allowedEmailDomains),
    settings: JSON.stringify(provider.type === 'oidc' ? provider.oidc : provider.ldap),
    secret_sealed: provider.secretSealed,
    position: provider.position,
    version: provider.version,
    created_at: provider.createdAt,
    updated_at: provider.updatedAt,
    group_mapping: JSON.stringify(provider.groupMapping ?? {}),
  };
}

export const identityProviderRepository: RepositoryFactory<IdentityProviderRepository> = () => (executor: Executor) => ({
  async list() {
    const rows = await executor.selectFrom('identity_providers').selectAll().orderBy('position').orderBy('name').execute();
    return rows.map(toProvider);
  },

  async find(name) {
    if (!isStorableText(name)) return undefined;
    const row = await executor.selectFrom('identity_providers').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toProvider(row);
  },

  async nextPosition() {
    const { last } = await executor.selectFrom('identity_providers').select((eb) => eb.fn.max('position').as('last')).executeTakeFirstOrThrow();
    return last === null || last === undefined ? 1 : Number(last) + 1;
  },

  async insert(provider) {
    const inserted = await executor
      .insertInto('identity_providers')
      .values(toRow(provider))
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  async replaceIfVersion(provider, expectedVersion) {
    if (!storableVersion(expectedVersion)) return false;
    const { name, type, created_at, version, ...changes } = toRow(provider);
    void type;
    void created_at;
    void version;
    const updated = await executor
      .updateTable('identity_providers')
      .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
      .where('name', '=', name)
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  },

  async removeIfVersion(name, expectedVersion) {
    if (!storableVersion(expectedVersion) || !isStorableText(name)) return false;
    const deleted = await executor.deleteFrom('identity_providers').where('name', '=', name).where('version', '=', expectedVersion).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  },
});
