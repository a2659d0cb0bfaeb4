/**
 * The ceiling of scenarios 5 and 6: bare Fastify routes at the same paths answering the same bytes
 * Sesame answered (recorded from it at the start of the run), with no authentication, database,
 * validation or hooks: what Node and Fastify cost for a request and a response of that size.
 */
import Fastify from 'fastify';

export interface RecordedResponse {
  method: 'GET' | 'POST' | 'PUT';
  /** In Fastify's notation, e.g. /api/agent/projects/:projectId/clients/:clientId. */
  url: string;
  contentType: string;
  body: string;
}

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  const routes = JSON.parse(process.env.BARE_FASTIFY_ROUTES ?? '[]') as RecordedResponse[];
  const app = Fastify({ logger: false });
  for (const route of routes) {
    const body = Buffer.from(route.body, 'utf8');
    app.route({ method: route.method, url: route.url, handler: async (_request, reply) => reply.header('content-type', route.contentType).send(body) });
  }
  await app.listen({ port, host: '127.0.0.1' });
  process.send?.({ ready: { pid: process.pid } });
  // Exiting normally (not killed by the signal) lets --cpu-prof write its profile.
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
}

await main();
