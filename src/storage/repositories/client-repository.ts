import { PostgresAdapter } from 'kysely';
import type { ClientConfiguration, ClientType, Scope } from '../../domain/clients.ts';
import type { Db } from '../database.ts';
import { precompile } from '../precompiled-query.ts';
import type { ClientRow } from '../schema.ts';
import { isStorableText } from '../../domain/text-rules.ts';
import type { Executor, RepositoryFactory } from '../store.ts';
import { toStoredClientSecret, type StoredClientSecret } from './client-secret-repository.ts';

/** A client as stored: its metadata and current OIDC configuration, the JSON columns parsed. */
export interface ClientRecord extends ClientConfiguration {
  clientId: string;
  projectId: string;
  clientType: ClientType;
  displayName: string;
  description: string;
  status: 'active' | 'disabled';
  revision: number;
  clientVersion: number;
  createdAt: number;
  updatedAt: number;
}

/** What /auth and /token need of a client, in one statement: the client, its project's status and its live secrets. */
export interface ProtocolClient {
  client: ClientRecord;
  projectStatus: 'active' | 'archived';
  /** The active and retiring secrets (a retiring one may have expired: secretIsUsable decides). */
  secrets: StoredClientSecret[];
}

export interface ClientRevisionRecord extends ClientConfiguration {
  clientId: string;
  revision: number;
  createdBy: string | null;
  createdAt: number;
}

export interface ClientMetadataChanges {
  displayName?: string;
  description?: string;
  status?: ClientRecord['status'];
  updatedAt: number;
}

export interface ClientRepository {
  /** `forUpdate` (PostgreSQL) makes concurrent writers of one client queue. */
  find(projectId: string, clientId: string, options?: { forUpdate?: boolean }): Promise<ClientRecord | undefined>;
  /** Oldest first. */
  listByProject(projectId: string): Promise<ClientRecord[]>;
  anyExists(): Promise<boolean>;
  /** Writes the client and its configuration as revision 1 of its history. */
  insert(client: ClientRecord, createdBy: string | null): Promise<void>;
  /**
   * The optimistic lock, ONE conditional write: `client_version = client_version + 1 WHERE client_version = expectedVersion`.
   * False when another writer got there first.
   */
  updateIfVersion(clientId: string, expectedVersion: number, changes: ClientMetadataChanges): Promise<boolean>;
  /** As updateIfVersion, replacing the configuration with revision `revision` and recording it in the history. */
  reviseIfVersion(
    clientId: string,
    expectedVersion: number,
    revision: { revision: number; configuration: ClientConfiguration; createdBy: string | null; updatedAt: number },
  ): Promise<boolean>;
  /** The history, oldest first. */
  listRevisions(clientId: string): Promise<ClientRevisionRecord[]>;
  /**
   * Deletes the client with its revisions and secrets; false when it is not there (any more) or, given
   * `expectedVersion`, no longer at that version (roll the transaction back then).
   */
  delete(clientId: string, expectedVersion?: number): Promise<boolean>;
  findForProtocol(clientId: string): Promise<ProtocolClient | undefined>;
}

type ConfigurationColumns = Pick<ClientRow, 'redirect_uris' | 'post_logout_redirect_uris' | 'scope_whitelist' | 'require_pkce' | 'claims_in_id_token'>;

function toConfiguration(row: ConfigurationColumns): ClientConfiguration {
  return {
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
    scopeWhitelist: JSON.parse(row.scope_whitelist) as Scope[],
    requirePkce: row.require_pkce === 1,
    claimsInIdToken: Number(row.claims_in_id_token) === 1,
  };
}

function configurationColumns(configuration: ClientConfiguration): ConfigurationColumns {
  return {
    redirect_uris: JSON.stringify(configuration.redirectUris),
    post_logout_redirect_uris: JSON.stringify(configuration.postLogoutRedirectUris),
    scope_whitelist: JSON.stringify(configuration.scopeWhitelist),
    require_pkce: configuration.requirePkce ? 1 : 0,
    claims_in_id_token: configuration.claimsInIdToken ? 1 : 0,
  };
}

