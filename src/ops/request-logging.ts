import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Request lines ("incoming request", "request completed") at debug level, where LOG_LEVEL=debug
 * documents them; at info a busy provider would log every token call. Errors keep Fastify's levels.
 */
export class DebugRequestLogging extends LogController {
  constructor() {
    super({ disableRequestLogging: false });
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
