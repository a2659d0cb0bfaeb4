import type { FastifyInstance } from 'fastify';

export interface GracefulShutdownOptions {
  /** How long the instance keeps serving, not ready, before it stops taking connections. */
  graceSeconds: number;
  /** Runs after the server closed (in-flight requests answered): close the database here. */
  afterClose: () => Promise<void>;
  write?: (line: string) => void;
  exit?: (code: number) => void;
}

/**
 * SIGTERM (or SIGINT) first turns `/health/ready` to 503 while the instance keeps serving, so a load
 * balancer probing it takes the instance out of rotation before its connections are refused; after
 * the grace it stops taking connections, answers what is in flight, runs `afterClose` and exits 0.
 * A second signal during the grace skips the rest of it (a second Ctrl-C in a terminal).
 */
export function installGracefulShutdown(app: FastifyInstance, options: GracefulShutdownOptions): void {
  const write = options.write ?? ((line: string) => process.stdout.write(line));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const running = app.readiness.addFlag('running', true);
  let draining = false;
  let endGrace: (() => void) | undefined;

  // Responses during the grace close their connection, so keep-alive clients reconnect elsewhere.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) void reply.header('connection', 'close');
  });

  const stop = async (signal: string) => {
    if (draining) {
      endGrace?.();
      return;
    }
    draining = true;
    running.set(false);
    write(`sesame: ${signal} received, finishing in-flight requests; /health/ready answers 503 while requests are still served for ${options.graceSeconds} s\n`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.graceSeconds * 1000);
      endGrace = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    write('sesame: grace over; no new connections, waiting for requests in flight\n');
    await app.close();
    await options.afterClose();
    exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
