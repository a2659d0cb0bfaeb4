// Every closed list of states an entity can be in; contracts, storage types and the console take them from here.

/** An archived project is read-only and its clients are suspended. */
export const PROJECT_STATUSES = ['active', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** A disabled client cannot sign anyone in. */
export const CLIENT_STATUSES = ['active', 'disabled'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

/** A retiring secret keeps working at /token until it expires. */
export const SECRET_STATUSES = ['active', 'retiring', 'revoked'] as const;
export type SecretStatus = (typeof SECRET_STATUSES)[number];

/** A disabled user cannot sign in anywhere. */
export const USER_STATUSES = ['active', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** A retired signing key no longer signs but stays published until its tokens have expired. */
export const SIGNING_KEY_STATUSES = ['active', 'retired'] as const;
export type SigningKeyStatus = (typeof SIGNING_KEY_STATUSES)[number];

/** Management sessions: the console's cookie, or an Agent API bearer token. */
export const SESSION_KINDS = ['console', 'agent'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];
