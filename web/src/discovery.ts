import type { OidcDiscovery } from './api/types.ts';

let cached: Promise<OidcDiscovery | null> | undefined;

/** The provider's discovery document, for showing relying-party developers what to configure. */
export function loadDiscovery(): Promise<OidcDiscovery | null> {
  cached ??= fetch('/.well-known/openid-configuration', { headers: { accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<OidcDiscovery>) : null))
    .catch(() => null);
  return cached;
}
