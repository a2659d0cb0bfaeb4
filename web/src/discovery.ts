/** The fields of the provider's discovery document the console shows (it is not part of the Management API). */
export interface OidcDiscovery {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  userinfo_endpoint?: string;
  jwks_uri?: string;
  end_session_endpoint?: string;
}

let cached: Promise<OidcDiscovery | null> | undefined;

/** The provider's discovery document, for showing relying-party developers what to configure. */
export function loadDiscovery(): Promise<OidcDiscovery | null> {
  cached ??= fetch('/.well-known/openid-configuration', { headers: { accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<OidcDiscovery>) : null))
    .catch(() => null);
  return cached;
}
