import type { FastifyInstance } from 'fastify';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config.ts';
import { createLoggerOptions } from './logging.ts';
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

/** The metrics and rate limits one process shares between its services and its app. */
export interface Operations {
  metrics: Metrics;
  rateLimits: RateLimits;
  /** Logs like the app's logger, for what happens outside a request's own log (the use cases' warnings). */
  log: Logger;
}

/**
 * Built before the services, because the sign-in limiter is part of the sign-in use cases
 * (`createServices({ signInLimiter: operations.rateLimits.signIn, lookupLimiter: operations.rateLimits.lookup })`), and handed to the app,
 * which serves the same metrics and closes the limits' store when it closes.
 */
export function createOperations(config: Config, options: { logStream?: DestinationStream } = {}): Operations {
  const metrics = createMetrics();
  // The app's logger does not exist yet; this one logs the same way (level, redaction) for the limits' shared store.
  const log = options.logStream ? pino(createLoggerOptions(config.logLevel), options.logStream) : pino(createLoggerOptions(config.logLevel));
  return { metrics, rateLimits: createRateLimits(config, { metrics, log }), log };
}

/**
 * Everything an operator relies on, installed before any route: security headers, request
 * metrics and `/metrics`, `/health/live` and `/health/ready`, and the rate limiters, which
 * the app carries as decorations so every surface's plugins reach the same ones.
 */
export function installOperations(app: FastifyInstance, deps: { config: Config; db: Db; operations: Operations }): void {
  const { metrics, rateLimits } = deps.operations;
  const readiness = createReadiness({ db: deps.db });

  app.decorate('metrics', metrics);
  app.decorate('readiness', readiness);
  app.decorate('rateLimits', rateLimits);
  app.addHook('onClose', async () => rateLimits.close());

  installSecurityHeaders(app, { issuer: deps.config.issuer });
  registerMetrics(app, { metrics, token: deps.config.metricsToken });
  registerHealthRoutes(app, readiness);
  warnWhenProxyUntrusted(app, deps.config);
}
