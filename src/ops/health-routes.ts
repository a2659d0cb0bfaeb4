import type { FastifyInstance } from 'fastify';
import type { Readiness } from './readiness.ts';

/**
 * `/health/live`: the process answers (restart it if not). `/health/ready`: it can serve
 * (send it traffic only if so). Both are cheap, unauthenticated and never cached.
 */
export function registerHealthRoutes(app: FastifyInstance, readiness: Readiness): void {
  app.get('/health/live', async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    return { status: 'live' };
  });

  app.get('/health/ready', async (_request, reply) => {
    const report = await readiness.evaluate();
    void reply.header('cache-control', 'no-store');
    if (!report.ready) void reply.status(503).header('retry-after', '5');
    return { status: report.ready ? 'ready' : 'not_ready', checks: report.checks };
  });
}
