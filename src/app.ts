import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { Clock } from './domain/clock.ts';
import { registerConsole } from './api/console-static.ts';
import { agentApi, AGENT_API_PREFIX } from './api/agent/register-agent-api.ts';
import { managementApi, MANAGEMENT_API_PREFIX } from './api/management/register-management-api.ts';
import { AppError } from './errors.ts';
import { createLoggerOptions } from './ops/logging.ts';
import { installRequestIdHeader, requestIdOf } from './ops/request-id.ts';
import { DebugRequestLogging } from './ops/request-logging.ts';
import { accountLinkRoutes } from './account/account-link-routes.ts';
import { homeRoute } from './oidc/home-route.ts';
import type { InstanceSecrets } from './startup/instance-secrets.ts';
import { registerOidc } from './oidc/mount.ts';
import { databaseFaultToAppError } from './ops/database-faults.ts';
import { installOperations, type Operations } from './ops/operations.ts';
import { mcpServer } from './mcp/register-mcp.ts';
import { ASSISTANT_TOKEN_LIFETIMES } from './oidc/token-lifetimes.ts';
import type { Services } from './services/index.ts';
import type { Db, Engine } from './storage/database.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  engine: Engine;
  clock: Clock;
  services: Services;
  instanceSecrets: InstanceSecrets;
  /** Metrics and rate limits, shared with the services (createOperations); the app closes them. */
  operations: Operations;
  /** Where log lines go instead of stdout (tests scan them for secrets). */
  logStream?: DestinationStream;
}

export const BODY_LIMIT_BYTES = 64 * 1024;

/** Maps Fastify's own failures (parsing, size, media type) onto the documented error codes. */
export function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  const databaseFault = databaseFaultToAppError(error);
  if (databaseFault) return databaseFault;
  const fastifyError = error as FastifyError;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('request_too_large', `The request body must be at most ${BODY_LIMIT_BYTES} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Send the body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_request', 'The JSON body is empty; send an object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_request', 'The body is not valid JSON; send one JSON object with `Content-Type: application/json`.');
  }
  if (fastifyError.statusCode === 400 || error instanceof SyntaxError) return new AppError('invalid_request', 'The request is malformed; check its URL, headers and body against the operation in the API\'s OpenAPI document.');
  if (fastifyError.statusCode === 413) return new AppError('request_too_large', `The request body must be at most ${BODY_LIMIT_BYTES} bytes.`);
  if (fastifyError.statusCode === 415) return new AppError('unsupported_media_type', 'Send the body as application/json.');
  return new AppError('internal_error', 'Something went wrong on the server; try again, and report it if it persists.');
}

/** Builds the whole server from its dependencies; never listens (tests call it in-process). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { ...createLoggerOptions(deps.config.logLevel), ...(deps.logStream ? { stream: deps.logStream } : {}) },
    bodyLimit: BODY_LIMIT_BYTES,
    // X-Request-Id: the caller's own when valid, else a random one; in every log line of the request and on its response.
    requestIdHeader: false,
    genReqId: requestIdOf,
    trustProxy: parseTrustProxy(deps.config.trustProxy),
    logController: new DebugRequestLogging(),
    // A malformed URL or an over-long path segment fails before routing, where the error handler never sees it.
    frameworkErrors: (_error, _request, reply: FastifyReply) => {
      void reply.header('cache-control', 'no-store').status(400).send(new AppError('invalid_request', 'The URL is malformed or a path segment is too long.').toBody());
    },
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.code === 'internal_error') request.log.error({ err: error }, 'unhandled error');
    if (appError.code === 'service_unavailable') request.log.warn({ err: error }, 'database unavailable');
    if (appError.code === 'directory_unavailable') request.log.warn({ err: error }, 'directory unavailable');
    if (appError.retryAfterSeconds !== undefined) void reply.header('retry-after', String(appError.retryAfterSeconds));
    void reply.header('cache-control', 'no-store').status(appError.status).send(appError.toBody());
  });

  const openapiDocuments = [...(deps.config.agentApiEnabled ? [`${AGENT_API_PREFIX}/openapi.json`] : []), `${MANAGEMENT_API_PREFIX}/openapi.json`];
  const notFoundAdvice = `the OpenAPI documents (${openapiDocuments.map((path) => `\`${path}\``).join(', ')}) list every operation`;
  app.setNotFoundHandler((request, reply) => {
    void reply
      .header('cache-control', 'no-store')
      .status(404)
      .send(new AppError('not_found', `No route for ${request.method} ${request.url.split('?')[0]}; ${notFoundAdvice}.`).toBody());
  });

  // Before any route: headers, metrics, health and rate limiters apply to everything registered after.
  installRequestIdHeader(app);
  installOperations(app, { config: deps.config, db: deps.db, operations: deps.operations });
  await app.register(homeRoute, { config: deps.config });

  // The OpenID Connect endpoints (oidc-provider) and its login, consent and logout pages.
  await registerOidc(app, deps);
  // The pages mailed links open: set a password, verify an address, ask for a reset.
  await app.register(accountLinkRoutes, { services: deps.services, secureCookies: new URL(deps.config.issuer).protocol === 'https:' });

  // The console (web/, built by Vite) at /console; it talks only to the management API.
  await registerConsole(app);

  // Both management surfaces over the one service layer; the Agent API only when enabled (otherwise its paths are plain 404s).
  const apiDeps = { services: deps.services, config: deps.config };
  await app.register(managementApi, { prefix: MANAGEMENT_API_PREFIX, ...apiDeps, cookieKeys: deps.instanceSecrets.cookieKeys });
  // Assistants' surfaces: their guides state the OIDC engine's token lifetimes.
  const assistantDeps = { ...apiDeps, assistantTokenLifetimes: ASSISTANT_TOKEN_LIFETIMES };
  if (deps.config.agentApiEnabled) await app.register(agentApi, { prefix: AGENT_API_PREFIX, ...assistantDeps });
  // The MCP server for assistants, authorized by Sesame's own OAuth tokens (otherwise /mcp is a plain 404).
  if (deps.config.mcpEnabled) await app.register(mcpServer, assistantDeps);

  return app;
}

/** `TRUST_PROXY` is a hop count or a list of addresses/CIDRs; unset believes no forwarding header. */
function parseTrustProxy(value: string | undefined): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (value === undefined) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value.split(',').map((entry) => entry.trim()).filter(Boolean);
}
