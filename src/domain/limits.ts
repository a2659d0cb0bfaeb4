/** One lifetime for both kinds of management session: the Agent API states `expiresIn: 86400`, and the console matches it. */
export const SESSION_LIFETIME_SECONDS = 86_400;

/** Audit trail pages: how many entries one read returns. */
export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/** Administrators' list of assistant grants: how many one read returns. */
export const ASSISTANT_GRANT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/**
 * Caps of the sign-in (DESIGN 13): wrong one-time codes per account before its one-time-code step answers 429
 * until the window passes, and failed directory binds per account that reach the directory before Sesame
 * refuses the account's password without a bind (except from the person's known browsers and addresses).
 */
export const ONE_TIME_CODE_CAP = { failures: 10, windowSeconds: 900 } as const;
export const DIRECTORY_BIND_CAP = { failures: 5, windowSeconds: 900 } as const;
