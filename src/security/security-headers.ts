import type { FastifyInstance } from 'fastify';

/**
 * For any response that sets no policy of its own: nothing from elsewhere, no inline script or
 * style, no framing. Pages that need more (the sign-in pages, the console) set their own header.
 * `form-action` is left out on purpose: browsers apply it to the redirects after a form post,
 * and a sign-in form's post ends in a redirect to the relying party.
 */
export const DEFAULT_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

// Anything that can carry a token, a secret or personal data must never sit in a cache.
const NO_STORE_PREFIXES = ['/api/', '/health/'];
const NO_STORE_PATHS = new Set(['/api', '/token', '/userinfo', '/metrics']);

export function mustNotBeStored(path: string): boolean {
  return NO_STORE_PATHS.has(path) || NO_STORE_PREFIXES.some((prefix) => path.startsWith(prefix));
}

export function securityHeadersFor(issuer: string): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'content-security-policy': DEFAULT_CONTENT_SECURITY_POLICY,
    // One year, this host only: the issuer's parent domain may serve things Sesame knows nothing of.
    ...(issuer.startsWith('https://') ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}

/**
 * Sets the headers on the raw response as each request arrives, so they also reach responses
 * Fastify does not send itself (oidc-provider writes its own). A header a route sets later,
 * such as a page's own Content-Security-Policy, replaces the default. API responses are
 * no-store whatever a route says.
 */
export function installSecurityHeaders(app: FastifyInstance, options: { issuer: string }): void {
  const headers = Object.entries(securityHeadersFor(options.issuer));
  app.addHook('onRequest', async (request, reply) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    if (mustNotBeStored(request.url.split('?')[0] ?? '')) reply.raw.setHeader('cache-control', 'no-store');
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (mustNotBeStored(request.url.split('?')[0] ?? '')) void reply.header('cache-control', 'no-store');
    return payload;
  });
}
