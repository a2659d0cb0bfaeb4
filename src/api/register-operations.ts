import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Actor } from '../domain/actor.ts';
import type { Services } from '../services/index.ts';
import { readIdempotencyKey, runIdempotently } from './idempotency-key.ts';
import { isCreating, type AnyOperation, type HttpMethod, type SignedIn } from './operation.ts';
import { refuseOutsideTokenScope } from './operation-scope.ts';
import { refuseOffItsSurface } from './operation-surface.ts';
import { parseRequestPart, refuseUnexpectedBody } from './request-validation.ts';

/** How a surface recognises its signed-in user: bearer token (agent) or cookie plus CSRF header (console). */
export interface SurfaceAuth {
  surface: 'agent' | 'console';
  /** The signed-in user, or an AppError (login_required; csrf_failed on console writes). */
  authenticate(request: FastifyRequest, method: HttpMethod, reply: FastifyReply): Promise<SignedIn>;
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

/** Registers each operation: authenticate, parse, one service call in the handler, map, reply. */
export function registerOperations(app: FastifyInstance, operations: readonly AnyOperation[], auth: SurfaceAuth, services: Services): void {
  for (const operation of operations) {
    app.route({
      method: operation.method,
      url: operation.path,
      exposeHeadRoute: false,
      handler: async (request, reply) => {
        const signedIn = operation.access === 'session' ? await auth.authenticate(request, operation.method, reply) : null;
        const actor: Actor = {
          subjectId: signedIn?.user.subjectId ?? null,
          isAdmin: signedIn?.user.isAdmin ?? false,
          surface: auth.surface,
          ip: request.ip,
          ...(signedIn?.assistant ? { viaClientId: signedIn.assistant.clientId, scopes: signedIn.assistant.scopes } : {}),
          ...(signedIn?.provenAt !== undefined ? { provenAt: signedIn.provenAt } : {}),
        };
        refuseOffItsSurface(operation, actor);
        refuseOutsideTokenScope(operation, actor);
        const params = operation.params ? parseRequestPart(operation.params, request.params, 'path') : undefined;
        const query = operation.query ? parseRequestPart(operation.query, request.query, 'query') : undefined;
        if (!operation.body) refuseUnexpectedBody(request.body);
        const body = operation.body ? parseRequestPart(operation.body, request.body, 'body') : undefined;
        const idempotencyKey = isCreating(operation) ? readIdempotencyKey(request) : undefined;
        if (idempotencyKey === undefined) {
          const result: unknown = await operation.handle({ params, query, body, actor, signedIn, services, request, reply });
          if (operation.response.status === 204) return reply.status(204).send();
          return reply.status(operation.response.status).send(result);
        }

        const answer = await runIdempotently(
          { services, actor, key: idempotencyKey, operationId: operation.operationId, params, body, status: operation.response.status, log: request.log },
          () => operation.handle({ params, query, body, actor, signedIn, services, request, reply }),
        );
        return reply.status(answer.status).send(answer.body);
      },
    });
  }
}
