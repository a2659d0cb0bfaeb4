import * as oidc from 'openid-client';
import type { RelyingParty } from './oidc-clients.ts';

/** openid-client v6 configured as the relying party: client_secret_basic with a secret, none without. */
export async function discoverAs(issuer: string, rp: RelyingParty): Promise<oidc.Configuration> {
  const auth = rp.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(rp.clientSecret);
  return oidc.discovery(new URL(issuer), rp.clientId, undefined, auth, { execute: [oidc.allowInsecureRequests] });
}

export interface AuthorizationRequest {
  url: string;
  codeVerifier: string;
  state: string;
  nonce: string;
}

/** An authorization request with PKCE S256, state and nonce, as a careful relying party makes it. */
export async function authorizationRequest(
  config: oidc.Configuration,
  rp: RelyingParty,
  scope: string,
  extra: Record<string, string> = {},
): Promise<AuthorizationRequest> {
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: rp.redirectUri,
    scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url: url.href, codeVerifier, state, nonce };
}

export function redeemCode(config: oidc.Configuration, request: AuthorizationRequest, callbackUrl: string) {
  return oidc.authorizationCodeGrant(config, new URL(callbackUrl), {
    pkceCodeVerifier: request.codeVerifier,
    expectedState: request.state,
    expectedNonce: request.nonce,
    idTokenExpected: true,
  });
}

/** The OAuth error code a failed openid-client call carries (a body error, or a WWW-Authenticate challenge). */
export function oauthError(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: { error?: string; cause?: { parameters?: { error?: string } }[] }) => error.error ?? error.cause?.[0]?.parameters?.error,
  );
}
