import { CLIENT_LIMITS, isPublicClientType, SCOPES, SECRET_POLICY, type ClientConfiguration, type ClientType } from './clients.ts';

// The rules a client's fields follow, in their own words. The zod contracts apply them (so every path
// that takes a client, both APIs and the first-deployment import, answers the same message); services
// apply only the ones that need the stored client (its type, when a revision arrives).

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The URI rules below in words, for the contract's field description and the agent guide. */
export const REDIRECT_URI_RULES =
  'absolute, without a fragment (`#`), and matched exactly at sign-in (a native client\'s loopback URI with any port); https is required except for ' +
  '`http://localhost`, `http://127.0.0.1` and `http://[::1]` (any port), and private-use schemes of native apps such as `com.example.app:/callback`';

/** Every reason a redirect or post-logout URI is refused, in the rules' own words; empty when it is acceptable. */
export function redirectUriProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > CLIENT_LIMITS.maxUriLength) problems.push(`must be at most ${CLIENT_LIMITS.maxUriLength} characters`);
  const url = URL.parse(value);
  if (!url) return [...problems, 'must be an absolute URI'];
  if (value.includes('#')) problems.push('must not contain a fragment (#)');
  if (url.protocol === 'https:') {
    if (!url.hostname) problems.push('must name a host');
  } else if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname)) problems.push('must use https (http is allowed only for localhost, 127.0.0.1 and [::1])');
  } else if (!/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol)) {
    // Private-use schemes of native apps (RFC 8252 7.1) contain a dot, e.g. com.example.app:/callback.
    problems.push('must be https, loopback http, or a private-use scheme such as com.example.app:/callback');
  }
  return problems;
}

/** Why a redirect or post-logout URI is refused (each reason, joined), or undefined when it is acceptable. */
export function redirectUriProblem(value: string): string | undefined {
  const problems = redirectUriProblems(value);
  return problems.length > 0 ? joinProblems(problems) : undefined;
}

/** Several problems of one field in one message: "must use https; must not contain a fragment (#)". */
export const joinProblems = (problems: readonly string[]): string => problems.join('; ');

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

/**
 * Why a list of redirect URIs (`required`) or post-logout redirect URIs is refused, by path below the
 * list: `''` for the list itself, `'0'`, `'1'`... for its items, so every bad URI is named at once.
 */
export function uriListProblems(uris: readonly string[], options: { required: boolean }): Record<string, string> {
  const problems: Record<string, string> = {};
  const listProblems: string[] = [];
  if (options.required && uris.length === 0) listProblems.push('at least one redirect URI is required');
  if (uris.length > CLIENT_LIMITS.maxRedirectUris) listProblems.push(`at most ${CLIENT_LIMITS.maxRedirectUris} URIs`);
  if (new Set(uris).size !== uris.length) listProblems.push('must not contain duplicates');
  if (listProblems.length > 0) problems[''] = joinProblems(listProblems);
  for (const [index, uri] of uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) problems[String(index)] = problem;
  }
  return problems;
}

/** Why a scope whitelist is refused, whatever the client's type. */
export function scopeWhitelistProblem(scopes: readonly string[]): string | undefined {
  const problems: string[] = [];
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) problems.push(`unknown scope ${unknown.join(', ')}; allowed: ${SCOPES.join(', ')}`);
  if (!scopes.includes('openid')) problems.push('must contain openid');
  return problems.length > 0 ? joinProblems(problems) : undefined;
}

/**
 * The rules that depend on the client's type: public clients (spa, native) use PKCE always; a spa
 * gets no refresh tokens; a native client redirects to loopback http or a private-use scheme.
 */
export function clientTypeProblems(
  clientType: ClientType,
  input: { redirectUris?: readonly string[] | undefined; postLogoutRedirectUris?: readonly string[] | undefined; scopeWhitelist: readonly string[]; requirePkce?: boolean | undefined },
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (clientType === 'spa' && input.scopeWhitelist.includes('offline_access')) problems.scopeWhitelist = 'a spa client cannot have offline_access';
  if (isPublicClientType(clientType) && input.requirePkce === false) problems.requirePkce = `a ${clientType} client always requires PKCE`;
  if (clientType === 'native') {
    for (const field of ['redirectUris', 'postLogoutRedirectUris'] as const) {
      for (const [index, uri] of (input[field] ?? []).entries()) {
        const problem = nativeRedirectUriProblem(uri);
        if (problem) problems[`${field}.${index}`] = problem;
      }
    }
  }
  return problems;
}

/** Every rule of an OIDC configuration for a client of this type, by field path (the console checks them while typing). */
export function configurationProblems(
  clientType: ClientType,
  input: { redirectUris: readonly string[]; postLogoutRedirectUris?: readonly string[] | undefined; scopeWhitelist: readonly string[]; requirePkce?: boolean | undefined },
): Record<string, string> {
  const problems: Record<string, string> = {};
  const add = (path: string, problem: string) => {
    problems[path] = Object.hasOwn(problems, path) ? joinProblems([problems[path]!, problem]) : problem;
  };
  for (const [field, uris, required] of [['redirectUris', input.redirectUris, true], ['postLogoutRedirectUris', input.postLogoutRedirectUris ?? [], false]] as const) {
    for (const [below, problem] of Object.entries(uriListProblems(uris, { required }))) add(below === '' ? field : `${field}.${below}`, problem);
  }
  const scopes = scopeWhitelistProblem(input.scopeWhitelist);
  if (scopes) add('scopeWhitelist', scopes);
  for (const [path, problem] of Object.entries(clientTypeProblems(clientType, input))) add(path, problem);
  return problems;
}

/** Why a rotation's grace period is refused (0 revokes the old secret at once). */
export function gracePeriodProblem(seconds: number): string | undefined {
  if (Number.isInteger(seconds) && seconds >= 0 && seconds <= SECRET_POLICY.maxGraceSeconds) return undefined;
  return `must be a whole number of seconds from 0 to ${SECRET_POLICY.maxGraceSeconds}`;
}

/** The configuration as stored, from input that follows the rules above: defaults filled in, scopes in their canonical order. */
export function normalizeConfiguration(
  clientType: ClientType,
  input: { redirectUris: string[]; postLogoutRedirectUris?: string[] | undefined; scopeWhitelist: readonly string[]; requirePkce?: boolean | undefined; claimsInIdToken?: boolean | undefined },
): ClientConfiguration {
  return {
    redirectUris: input.redirectUris,
    postLogoutRedirectUris: input.postLogoutRedirectUris ?? [],
    scopeWhitelist: SCOPES.filter((scope) => input.scopeWhitelist.includes(scope)),
    requirePkce: isPublicClientType(clientType) ? true : (input.requirePkce ?? true),
    claimsInIdToken: input.claimsInIdToken ?? false,
  };
}
