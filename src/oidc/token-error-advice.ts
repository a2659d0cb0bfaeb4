import type { KoaContextWithOIDC } from 'oidc-provider';

// RFC 6749 5.2: printable ASCII without '"' and '\'. Each text is the same whatever the cause, so it tells a
// caller nothing about a particular code, token or client beyond the error code itself.
const TOKEN_ERROR_ADVICE = {
  authorization_code:
    'The authorization code is invalid, expired or already used, or does not match this client, redirect_uri or code_verifier. ' +
    'A code is single-use and lives a few minutes: send the user through a new authorization request and redeem its code once, at once, with the same redirect_uri and code_verifier.',
  refresh_token:
    'The refresh token is invalid, expired or revoked, or was already used (each use replaces it, and presenting a replaced one ends the sign-in). ' +
    'Keep only the newest refresh token; now send the user through a new authorization request.',
  other: 'The grant is invalid or expired; send the user through a new authorization request.',
  invalid_client:
    'Client authentication failed. A confidential client sends its client_id and a current secret with HTTP Basic (each form-urlencoded first, RFC 6749 2.3.1); ' +
    'a public client sends only client_id in the body. After a secret rotation use the new secret; check with the client owner that the client is active.',
} as const;

/**
 * The token endpoint's invalid_grant and invalid_client answers say what to do next. oidc-provider
 * gives one fixed text for each ("grant request is invalid") and keeps the reason to itself, as the
 * reason could tell an attacker which part was wrong; this keeps that, and only adds the way forward.
 */
export async function adviseOnTokenErrors(ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> {
  await next();
  if (ctx.method !== 'POST' || ctx.path !== '/token' || (ctx.status !== 400 && ctx.status !== 401)) return;
  const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
  if (body?.error === 'invalid_client') body.error_description = TOKEN_ERROR_ADVICE.invalid_client;
  if (body?.error === 'invalid_grant') {
    const grantType = (ctx.oidc?.params as { grant_type?: unknown } | undefined)?.grant_type;
    body.error_description = grantType === 'authorization_code' || grantType === 'refresh_token' ? TOKEN_ERROR_ADVICE[grantType] : TOKEN_ERROR_ADVICE.other;
  }
}
