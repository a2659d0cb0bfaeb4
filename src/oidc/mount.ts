import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { registerProtectedResourceMetadata } from './assistant-discovery.ts';
import { rewriteForwardedHeaders } from './forwarded-headers.ts';
import { interactionRoutes } from './interactions.ts';
import { upstreamRoutes } from './upstream-routes.ts';
import { createLiveProvider, type LiveProvider } from './live-provider.ts';
import { STYLESHEET_PATH } from '../pages/layout.ts';
import type { OidcDeps } from './provider.ts';
import { countTokenFailures, refuseTokenRequestOverLimit } from '../rate-limit/token-endpoint-limit.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The running OpenID Connect provider; `oidc.refreshSigningKeys()` picks up a key rotation now. */
    oidc: LiveProvider;
  }
}

/** The paths oidc-provider answers itself; every other path stays Fastify's. */
const PROVIDER_ROUTES: [string, HTTPMethods[]][] = [
  ['/.well-known/openid-configuration', ['GET', 'OPTIONS']],
  // POST at /auth and /session/end stays off (oidc-provider's enableHttpPostMethods): it would need
  // SameSite=None cookies. Those requests get Sesame's own 404 rather than Koa's plain-text one.
  ['/auth', ['GET']],
  ['/auth/:uid', ['GET']],
  ['/token', ['POST', 'OPTIONS']],
  ['/userinfo', ['GET', 'POST', 'OPTIONS']],
  ['/jwks', ['GET', 'OPTIONS']],
  ['/session/end', ['GET']],
  ['/session/end/confirm', ['POST']],
  ['/session/end/success', ['GET']],
];

const stylesheet = readFileSync(new URL('../pages/sesame.css', import.meta.url), 'utf8');

/**
 * Mounts the OpenID Connect provider: oidc-provider's own endpoints through its Node callback,
 * handed the raw request in onRequest (before Fastify reads a body, which oidc-provider parses
 * itself) with its forwarding headers rewritten to Fastify's view, the interaction pages as
 * Fastify routes, and the pages' stylesheet.
 */
export async function registerOidc(app: FastifyInstance, deps: OidcDeps): Promise<LiveProvider> {
  const onTokenIssued: OidcDeps['onTokenIssued'] = (grant) => {
    app.rateLimits.token.recordIssued(grant).catch((error: unknown) => app.log.warn({ err: error }, 'could not count an issued token'));
  };
  const middleware = [countTokenFailures(app.rateLimits.token, app.log)];
  const live = await createLiveProvider({ ...deps, log: deps.log ?? app.log, onTokenIssued, middleware });
  app.decorate('oidc', live);
  // createLiveProvider throws when it cannot load a signing key, so from here on the keys are loaded.
  app.readiness.addFlag('signingKeys', true);
  const issuer = new URL(deps.config.issuer);
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'POST' && request.routeOptions.url === '/token' && (await refuseTokenRequestOverLimit(request, reply))) return reply;
    rewriteForwardedHeaders(request, issuer);
    reply.hijack();
    await live.handle(request.raw, reply.raw);
  };
  for (const [url, method] of PROVIDER_ROUTES) {
    app.route({ method, url, onRequest: forward, handler: async () => undefined });
  }
  // RFC 8414 metadata, which OAuth clients (MCP's among them) look for first: the same document as OpenID discovery.
  app.route({
    method: ['GET', 'OPTIONS'],
    url: '/.well-known/oauth-authorization-server',
    onRequest: async (request, reply) => {
      request.raw.url = '/.well-known/openid-configuration';
      await forward(request, reply);
    },
    handler: async () => undefined,
  });
  registerProtectedResourceMetadata(app, deps.config);
  await app.register(interactionRoutes, { live, deps, issuer });
  await app.register(upstreamRoutes, { live, deps, issuer });

  const refresh = setInterval(() => {
    live.refreshSigningKeys().catch((error: unknown) => app.log.warn({ err: error }, 'could not refresh the signing keys; still using the previous ones'));
  }, deps.config.signingKeyRefreshSeconds * 1000);
  refresh.unref();
  app.addHook('onClose', async () => clearInterval(refresh));
  app.get(STYLESHEET_PATH, async (_request, reply) =>
    reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(stylesheet),
  );
  return live;
}
