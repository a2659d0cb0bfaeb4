export const CLIENT_TYPES = ['web', 'spa', 'native'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const SCOPES = ['openid', 'profile', 'email', 'student', 'offline_access'] as const;
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
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Public clients: no secret, PKCE S256 always. */
export const isPublicClientType = (clientType: ClientType): boolean => clientType !== 'web';

/**
 * A native app (RFC 8252) receives its code on a loopback port it picks at run time, or through a
 * private-use scheme; an https redirect would belong to a web server, which a native client is not.
 */
export function nativeRedirectUriProblem(value: string): string | undefined {
  const url = URL.parse(value);
  if (!url || url.protocol !== 'https:') return undefined;
  return 'a native client redirects to loopback http (http://127.0.0.1/..., http://[::1]/..., http://localhost/...) or a private-use scheme, not https';
}

/**
 * RFC 8252 7.3: a loopback redirect URI of a native client matches with any port; scheme, host,
 * path and query must be as registered. Every other URI, and every URI of web and spa clients,
 * matches exactly.
 */
export function nativeRedirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const a = withoutLoopbackPort(registered);
  return a !== undefined && a === withoutLoopbackPort(requested);
}

function withoutLoopbackPort(value: string): string | undefined {
  const url = URL.parse(value);
  if (!url || url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.username || url.password || value.includes('#')) return undefined;
  // Compare the text after the authority as written, so a path that URL would normalise still has to match exactly.
  const rest = value.slice('http://'.length).replace(/^[^/?]*/, '');
  return `http://${url.hostname}${rest}`;
}

/** Why a redirect or post-logout URI is refused, or undefined when it is acceptable. */
export function redirectUriProblem(value: string): string | undefined {
  if (value.length > CLIENT_LIMITS.maxUriLength) return `must be at most ${CLIENT_LIMITS.maxUriLength} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URI';
  }
  if (value.includes('#')) return 'must not contain a fragment (#)';
  if (url.protocol === 'https:') return url.hostname ? undefined : 'must name a host';
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname) ? undefined : 'must use https (http is allowed only for localhost, 127.0.0.1 and [::1])';
  }
  // Private-use schemes of native apps (RFC 8252 7.1) contain a dot, e.g. com.example.app:/callback.
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)) return undefined;
  return 'must be https, loopback http, or a private-use scheme such as com.example.app:/callback';
}

/**
 * Applies the registration rules shared by both APIs and the first-deployment import.
 * Returns the configuration as stored, or the problems keyed by field.
 */
export function checkClientConfiguration(
  clientType: ClientType,
  input: { redirectUris: string[]; postLogoutRedirectUris?: string[] | undefined; scopeWhitelist: string[]; requirePkce?: boolean | undefined },
): { ok: true; configuration: ClientConfiguration } | { ok: false; fieldErrors: Record<string, string> } {
  const fieldErrors: Record<string, string> = {};
  const postLogoutRedirectUris = input.postLogoutRedirectUris ?? [];

  if (input.redirectUris.length === 0) fieldErrors.redirectUris = 'at least one redirect URI is required';
  for (const [field, uris] of [['redirectUris', input.redirectUris], ['postLogoutRedirectUris', postLogoutRedirectUris]] as const) {
    if (uris.length > CLIENT_LIMITS.maxRedirectUris) fieldErrors[field] = `at most ${CLIENT_LIMITS.maxRedirectUris} URIs`;
    uris.forEach((uri, index) => {
      const problem = redirectUriProblem(uri) ?? (clientType === 'native' ? nativeRedirectUriProblem(uri) : undefined);
      if (problem && !fieldErrors[field]) fieldErrors[field] = `item ${index}: ${problem}`;
    });
    if (!fieldErrors[field] && new Set(uris).size !== uris.length) fieldErrors[field] = 'must not contain duplicates';
  }

  const unknownScopes = input.scopeWhitelist.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknownScopes.length > 0) fieldErrors.scopeWhitelist = `unknown scope ${unknownScopes.join(', ')}; allowed: ${SCOPES.join(', ')}`;
  else if (!input.scopeWhitelist.includes('openid')) fieldErrors.scopeWhitelist = 'must contain openid';
  else if (clientType === 'spa' && input.scopeWhitelist.includes('offline_access')) fieldErrors.scopeWhitelist = 'a spa client cannot have offline_access';

  if (isPublicClientType(clientType) && input.requirePkce === false) fieldErrors.requirePkce = `a ${clientType} client always requires PKCE`;

  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
  return {
    ok: true,
    configuration: {
      redirectUris: input.redirectUris,
      postLogoutRedirectUris,
      scopeWhitelist: SCOPES.filter((s) => input.scopeWhitelist.includes(s)),
      requirePkce: isPublicClientType(clientType) ? true : (input.requirePkce ?? true),
    },
  };
}
