import type { UpstreamIdentity } from '../../domain/identity-providers.ts';
import { isStorableText } from '../../domain/text-rules.ts';
import type { UpstreamIdentitiesTable } from '../schema.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

export interface UpstreamIdentityRepository {
  /** The link of one upstream account: (provider, issuer, subject) is unique. */
  findByUpstream(providerName: string, issuer: string, subject: string): Promise<UpstreamIdentity | undefined>;
  find(subjectId: string, identityId: string): Promise<UpstreamIdentity | undefined>;
  /** A person's links, oldest first. */
  listOf(subjectId: string): Promise<UpstreamIdentity[]>;
  /** False, and nothing written, when the upstream account is linked already (two first sign-ins racing). */
  insert(identity: UpstreamIdentity): Promise<boolean>;
  recordSignIn(identityId: string, at: number): Promise<void>;
  remove(subjectId: string, identityId: string): Promise<boolean>;
  /** Removes every link through a provider (the provider is being removed); the links removed. */
  removeAllOfProvider(providerName: string): Promise<UpstreamIdentity[]>;
}

function toIdentity(row: UpstreamIdentitiesTable): UpstreamIdentity {
  return {
    identityId: row.identity_id,
    providerName: row.provider_name,
    issuer: row.issuer,
    subject: row.subject,
    subjectId: row.subject_id,
    createdAt: Number(row.created_at),
    lastSignInAt: row.last_sign_in_at === null ? null : Number(row.last_sign_in_at),
  };
}

export const upstreamIdentityRepository: RepositoryFactory<UpstreamIdentityRepository> = () => (executor: Executor) => ({
  async findByUpstream(providerName, issuer, subject) {
    if (![providerName, issuer, subject].every(isStorableText)) return undefined;
    const row = await executor
      .selectFrom('upstream_identities')
      .selectAll()
      .where('provider_name', '=', providerName)
      .where('issuer', '=', issuer)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row && toIdentity(row);
  },

  async find(subjectId, identityId) {
    if (!isStorableText(subjectId) || !isStorableText(identityId)) return undefined;
    const row = await executor.selectFrom('upstream_identities').selectAll().where('identity_id', '=', identityId).where('subject_id', '=', subjectId).executeTakeFirst();
    return row && toIdentity(row);
  },

  async listOf(subjectId) {
    if (!isStorableText(subjectId)) return [];
    const rows = await executor.selectFrom('upstream_identities').selectAll().where('subject_id', '=', subjectId).orderBy('created_at').orderBy('identity_id').execute();
    return rows.map(toIdentity);
  },

  async insert(identity) {
    const inserted = await executor
      .insertInto('upstream_identities')
      .values({
        identity_id: identity.identityId,
        provider_name: identity.providerName,
        issuer: identity.issuer,
        subject: identity.subject,
        subject_id: identity.subjectId,
        created_at: identity.createdAt,
        last_sign_in_at: identity.lastSignInAt,
      })
      .onConflict((oc) => oc.columns(['provider_name', 'issuer', 'subject']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  },

  async recordSignIn(identityId, at) {
    await executor.updateTable('upstream_identities').set({ last_sign_in_at: at }).where('identity_id', '=', identityId).execute();
  },

  async remove(subjectId, identityId) {
    if (!isStorableText(subjectId) || !isStorableText(identityId)) return false;
    const deleted = await executor.deleteFrom('upstream_identities').where('identity_id', '=', identityId).where('subject_id', '=', subjectId).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  },

  async removeAllOfProvider(providerName) {
    const rows = await executor.deleteFrom('upstream_identities').where('provider_name', '=', providerName).returningAll().execute();
    return rows.map(toIdentity);
  },
});
