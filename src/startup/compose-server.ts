import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import { mailSettingsOf, runMailWorker } from '../mail/mail-runtime.ts';
import { createOperations, type Operations } from '../ops/operations.ts';
import { createServices, type Services } from '../services/index.ts';
import { followChanges, type Db, type Engine } from '../storage/database.ts';
import { prepareInstance, type PreparedInstance } from './prepare-instance.ts';

export interface ComposedServer {
  app: FastifyInstance;
  services: Services;
  operations: Operations;
  prepared: PreparedInstance;
}

/**
 * One server from its parts, in the one order they depend on each other: rate limits and metrics, the
 * use cases (which apply the limits themselves), what a fresh database needs, the app, and the mail
 * worker. `src/main.ts` and the test helpers build Sesame through here, so a test runs what production runs.
 */
export async function composeServer(deps: { config: Config; db: Db; engine: Engine; clock: Clock; logStream?: DestinationStream | undefined }): Promise<ComposedServer> {
  const { config, db, engine, clock } = deps;
  const logStream = deps.logStream ? { logStream: deps.logStream } : {};
  const operations = createOperations(config, logStream);
  const services = createServices({
    db,
    engine,
    clock,
    signInLimiter: operations.rateLimits.signIn,
    lookupLimiter: operations.rateLimits.lookup,
    mail: mailSettingsOf(config, operations),
    keyEncryptionSecret: config.keyEncryptionSecret,
    issuer: config.issuer,
    reauthWindowSeconds: config.reauthWindowSeconds,
    log: operations.log,
  });
  operations.metrics.countOutboxWith(services.outgoingMail.countPending);
  const prepared = await prepareInstance({ config, db, clock, services });
  // Clients and people are read from memory from here on, while other instances' changes can be heard.
  const changes = await followChanges(db, { warn: (message) => operations.log.warn(message), info: (message) => operations.log.info(message) });
  operations.metrics.reportReadCacheWith(changes.inUse);
  const app = await buildApp({ config, db, engine, clock, services, instanceSecrets: prepared.instanceSecrets, operations, ...logStream }).catch(async (error: unknown) => {
    await changes.stop();
    throw error;
  });
  app.addHook('onClose', async () => {
    await changes.stop();
  });
  runMailWorker(app, { config, services });
  return { app, services, operations, prepared };
}
