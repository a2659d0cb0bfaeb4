import type { InferResult } from 'kysely';
import type { AdapterPayload } from 'oidc-provider';
import type { Scope } from '../domain/clients.ts';
import { randomBase62 } from '../domain/ids.ts';
import type { Db } from '../storage/database.ts';
import { precompile } from '../storage/precompiled-query.ts';
import { isStorableText } from '../domain/text-rules.ts';

/**
 * oidc-provider takes a single `client_secret` per client and would compare it itself; Sesame keeps
 * several secret digests per client instead and checks them in the secrets bridge. The schema still
 * demands a value for `client_secret_basic` clients, so each process gives it one nobody knows.
 */
const SECRET_PLACEHOLDER = randomBase62(43);

/** Metadata beyond the OIDC registration fields, read by the provider's policies and the secrets bridge. */
export const SESAME_CLIENT_METADATA = ['sesame_client_type', 'sesame_require_pkce', 'sesame_secrets'] as const;

/** A usable-or-not secret of a web client as the secrets bridge checks it: its digest, never the secret. */
export interface StoredClientSecret {
  secretId: string;
  digest: string;
  status: 'active' | 'retiring';
  expiresAt: number | null;
  lastUsedAt: number | null;
}

export interface SesameClientFields {
  sesame_client_type?: 'web' | 'spa';
  sesame_require_pkce?: boolean;
  /** Read with the client, so /token authenticates it without a query of its own. */
  sesame_secrets?: StoredClientSecret[];
}

const isWebUri = (uri: string) => uri.startsWith('https://') || uri.startsWith('http://');

// One row per active or retiring secret (a web client has one or two), or one row with none.
// Every protocol request reads its client: compiled once (precompiled-query.ts).
function clientRowsQuery(db: Db) {
  return precompile(['clientId'], (value) =>
    db
      .selectFrom('clients')
      .innerJoin('projects', 'projects.project_id', 'clients.project_id')
      .leftJoin('client_secrets', (join) => join.onRef('client_secrets.client_id', '=', 'clients.client_id').on('client_secrets.status', 'in', ['active', 'retiring']))
      .select([
        'clients.client_id',
        'clients.client_type',
        'clients.display_name',
        'clients.redirect_uris',
        'clients.post_logout_redirect_uris',
        'clients.scope_whitelist',
        'clients.require_pkce',
        'clients.status',
        'projects.status as project_status',
        'client_secrets.secret_id',
        'client_secrets.digest',
        'client_secrets.status as secret_status',
        'client_secrets.expires_at as secret_expires_at',
        'client_secrets.last_used_at as secret_last_used_at',
      ])
      .where('clients.client_id', '=', value('clientId'))
      .orderBy('client_secrets.secret_id'));
}

type ClientRow = InferResult<ReturnType<ReturnType<typeof clientRowsQuery>>>[number];

/**
 * The client as oidc-provider should see it, read from the clients table on every lookup so a change
 * made through either API applies to the next request on every instance. A disabled client, or one in
 * an archived project, does not exist for the protocol: /auth and /token refuse it as unknown.
 */
export function createClientMetadataFinder(db: Db): (clientId: string) => Promise<AdapterPayload | undefined> {
  const clientRows = clientRowsQuery(db);
  return async (clientId) => {
    if (!isStorableText(clientId)) return undefined;
    const { rows } = await db.executeQuery(clientRows({ clientId }));
    return rows.length === 0 ? undefined : toMetadata(rows);
  };
}

function toMetadata(rows: ClientRow[]): AdapterPayload | undefined {
  const row = rows[0]!;
  if (row.status !== 'active' || row.project_status !== 'active') return undefined;

  const redirectUris = JSON.parse(row.redirect_uris) as string[];
  const postLogoutRedirectUris = JSON.parse(row.post_logout_redirect_uris) as string[];
  const scopes = JSON.parse(row.scope_whitelist) as Scope[];
  const web = row.client_type === 'web';
  const refreshTokens = web && scopes.includes('offline_access');

  const metadata: AdapterPayload & SesameClientFields = {
    client_id: row.client_id,
    client_name: row.display_name,
    // Private-use schemes (com.example.app:/cb) are only valid for native clients in oidc-provider.
    application_type: [...redirectUris, ...postLogoutRedirectUris].every(isWebUri) ? 'web' : 'native',
    redirect_uris: redirectUris,
    post_logout_redirect_uris: postLogoutRedirectUris,
    response_types: ['code'],
    grant_types: refreshTokens ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
    scope: scopes.join(' '),
    id_token_signed_response_alg: 'RS256',
    ...(web
      ? { token_endpoint_auth_method: 'client_secret_basic', client_secret: SECRET_PLACEHOLDER, client_secret_expires_at: 0, sesame_secrets: storedSecretsOf(rows) }
      : { token_endpoint_auth_method: 'none' }),
    sesame_client_type: row.client_type,
    sesame_require_pkce: row.client_type === 'spa' || row.require_pkce === 1,
  };
  return metadata;
}

function storedSecretsOf(rows: ClientRow[]): StoredClientSecret[] {
  return rows.flatMap((row) =>
    row.secret_id === null || row.digest === null
      ? []
      : [{ secretId: row.secret_id, digest: row.digest, status: row.secret_status as StoredClientSecret['status'], expiresAt: row.secret_expires_at, lastUsedAt: row.secret_last_used_at }],
  );
}
