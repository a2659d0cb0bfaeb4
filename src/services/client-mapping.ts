import type { Kysely, Transaction } from 'kysely';
import { secretIsUsable } from '../domain/client-secrets.ts';
import type { Scope } from '../domain/clients.ts';
import type { ClientRow, ClientSecretRow, Database } from '../storage/schema.ts';
import { isPostgres } from './project-access.ts';
import type { Client, SecretInfo } from './types.ts';

type Queryable = Kysely<Database> | Transaction<Database>;

/**
 * A retiring secret whose grace period has ended is reported as `revoked` (its expiresAt says when it
 * stopped): the status always tells whether /token still accepts it. The row itself is rewritten to
 * `revoked` lazily, by the next rotation or revocation.
 */
export function toSecretInfo(row: ClientSecretRow, now: number): SecretInfo {
  const status = row.status === 'retiring' && !secretIsUsable({ status: row.status, expiresAt: row.expires_at }, now) ? 'revoked' : row.status;
  return { secretId: row.secret_id, status, createdAt: row.created_at, expiresAt: row.expires_at, lastUsedAt: row.last_used_at };
}

const STATUS_ORDER: Record<SecretInfo['status'], number> = { active: 0, retiring: 1, revoked: 2 };

/**
 * The client as the APIs show it. `secrets` lists every secret the client ever had, revoked ones
 * included (their status says so): the active one first, then retiring, then revoked, each newest first.
 * Digests never leave this module's input.
 */
export function toClient(row: ClientRow, secretRows: readonly ClientSecretRow[], now: number): Client {
  return {
    clientId: row.client_id,
    projectId: row.project_id,
    clientType: row.client_type,
    displayName: row.display_name,
    description: row.description,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
    scopeWhitelist: JSON.parse(row.scope_whitelist) as Scope[],
    requirePkce: row.require_pkce === 1,
    status: row.status,
    revision: row.revision,
    secrets: secretRows
      .map((secret) => toSecretInfo(secret, now))
      .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.createdAt - a.createdAt || (a.secretId < b.secretId ? 1 : -1)),
    clientVersion: row.client_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** `forUpdate` (PostgreSQL) makes concurrent writers of one client queue, see resolveProjectAccess. */
export async function loadClientRow(db: Queryable, projectId: string, clientId: string, options: { forUpdate?: boolean } = {}): Promise<ClientRow | undefined> {
  let query = db.selectFrom('clients').selectAll().where('client_id', '=', clientId).where('project_id', '=', projectId);
  if (options.forUpdate && isPostgres(db)) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function loadSecretRows(db: Queryable, clientIds: readonly string[]): Promise<ClientSecretRow[]> {
  if (clientIds.length === 0) return [];
  return db.selectFrom('client_secrets').selectAll().where('client_id', 'in', clientIds).execute();
}

export async function loadClient(db: Queryable, projectId: string, clientId: string, now: number): Promise<Client | undefined> {
  const row = await loadClientRow(db, projectId, clientId);
  return row ? toClient(row, await loadSecretRows(db, [row.client_id]), now) : undefined;
}

/** The audited view of a client: its metadata and OIDC configuration, never a secret. */
export function auditedClientFields(client: Client) {
  return {
    clientType: client.clientType,
    displayName: client.displayName,
    description: client.description,
    status: client.status,
    redirectUris: client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    scopeWhitelist: client.scopeWhitelist,
    requirePkce: client.requirePkce,
  };
}
