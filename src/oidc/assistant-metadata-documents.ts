import { lookup } from 'node:dns/promises';
import { request } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { errors, type Configuration } from 'oidc-provider';
import type { Config } from '../config.ts';
import { isMetadataDocumentClientId } from '../domain/client-id-documents.ts';

/**
 * Client ID metadata documents (DESIGN 15; draft-ietf-oauth-client-id-metadata-document): an assistant
 * unknown to Sesame names itself by the https URL of a JSON document describing it. oidc-provider fetches,
 * caches and parses the document (its `clientIdMetadataDocument` feature); this module decides which
 * documents may be fetched, fetches them within Sesame's limits, and makes every such client a `native`
 * assistant that belongs to no project.
 */

export const METADATA_DOCUMENT_LIMITS = {
  timeoutMs: 5000,
  maxBytes: 64 * 1024,
  /** oidc-provider keeps a document as long as its Cache-Control says, within these bounds (seconds). */
  cacheSeconds: { min: 30, max: 24 * 3600 },
} as const;

/** The only scopes an assistant known by its metadata document may ask for, besides Sesame's sesame:* resource scopes. */
export const METADATA_DOCUMENT_CLIENT_SCOPES = ['offline_access'] as const;

export { isMetadataDocumentClientId };

/** The host a metadata document client id names, as the consent page shows it. */
export function metadataDocumentHost(clientId: string): string {
  return URL.parse(clientId)?.host ?? clientId;
}

export type MetadataRefusalReason = 'private_address' | 'redirect' | 'too_large' | 'fetch_failed' | 'not_found';

