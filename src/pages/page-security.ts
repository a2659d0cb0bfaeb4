/**
 * Headers for every HTML page the provider renders. No page loads anything from another origin, and
 * only the pages with passkey buttons run a script: files served from this origin (`scripts`), never
 * inline. `form-action` names the relying party's origin too: Chrome applies it to the
 * redirects that follow a form POST, and signing in or out ends in a redirect to the application.
 */
export function pageSecurityHeaders(formTargets: readonly (string | undefined)[] = [], options: { scripts?: boolean } = {}): Record<string, string> {
  const policy = contentSecurityPolicy(formTargets);
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': options.scripts ? `${policy}; script-src 'self'; connect-src 'self'` : policy,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
}

export function contentSecurityPolicy(formTargets: readonly (string | undefined)[] = []): string {
  return [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self'",
    `form-action ${["'self'", ...formActionSources(formTargets)].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The CSP source for a redirect target: its origin, or its scheme for a native app's private-use URI. */
export function formActionSources(uris: readonly (string | undefined)[]): string[] {
  const sources = new Set<string>();
  for (const uri of uris) {
    const url = uri ? URL.parse(uri) : null;
    if (!url) continue;
    sources.add(url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol);
  }
  return [...sources];
}
