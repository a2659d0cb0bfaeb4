import type { Db } from '../database.ts';
import type { ClientSecretRow } from '../schema.ts';
import { precompile } from '../precompiled-query.ts';
import { isStorableText } from '../../domain/text-rules.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

/** A client secret's metadata: what the services show. The digest stays in storage and the secrets bridge. */
export interface ClientSecretRecord {
  secretId: string;
  clientId: string;
  status: 'active' | 'retiring' | 'revoked';
  createdAt: number;
  /** When a retiring secret stops working, or when a revoked one stopped. */
  expiresAt: number | null;
  lastUsedAt: number | null;
}

/** A secret as /token checks it: with its SHA-256 digest, never the secret itself. */
export interface StoredClientSecret extends ClientSecretRecord {
  digest: string;
}

export interface NewClientSecret {
  secretId: string;
  clientId: string;
  digest: string;
  createdAt: number;
}

export interface ClientSecretRepository {
  /** Every secret the clients ever had, revoked ones included. */
  listForClients(clientIds: readonly string[]): Promise<ClientSecretRecord[]>;
  find(clientId: string, secretId: string): Promise<ClientSecretRecord | undefined>;
  /** Stores a new active secret (its digest only). */
  insert(secret: NewClientSecret): Promise<ClientSecretRecord>;
  /** active -> retiring until `until`; false when the secret was not active. */
  retire(secretId: string, until: number): Promise<boolean>;
  /** -> revoked; `at` (when given) becomes its expiresAt, the moment it stopped. Returns how many changed. */
  revoke(secretIds: readonly string[], at?: number): Promise<number>;
  /** Notes a successful use at /token. */
  noteUsed(secretId: string, at: number): Promise<void>;
}

export function toClientSecretRecord(row: Omit<ClientSecretRow, 'digest'>): ClientSecretRecord {
  return {
    secretId: row.secret_id,
    clientId: row.client_id,
    status: row.status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
  };
}

export const toStoredClientSecret = (row: ClientSecretRow): StoredClientSecret => ({ ...toClientSecretRecord(row), digest: row.digest });

const METADATA_COLUMNS = ['secret_id', 'client_id', 'status', 'created_at', 'expires_at', 'last_used_at'] as const;

export const clientSecretRepository: RepositoryFactory<ClientSecretRepository> = (db: Db) => {
  // Runs after a successful /token authentication (at most once a minute per secret, see secrets-bridge.ts).
  const noteUsed = precompile(['at', 'secretId'], (value) => db.updateTable('client_secrets').set({ last_used_at: value('at') }).where('secret_id', '=', value('secretId')));
  return (executor: Executor) => ({
    async listForClients(clientIds) {
      const ids = clientIds.filter(isStorableText);
      if (ids.length === 0) return [];
      return (await executor.selectFrom('client_secrets').select(METADATA_COLUMNS).where('client_id', 'in', ids).execute()).map(toClientSecretRecord);
    },

    async find(clientId, secretId) {
      if (!isStorableText(clientId) || !isStorableText(secretId)) return undefined;
      const row = await executor.selectFrom('client_secrets').select(METADATA_COLUMNS).where('secret_id', '=', secretId).where('client_id', '=', clientId).executeTakeFirst();
      return row && toClientSecretRecord(row);
    },

    async insert(secret) {
      const row: ClientSecretRow = {
        secret_id: secret.secretId,
        client_id: secret.clientId,
        digest: secret.digest,
        status: 'active',
        created_at: secret.createdAt,
        expires_at: null,
        last_used_at: null,
      };
      await executor.insertInto('client_secrets').values(row).execute();
      return toClientSecretRecord(row);
    },

    async retire(secretId, until) {
      if (!isStorableText(secretId)) return false;
      const result = await executor
        .updateTable('client_secrets')
        .set({ status: 'retiring', expires_at: until })
        .where('secret_id', '=', secretId)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async revoke(secretIds, at) {
      const ids = secretIds.filter(isStorableText);
      if (ids.length === 0) return 0;
      const result = await executor
        .updateTable('client_secrets')
        .set(at === undefined ? { status: 'revoked' } : { status: 'revoked', expires_at: at })
        .where('secret_id', 'in', ids)
        .where('status', '!=', 'revoked')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async noteUsed(secretId, at) {
      if (!isStorableText(secretId)) return;
      await executor.executeQuery(noteUsed({ at, secretId }));
    },
  });
};
