import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sha256Hex } from '../domain/digests.ts';
import { constantTimeEqual } from '../security/constant-time.ts';
import { AppError } from '../errors.ts';
import type { Metrics } from './metrics.ts';

// oidc-provider may be mounted under a wildcard route; its endpoints still get their own label.
const PROTOCOL_PATHS = new Set(['/.well-known/openid-configuration', '/auth', '/token', '/userinfo', '/jwks', '/session/end', '/session/end/confirm', '/session/end/success']);

/** The label for a request: its route pattern, never the raw URL (ids in paths would explode the series). */
export function routeLabel(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return 'unmatched';
  if (!pattern.includes('*')) return pattern;
  const path = request.url.split('?')[0] ?? '';
  if (PROTOCOL_PATHS.has(path)) return path;
  if (path.startsWith('/auth/')) return '/auth/:uid';
  if (path.startsWith('/interaction/')) return '/interaction/*';
  return pattern;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** `request.ip` honours TRUST_PROXY, so a proxy on loopback does not make the world loopback. */
export const isLoopback = (ip: string) => LOOPBACK.test(ip);

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Counts every response by route and status (hijacked ones too: the hook runs on the raw
 * response's finish) and serves `/metrics` to loopback callers, or to anyone presenting
 * METRICS_TOKEN. Others get 404 (nothing to see) or, with a wrong token, 401.
 */
export function registerMetrics(app: FastifyInstance, options: { metrics: Metrics; token: string | undefined }): void {
  const { metrics } = options;
  // Digests have one length, so the comparison is constant-time whatever is sent.
  const tokenDigest = options.token === undefined ? undefined : sha256Hex(options.token);

  app.addHook('onResponse', async (request, reply) => {
    metrics.recordRequest(request.method, routeLabel(request), reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get('/metrics', async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const presented = bearerToken(request);
    const tokenMatches = presented !== undefined && tokenDigest !== undefined && constantTimeEqual(sha256Hex(presented), tokenDigest);
    if (!tokenMatches && !isLoopback(request.ip)) {
      if (presented !== undefined && tokenDigest !== undefined) {
        return reply.status(401).header('www-authenticate', 'Bearer').send(new AppError('login_required', 'The metrics token is wrong.').toBody());
      }
      return reply.status(404).send(new AppError('not_found', 'No route for GET /metrics.').toBody());
    }
    return reply.type(metrics.contentType).send(await metrics.render());
  });
}
