/** One lifetime for both kinds of management session: the Agent API states `expiresIn: 86400`, and the console matches it. */
export const SESSION_LIFETIME_SECONDS = 86_400;

/** Audit trail pages: how many entries one read returns. */
export const AUDIT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

/** Administrators' list of assistant grants: how many one read returns. */
export const ASSISTANT_GRANT_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
/** The people listing of administrators (`GET /admin/users`). */
export const USER_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
