export const CLIENT_TYPES = ['web', 'spa', 'native'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const SCOPES = ['openid', 'profile', 'email', 'student', 'groups', 'offline_access'] as const;
export type Scope = (typeof SCOPES)[number];

export const STUDENT_STATUSES = ['active', 'not_student', 'unknown'] as const;
export type StudentStatus = (typeof STUDENT_STATUSES)[number];

export const SECRET_POLICY = {
  defaultGraceSeconds: 3600,
  maxGraceSeconds: 604_800,
  /** An active secret plus at most one retiring one. */
  maxUsableSecrets: 2,
} as const;

export const CLIENT_LIMITS = {
  maxRedirectUris: 20,
  maxUriLength: 2000,
  maxDisplayNameLength: 200,
  maxDescriptionLength: 2000,
} as const;

export interface ClientConfiguration {
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  scopeWhitelist: Scope[];
  requirePkce: boolean;
  /** The ID token also carries the profile, email and groups claims the granted scopes release in userinfo. */
  claimsInIdToken: boolean;
}

/** Public clients: no secret, PKCE S256 always. */
export const isPublicClientType = (clientType: ClientType): boolean => clientType !== 'web';
