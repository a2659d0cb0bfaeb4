/** One lifetime for both kinds of management session: the Agent API states `expiresIn: 86400`, and the console matches it. */
export const SESSION_LIFETIME_SECONDS = 86_400;

/** Audit trail pages: how many entries one read returns. */
export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/** Administrators' list of assistant grants: how many one read returns. */
export const ASSISTANT_GRANT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
/** The people listing of administrators (`GET /admin/users`). */
export const USER_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/**
 * Caps of the sign-in (DESIGN 13): wrong one-time codes per account before its one-time-code step answers 429
 * until the window passes, and failed directory binds per account that reach the directory before Sesame
 * refuses the account's password without a bind (except from the person's known browsers and addresses).
 */
export const ONE_TIME_CODE_CAP = { failures: 10, windowSeconds: 900 } as const;
export const DIRECTORY_BIND_CAP = { failures: 5, windowSeconds: 900 } as const;

/** How long what an assistant holds lives, in seconds: the OIDC engine's own lifetimes (src/oidc/token-lifetimes.ts), which both guides state. */
export interface AssistantTokenLifetimes {
  accessTokenSeconds: number;
  /** A refresh token unused this long expires. */
  refreshTokenIdleSeconds: number;
  /** The connection (the grant and its refresh tokens) ends this long after the person connected the assistant. */
  connectionMaxSeconds: number;
}

/** A lifetime as the guides word it: `1 hour`, `14 days`. */
export const durationInWords = (seconds: number): string =>
  seconds % 86_400 === 0 ? `${seconds / 86_400} days` : seconds % 3600 === 0 ? `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}` : `${seconds} seconds`;
