/** Lifetimes of what the provider issues, in seconds; docs/oidc.md states the same figures. */
export const TOKEN_LIFETIMES = {
  authorizationCode: 60,
  accessToken: 3600,
  idToken: 3600,
  /** Refresh tokens (web clients granted offline_access); each use replaces the token with a new one. */
  refreshToken: 14 * 24 * 3600,
  /** A refresh token chain ends this long after the first sign-in, however often it was rotated. */
  refreshTokenAbsolute: 90 * 24 * 3600,
  /** The sign-in session at the provider (the browser's single sign-on cookie). */
  session: 24 * 3600,
  /** A grant outlives its refresh token chain, so rotation never finds it gone. */
  grant: 90 * 24 * 3600,
  /** Time a person has to finish the login and consent pages. */
  interaction: 3600,
  /** How long a consent given on the consent page is remembered for the same client and scopes. */
  rememberedConsent: 365 * 24 * 3600,
} as const;

/** What an assistant is told about its tokens (the MCP guide): the same figures as the provider's. */
export const ASSISTANT_TOKEN_LIFETIMES = {
  accessTokenSeconds: TOKEN_LIFETIMES.accessToken,
  refreshTokenIdleSeconds: TOKEN_LIFETIMES.refreshToken,
  connectionMaxSeconds: TOKEN_LIFETIMES.refreshTokenAbsolute,
} as const;

/**
 * A retired signing key stays published this long: nothing signed with it can still be valid after.
 * Only ID tokens are signed (access and refresh tokens are opaque), but the longest lifetime of any
 * token is used so that a later change to token formats cannot outlive its key.
 */
export const RETIRED_KEY_PUBLICATION_SECONDS = Math.max(
  TOKEN_LIFETIMES.accessToken,
  TOKEN_LIFETIMES.idToken,
  TOKEN_LIFETIMES.refreshToken,
);
