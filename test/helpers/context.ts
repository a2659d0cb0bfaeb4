import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { loadConfig, type Config } from '../../src/config.ts';
import { manualClock } from '../../src/domain/clock.ts';
import type { Services } from '../../src/services/index.ts';
import { openDatabase, type Db, type Engine } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createTestDatabase } from './engines.ts';
import { composeServer } from '../../src/startup/compose-server.ts';

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
  /** Runs after the app is built and before ready: register extra test routes here. */
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
  const { app, services } = await composeServer({ config, db: opened.db, engine, clock, logStream: options.logStream });
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
