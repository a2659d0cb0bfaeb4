import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { manualClock } from '../../src/domain/clock.ts';
import { mailSettingsOf, runMailWorker } from '../../src/mail/mail-runtime.ts';
import { createOperations } from '../../src/ops/operations.ts';
import { createServices, type Services } from '../../src/services/index.ts';
import { prepareInstance } from '../../src/startup.ts';
import { openDatabase, type Db, type Engine } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createTestDatabase } from './engines.ts';

export interface TestContext {
  engine: Engine;
  databaseUrl: string;
  config: Config;
  db: Db;
  clock: ReturnType<typeof manualClock>;
  services: Services;
  app: FastifyInstance;
  close(): Promise<void>;
}

export interface TestContextOptions {
  /** The address the app uses for the fresh database (e.g. through a proxy a fault test cuts). */
  connectThrough?: (databaseUrl: string) => string;
  /** Log lines go here instead of stdout (set LOG_LEVEL in env to see any). */
  logStream?: DestinationStream;
  /** Runs after buildApp and before ready: register extra test routes here. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
}

/** A migrated, empty database of the engine and the whole app built over it, in-process. */
export async function createTestContext(engine: Engine, env: Record<string, string> = {}, options: TestContextOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase(engine);
  const appDatabaseUrl = options.connectThrough ? options.connectThrough(database.url) : database.url;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: appDatabaseUrl, OIDC_ISSUER: 'http://localhost:3000', ...env });
  const opened = openDatabase(config.databaseUrl);
  await migrateToLatest(opened.db);
  const clock = manualClock();
  const logStream = options.logStream ? { logStream: options.logStream } : {};
  const operations = createOperations(config, logStream);
  const services = createServices({ db: opened.db, engine, clock, signInLimiter: operations.rateLimits.signIn, mail: mailSettingsOf(config, operations), lookupLimiter: operations.rateLimits.lookup });
  const prepared = await prepareInstance({ config, db: opened.db, clock, services });
  const app = await buildApp({ config, db: opened.db, engine, clock, services, instanceSecrets: prepared.instanceSecrets, operations, ...logStream });
  runMailWorker(app, { config, services });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    engine,
    databaseUrl: database.url,
    config,
    db: opened.db,
    clock,
    services,
    app,
    async close() {
      await app.close();
      await opened.close();
      await database.drop();
    },
  };
}
