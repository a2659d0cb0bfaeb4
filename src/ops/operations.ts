import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { createRateLimits, type RateLimits } from '../rate-limit/rate-limits.ts';
import { installSecurityHeaders } from '../security/security-headers.ts';
import type { Db } from '../storage/database.ts';
import { registerHealthRoutes } from './health-routes.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { registerMetrics } from './metrics-routes.ts';
import { createReadiness, type Readiness } from './readiness.ts';
import { warnWhenProxyUntrusted } from './untrusted-proxy-warning.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Record sign-in outcomes, refusals and token issuance here (see src/ops/metrics.ts). */
    metrics: Metrics;
    /** Add readiness conditions here, e.g. `readiness.addFlag('signingKeys')`. */
    readiness: Readiness;
    /** Sign-in and token endpoint limits (see src/rate-limit/). */
    rateLimits: RateLimits;
  }
}

/**
 * Everything an operator relies on, installed before any route: security headers, request
 * metrics and `/metrics`, `/health/live` and `/health/ready`, and the rate limiters, which
 * the app carries as decorations so every surface's plugins reach the same ones.
 */
export function installOperations(app: FastifyInstance, deps: { config: Config; db: Db }): void {
  const metrics = createMetrics();
  const readiness = createReadiness({ db: deps.db });
  const rateLimits = createRateLimits(deps.config, { metrics, log: app.log });

  app.decorate('metrics', metrics);
  app.decorate('readiness', readiness);
  app.decorate('rateLimits', rateLimits);
  app.addHook('onClose', async () => rateLimits.close());

  installSecurityHeaders(app, { issuer: deps.config.issuer });
  registerMetrics(app, { metrics, token: deps.config.metricsToken });
  registerHealthRoutes(app, readiness);
  warnWhenProxyUntrusted(app, deps.config);
}
