import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

// 1-200 visible ASCII characters: anything else (a newline, a control byte, an overlong value) could forge log lines.
const VALID_REQUEST_ID = /^[\x21-\x7e]{1,200}$/;

/** The caller's own request id when it is valid, else a new random one (Fastify's `genReqId`). */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && VALID_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** Every response carries the id its log lines carry, hijacked ones (oidc-provider's) too. */
export function installRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
  });
}