/** Why Sesame would not use a metadata document, for the error page's developer details. */
export class MetadataDocumentRefused extends Error {
  readonly reason: MetadataRefusalReason;
  constructor(reason: MetadataRefusalReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

// Addresses a document must not come from unless its host:port is listed in ASSISTANT_METADATA_ALLOWED_HOSTS.
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['2002::', 16], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPublicAddress(mapped);
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const hostKey = (url: URL) => `${url.hostname.toLowerCase()}:${url.port === '' ? 443 : Number(url.port)}`;

/**
 * The `fetch` oidc-provider calls for a metadata document. The host is resolved first and every address
 * it resolves to must be public (unless its host:port is allowed); the connection then goes to the
 * address checked, never to a second resolution, so a host that rebinds between the check and the
 * connection gets nowhere. HTTPS verifies the certificate for the host name against the system CAs plus
 * NODE_EXTRA_CA_CERTS. Redirects are refused, not followed; the body is read up to the size limit.
 */
export function metadataDocumentFetch(config: Pick<Config, 'assistantMetadata'>): (url: string, options: { signal?: AbortSignal; headers?: Headers }) => Promise<Response> {
  const allowed = new Set(config.assistantMetadata.allowedHosts);
  return async (target, options) => {
    const url = new URL(target);
    if (url.protocol !== 'https:') throw new MetadataDocumentRefused('fetch_failed', 'a client metadata document is fetched over https only');
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(hostname) ? [{ address: hostname, family: isIP(hostname) }] : await lookup(hostname, { all: true }).catch(() => {
      throw new MetadataDocumentRefused('fetch_failed', `the host ${url.hostname} of the client metadata document does not resolve`);
    });
    if (addresses.length === 0) throw new MetadataDocumentRefused('fetch_failed', `the host ${url.hostname} of the client metadata document does not resolve`);
    if (!allowed.has(hostKey(url)) && !addresses.every(({ address }) => isPublicAddress(address))) {
      throw new MetadataDocumentRefused(
        'private_address',
        `the host ${url.host} of the client metadata document resolves to a private or loopback address, and ${hostKey(url)} is not listed in ASSISTANT_METADATA_ALLOWED_HOSTS`,
      );
    }
    const pinned = addresses[0]!;
    return new Promise<Response>((resolve, reject) => {
      const signals = [AbortSignal.timeout(METADATA_DOCUMENT_LIMITS.timeoutMs), ...(options.signal ? [options.signal] : [])];
      const outgoing = request(
        {
          protocol: 'https:',
          hostname,
          port: url.port === '' ? 443 : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: { accept: 'application/json', 'user-agent': 'Sesame' },
          signal: AbortSignal.any(signals),
          ...(isIP(hostname) ? {} : { servername: hostname }),
          // The address checked above, whatever the resolver would answer now.
          lookup: ((_host: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
            if (lookupOptions.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
            else callback(null, pinned.address, pinned.family);
          }) as unknown as LookupFunction,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400) {
            response.destroy();
            reject(new MetadataDocumentRefused('redirect', `the client metadata document answered ${status} (a redirect); Sesame follows no redirect: serve the document at its client_id`));
            return;
          }
          if (status !== 200) {
            response.destroy();
            reject(new MetadataDocumentRefused('not_found', `the client metadata document answered ${status}, not 200`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > METADATA_DOCUMENT_LIMITS.maxBytes) {
              response.destroy();
              reject(new MetadataDocumentRefused('too_large', `the client metadata document is larger than ${METADATA_DOCUMENT_LIMITS.maxBytes / 1024} KiB`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('error', (error) => reject(new MetadataDocumentRefused('fetch_failed', `reading the client metadata document failed: ${error.message}`)));
          response.on('end', () => {
            if (size > METADATA_DOCUMENT_LIMITS.maxBytes) return;
            const headers = new Headers();
            for (const name of ['content-type', 'cache-control', 'expires']) {
              const value = response.headers[name];
              if (typeof value === 'string') headers.set(name, value);
            }
            resolve(new Response(Buffer.concat(chunks), { status, headers }));
          });
        },
      );
      outgoing.on('error', (error) => {
        const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
        reject(new MetadataDocumentRefused('fetch_failed', timedOut ? `the client metadata document did not arrive within ${METADATA_DOCUMENT_LIMITS.timeoutMs / 1000} s` : `fetching the client metadata document failed: ${error.message}`));
      });
      outgoing.end();
    });
  };
}

type Feature = NonNullable<Configuration['features']>['clientIdMetadataDocument'];

/** oidc-provider's clientIdMetadataDocument feature as Sesame configures it (discovery then says client_id_metadata_document_supported). */
export function metadataDocumentFeature(config: Pick<Config, 'assistantMetadata'>): Feature {
  if (!config.assistantMetadata.enabled) return { enabled: false };
  return {
    enabled: true,
    ack: 'draft-02',
    async allowFetch(_ctx, clientId) {
      return isMetadataDocumentClientId(clientId);
    },
    cacheDuration: { ...METADATA_DOCUMENT_LIMITS.cacheSeconds },
  } as Feature;
}

const DOCUMENT_REQUIRED = ['client_name', 'redirect_uris'] as const;

/**
 * Called by oidc-provider for every client it builds (extraClientMetadata.validator), before its own
 * checks. A client built from a metadata document is made a native assistant here, whatever the document
 * says about Sesame's own fields: PKCE always, no secret, refresh tokens, no logout redirects, and only
 * offline_access among the OpenID scopes. A document missing what DESIGN 15 requires is refused.
 */
export function shapeMetadataDocumentClient(metadata: Record<string, unknown>): void {
  const clientId = metadata.client_id;
  if (typeof clientId !== 'string' || !clientId.startsWith('https://')) return;
  for (const field of DOCUMENT_REQUIRED) {
    if (metadata[field] === undefined) throw new errors.InvalidClientMetadata(`client_id metadata document must contain ${field}`);
  }
  if (typeof metadata.client_name !== 'string' || metadata.client_name.trim() === '') throw new errors.InvalidClientMetadata('client_id metadata document client_name must be a non-empty string');
  if (metadata.token_endpoint_auth_method !== 'none') throw new errors.InvalidClientMetadata('client_id metadata document must say token_endpoint_auth_method "none" (a public client)');
  Object.assign(metadata, {
    application_type: 'native',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope: METADATA_DOCUMENT_CLIENT_SCOPES.join(' '),
    post_logout_redirect_uris: [],
    id_token_signed_response_alg: 'RS256',
    sesame_client_type: 'native',
    sesame_require_pkce: true,
    sesame_secrets: undefined,
  });
}
