import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { createStore, type Store } from '../storage/store.ts';
import { verifyAssistantToken, type VerifiedAssistantToken } from './assistant-token-verifier.ts';
import { buildProvider, type OidcDeps } from './provider.ts';
import { loadSigningJwks, signingKeysFingerprint, type SigningJwks } from './signing-keys.ts';

export interface LiveProvider {
  /** The provider serving now; replaced when the published signing keys, or the keys that sign, change. */
  current(): Provider;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * Re-reads the signing keys and, when the published set changed (a rotation, a retired key past its
   * publication) or a published key's time to sign has come, rebuilds the provider with them.
   * Everything else oidc-provider keeps is in the database, so swapping instances loses nothing.
   * Returns whether the keys changed.
   */
  refreshSigningKeys(): Promise<boolean>;
  /** The repositories the provider keeps its artifacts and reads its keys through. */
  store: Store;
  /** An assistant's OAuth access token for `resource` ({issuer}/mcp or {issuer}/api/agent), checked now; undefined when not usable there. */
  verifyAssistantToken(token: string, resource: string): Promise<VerifiedAssistantToken | undefined>;
}

export async function createLiveProvider(deps: OidcDeps): Promise<LiveProvider> {
  const store = createStore(deps.db, deps.engine);
  const load = () => loadSigningJwks(store, deps.clock, deps.instanceSecrets.keyEncryptionSecret);
  let jwks: SigningJwks = await load();
  let provider = buildProvider(deps, jwks, store);
  let callback = provider.callback();
  return {
    store,
    current: () => provider,
    handle: (req, res) => callback(req, res),
    verifyAssistantToken: (token, resource) => verifyAssistantToken(provider, deps.services, token, resource, { metadataDocuments: deps.config.assistantMetadata.enabled }),
    async refreshSigningKeys() {
      if ((await signingKeysFingerprint(store, deps.clock)) === jwks.fingerprint) return false;
      const next = await load();
      jwks = next;
      provider = buildProvider(deps, next, store);
      callback = provider.callback();
      return true;
    },
  };
}