/** The one mapping of a clients row, shared by the services and the OIDC side. */
export function toClientRecord(row: ClientRow): ClientRecord {
  return {
    clientId: row.client_id,
    projectId: row.project_id,
    clientType: row.client_type,
    displayName: row.display_name,
    description: row.description,
    ...toConfiguration(row),
    status: row.status,
    revision: row.revision,
    clientVersion: row.client_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const CLIENT_COLUMNS = [
  'clients.client_id',
  'clients.project_id',
  'clients.client_type',
  'clients.display_name',
  'clients.description',
  'clients.redirect_uris',
  'clients.post_logout_redirect_uris',
  'clients.scope_whitelist',
  'clients.require_pkce',
  'clients.claims_in_id_token',
  'clients.status',
  'clients.client_version',
  'clients.revision',
  'clients.created_at',
  'clients.updated_at',
] as const;

// One row per active or retiring secret (a web client has one or two), or one row with none.
// Every protocol request reads its client: compiled once (precompiled-query.ts).
function protocolClientQuery(db: Db) {
  return precompile(['clientId'], (value) =>
    db
      .selectFrom('clients')
      .innerJoin('projects', 'projects.project_id', 'clients.project_id')
      .leftJoin('client_secrets', (join) => join.onRef('client_secrets.client_id', '=', 'clients.client_id').on('client_secrets.status', 'in', ['active', 'retiring']))
      .select([
        ...CLIENT_COLUMNS,
        'projects.status as project_status',
        'client_secrets.secret_id',
        'client_secrets.digest',
        'client_secrets.status as secret_status',
        'client_secrets.created_at as secret_created_at',
        'client_secrets.expires_at as secret_expires_at',
        'client_secrets.last_used_at as secret_last_used_at',
      ])
      .where('clients.client_id', '=', value('clientId'))
      .orderBy('client_secrets.secret_id'));
}

export const clientRepository: RepositoryFactory<ClientRepository> = (db) => {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const protocolClient = protocolClientQuery(db);
  return (executor: Executor) => ({
    async find(projectId, clientId, options = {}) {
      if (!isStorableText(projectId) || !isStorableText(clientId)) return undefined;
      let query = executor.selectFrom('clients').selectAll().where('client_id', '=', clientId).where('project_id', '=', projectId);
      if (options.forUpdate && postgres) query = query.forUpdate();
      const row = await query.executeTakeFirst();
      return row && toClientRecord(row);
    },

    async listByProject(projectId) {
      if (!isStorableText(projectId)) return [];
      const rows = await executor.selectFrom('clients').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('client_id').execute();
      return rows.map(toClientRecord);
    },

    async anyExists() {
      return (await executor.selectFrom('clients').select('client_id').limit(1).executeTakeFirst()) !== undefined;
    },

    async insert(client, createdBy) {
      const configuration = configurationColumns(client);
      await executor
        .insertInto('clients')
        .values({
          client_id: client.clientId,
          project_id: client.projectId,
          client_type: client.clientType,
          display_name: client.displayName,
          description: client.description,
          ...configuration,
          status: client.status,
          client_version: client.clientVersion,
          revision: client.revision,
          created_at: client.createdAt,
          updated_at: client.updatedAt,
        })
        .execute();
      await executor
        .insertInto('client_revisions')
        .values({ client_id: client.clientId, revision: client.revision, ...configuration, created_by: createdBy, created_at: client.createdAt })
        .execute();
    },

    async updateIfVersion(clientId, expectedVersion, changes) {
      if (!isStorableText(clientId)) return false;
      const result = await executor
        .updateTable('clients')
        .set((eb) => ({
          ...(changes.displayName !== undefined ? { display_name: changes.displayName } : {}),
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          updated_at: changes.updatedAt,
          client_version: eb('client_version', '+', 1),
        }))
        .where('client_id', '=', clientId)
        .where('client_version', '=', expectedVersion)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async reviseIfVersion(clientId, expectedVersion, { revision, configuration, createdBy, updatedAt }) {
      if (!isStorableText(clientId)) return false;
      const columns = configurationColumns(configuration);
      const result = await executor
        .updateTable('clients')
        .set((eb) => ({ ...columns, revision, updated_at: updatedAt, client_version: eb('client_version', '+', 1) }))
        .where('client_id', '=', clientId)
        .where('client_version', '=', expectedVersion)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await executor.insertInto('client_revisions').values({ client_id: clientId, revision, ...columns, created_by: createdBy, created_at: updatedAt }).execute();
      return true;
    },

    async listRevisions(clientId) {
      if (!isStorableText(clientId)) return [];
      const rows = await executor.selectFrom('client_revisions').selectAll().where('client_id', '=', clientId).orderBy('revision').execute();
      return rows.map((row) => ({ clientId: row.client_id, revision: row.revision, ...toConfiguration(row), createdBy: row.created_by, createdAt: row.created_at }));
    },

    async delete(clientId, expectedVersion) {
      if (!isStorableText(clientId)) return false;
      await executor.deleteFrom('client_secrets').where('client_id', '=', clientId).execute();
      await executor.deleteFrom('client_revisions').where('client_id', '=', clientId).execute();
      let query = executor.deleteFrom('clients').where('client_id', '=', clientId);
      if (expectedVersion !== undefined) query = query.where('client_version', '=', expectedVersion);
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async findForProtocol(clientId) {
      if (!isStorableText(clientId)) return undefined;
      const { rows } = await executor.executeQuery(protocolClient({ clientId }));
      const first = rows[0];
      if (!first) return undefined;
      const secrets = rows.flatMap((row) =>
        row.secret_id === null || row.digest === null
          ? []
          : [toStoredClientSecret({
              secret_id: row.secret_id,
              client_id: row.client_id,
              digest: row.digest,
              status: row.secret_status!,
              created_at: row.secret_created_at!,
              expires_at: row.secret_expires_at,
              last_used_at: row.secret_last_used_at,
            })],
      );
      return { client: toClientRecord(first), projectStatus: first.project_status, secrets };
    },
  });
};
