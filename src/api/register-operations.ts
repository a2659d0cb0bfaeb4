import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Actor } from '../domain/actor.ts';
import type { Services } from '../services/index.ts';
import { AppError } from '../errors.ts';
import type { AnyOperation, HttpMethod, SignedIn } from './operation.ts';
import { refuseDuringEnrolment } from './enrolment-session.ts';
import { runOperation, type OperationSurface } from './operation-pipeline.ts';
import { InsufficientScopeError } from './operation-scope.ts';
import { restWords } from './operation-words.ts';

/** How a surface recognises its signed-in user: bearer token (agent) or cookie plus CSRF header (console). */
export interface SurfaceAuth {
  surface: 'agent' | 'console';
  /** The signed-in user, or an AppError (login_required; csrf_failed on console writes). */
  authenticate(request: FastifyRequest, method: HttpMethod, reply: FastifyReply): Promise<SignedIn>;
  /** The WWW-Authenticate challenge of a 403 insufficient_scope (surfaces that accept OAuth tokens). */
  insufficientScopeChallenge?(error: InsufficientScopeError): string;
}

export interface ApiDeps {
  services: Services;
  config: Config;
}

/**
 * Only JSON bodies: the default text/plain parser (and any form parser a parent registered)
 * would let a non-JSON body reach the handlers, so the API's context keeps a JSON parser only.
 */
export function acceptJsonBodiesOnly(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // A body-less POST (logout) sent with a JSON content type is still body-less.
    if (body === '' || body.length === 0) {
      done(null, undefined);
      return;
    }
    // Fastify's default parser reports through `done`; its return value carries nothing.
    void parseJson(request, body as string, done);
  });
}

/** Every response of the management APIs, errors included, is uncacheable. */
export function forbidCaching(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
  });
}

/**
 * A REST surface of the operation pipeline (src/api/operation-pipeline.ts): the surface's sign-in, the request's
 * path, query string, body and Idempotency-Key header, the operation's status, and refusals in REST words, thrown
 * for the app's one error handler to send (with Retry-After where it applies).
 */
export function restSurface(operations: readonly AnyOperation[], auth: SurfaceAuth): OperationSurface<RestCall, FastifyReply> {
  return {
    surface: auth.surface,
    words: restWords(operations),
    argumentForm: 'text',
    async authenticate(operation, { request, reply }) {
      const signedIn = operation.access === 'session' ? await auth.authenticate(request, operation.method, reply) : null;
      refuseDuringEnrolment(operation, signedIn, auth.surface);
      const actor: Actor = {
        subjectId: signedIn?.user.subjectId ?? null,
        isAdmin: signedIn?.user.isAdmin ?? false,
        surface: auth.surface,
        ip: request.ip,
        ...(signedIn?.assistant ? { viaClientId: signedIn.assistant.clientId, viaClientName: signedIn.assistant.clientName ?? null, scopes: signedIn.assistant.scopes } : {}),
        ...(signedIn?.provenAt !== undefined ? { provenAt: signedIn.provenAt } : {}),
      };
      return { actor, signedIn };
    },
    argumentsOf: (_operation, { request }) => ({ params: request.params, query: request.query, body: request.body, idempotencyKey: request.headers['idempotency-key'] }),
    transport: (call) => call,
    answer: (_operation, { status, body }, { reply }) => (status === 204 ? reply.status(204).send() : reply.status(status).send(body)),
    refuse(_operation, refusal, { reply }, cause) {
      if (cause instanceof InsufficientScopeError && auth.insufficientScopeChallenge) void reply.header('www-authenticate', auth.insufficientScopeChallenge(cause));
      // Fastify's own failures (parsing, size) and unforeseen ones reach the app's error handler as they are, which maps and logs them.
      throw cause instanceof AppError ? refusal : cause;
    },
  };
}

interface RestCall {
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Registers each operation as a route that runs it through the operation pipeline. */
export function registerOperations(app: FastifyInstance, operations: readonly AnyOperation[], auth: SurfaceAuth, services: Services): void {
  const surface = restSurface(operations, auth);
  for (const operation of operations) {
    app.route({
      method: operation.method,
      url: operation.path,
      exposeHeadRoute: false,
      handler: (request, reply) => runOperation(surface, operation, { request, reply }, services),
    });
  }
}
