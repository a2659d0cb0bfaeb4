import * as oidcClient from 'openid-client';
import { AppError } from '../../errors.ts';

/** How long Sesame waits for an upstream's discovery document, JWKS or token endpoint. */
export const UPSTREAM_TIMEOUT_SECONDS = 10;

/**
 * The upstream's configuration for Sesame's client there, read from `{issuer}/.well-known/openid-configuration`
 * (openid-client checks that the document names this very issuer). A secret means client_secret_basic; none,
 * a public client (PKCE only). http is accepted only for loopback issuers (the contract refuses others).
 */
export async function discoverUpstream(issuer: string, clientId: string, clientSecret: string | null): Promise<oidcClient.Configuration> {
  const insecure = new URL(issuer).protocol === 'http:';
  return oidcClient.discovery(new URL(issuer), clientId, clientSecret === null ? { token_endpoint_auth_method: 'none' } : clientSecret, clientSecret === null ? oidcClient.None() : oidcClient.ClientSecretBasic(clientSecret), {
    timeout: UPSTREAM_TIMEOUT_SECONDS,
    ...(insecure ? { execute: [oidcClient.allowInsecureRequests] } : {}),
  });
}

/** Discovery as a check when a provider is added or changed: a clear 400 naming `oidc.issuer` when it fails. */
export async function checkUpstreamDiscovery(issuer: string, clientId: string, clientSecret: string | null): Promise<void> {
  try {
    const configuration = await discoverUpstream(issuer, clientId, clientSecret);
    const metadata = configuration.serverMetadata();
    if (!metadata.authorization_endpoint || !metadata.token_endpoint || !metadata.jwks_uri) {
      throw new Error('its discovery document lacks authorization_endpoint, token_endpoint or jwks_uri');
    }
    if (metadata.code_challenge_methods_supported && !metadata.code_challenge_methods_supported.includes('S256')) {
      throw new Error('it does not support PKCE with S256');
    }
  } catch (error) {
    const reason = (error as Error).message || String(error);
    throw new AppError('invalid_request', `Sesame could not use ${issuer} as an OpenID Connect issuer: ${reason}. Check the issuer URL (its /.well-known/openid-configuration must answer from this server and name the same issuer) and send again.`, {
      fieldErrors: { 'oidc.issuer': `discovery failed: ${reason}` },
    });
  }
}
