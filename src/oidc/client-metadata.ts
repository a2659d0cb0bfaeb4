import type { AdapterPayload } from 'oidc-provider';
import { randomBase62 } from '../domain/ids.ts';
import type { ProtocolClient } from '../storage/repositories/client-repository.ts';
import type { Store } from '../storage/store.ts';
import type { StoredClientSecret } from '../storage/repositories/client-secret-repository.ts';

/** What the secrets bridge needs of a secret: which one, its digest, and whether it is still usable. */
export type StoredSecretForBridge = Pick<StoredClientSecret, 'secretId' | 'digest' | 'status' | 'expiresAt' | 'lastUsedAt'>;
const forBridge = ({ secretId, digest, status, expiresAt, lastUsedAt }: StoredClientSecret): StoredSecretForBridge => ({ secretId, digest, status, expiresAt, lastUsedAt });

/**
 * oidc-provider takes a single `client_secret` per client and would compare it itself; Sesame keeps
 * several secret digests per client instead and checks them in the secrets bridge. The schema still
 * demands a value for `client_secret_basic` clients, so each process gives it one nobody knows.
 */
const SECRET_PLACEHOLDER = randomBase62(43);

/** Metadata beyond the OIDC registration fields, read by the provider's policies and the secrets bridge. */
export const SESAME_CLIENT_METADATA = ['sesame_client_type', 'sesame_require_pkce', 'sesame_secrets', 'sesame_claims_in_id_token'] as const;

export interface SesameClientFields {
  sesame_client_type?: 'web' | 'spa' | 'native';
  sesame_require_pkce?: boolean;
  /** Read with the client, so /token authenticates it without a query of its own. */
  sesame_secrets?: StoredSecretForBridge[];
  /** The ID token also carries the profile and email claims of the granted scopes (src/oidc/account.ts). */
  sesame_claims_in_id_token?: boolean;
}

const isWebUri = (uri: string) => uri.startsWith('https://') || uri.startsWith('http://');

/**
 * The client as oidc-provider should see it, read from the clients table on every lookup (through the
 * client repository, as the services read it) so a change made through either API applies to the next
 * request on every instance. A disabled client, or one in an archived project, does not exist for the
 * protocol: /auth and /token refuse it as unknown.
 */
export function createClientMetadataFinder(store: Store): (clientId: string) => Promise<AdapterPayload | undefined> {
  const clients = store.repos.clients;
  return async (clientId) => {
    const found = await clients.findForProtocol(clientId);
    return found && toMetadata(found);
  };
}

function toMetadata({ client, projectStatus, secrets }: ProtocolClient): AdapterPayload | undefined {
  if (client.status !== 'active' || projectStatus !== 'active') return undefined;

  const { redirectUris, postLogoutRedirectUris, scopeWhitelist: scopes } = client;
  const web = client.clientType === 'web';
  const native = client.clientType === 'native';
  // An assistant (native) always may stay connected (DESIGN 15); whether it does is decided per request (assistantStaysConnected).
  const refreshTokens = native || (web && scopes.includes('offline_access'));

  const metadata: AdapterPayload & SesameClientFields = {
    client_id: client.clientId,
    client_name: client.displayName,
    // Private-use schemes (com.example.app:/cb) are only valid for native clients in oidc-provider.
    application_type: !native && [...redirectUris, ...postLogoutRedirectUris].every(isWebUri) ? 'web' : 'native',
    redirect_uris: redirectUris,
    post_logout_redirect_uris: postLogoutRedirectUris,
    response_types: ['code'],
    grant_types: refreshTokens ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
    scope: scopes.join(' '),
    id_token_signed_response_alg: 'RS256',
    ...(web
      ? { token_endpoint_auth_method: 'client_secret_basic', client_secret: SECRET_PLACEHOLDER, client_secret_expires_at: 0, sesame_secrets: secrets.map(forBridge) }
      : { token_endpoint_auth_method: 'none' }),
    sesame_client_type: client.clientType,
    sesame_require_pkce: !web || client.requirePkce,
    sesame_claims_in_id_token: client.claimsInIdToken,
  };
  return metadata;
}
