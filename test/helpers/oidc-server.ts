import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import { manualClock } from '../../src/domain/clock.ts';
import type { Services } from '../../src/services/index.ts';
import { openDatabase, type Db, type Engine } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createTestDatabase } from './engines.ts';
import { composeServer } from '../../src/startup/compose-server.ts';

/** A free port on 127.0.0.1: the issuer must name the port before the app listens on it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface OidcTestServer {
  engine: Engine;
  /** `http://127.0.0.1:<port>`: the issuer, and the address relying parties use. */
  issuer: string;
  config: Config;
  db: Db;
  clock: ReturnType<typeof manualClock>;
  services: Services;
  app: FastifyInstance;
  /** Closes the app and its database connections, then builds a new app on the same database and port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole app listening on 127.0.0.1 over a fresh database of the engine, so a real relying
 * party (openid-client) and a real browser can talk to it. The clock is manual and is kept
 * across restarts. `onStatement` hears the SQL of every statement the app runs.
 */
export async function startOidcTestServer(
  engine: Engine,
  env: Record<string, string> = {},
  /** `issuerHost`: `localhost` for passkey tests (a WebAuthn relying-party ID cannot be an IP address); the server still listens on 127.0.0.1. */
  options: { onStatement?: (sql: string) => void; issuerHost?: 'localhost' } = {},
): Promise<OidcTestServer> {
  const database = await createTestDatabase(engine);
  const port = await freePort();
  const issuer = `http://${options.issuerHost ?? '127.0.0.1'}:${port}`;
  const clock = manualClock();

  async function build() {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, OIDC_ISSUER: issuer, PORT: String(port), ...env });
    const { onStatement } = options;
    const opened = openDatabase(config.databaseUrl, onStatement ? { log: (event) => { if (event.level === 'query') onStatement(event.query.sql); } } : {});
    await migrateToLatest(opened.db);
    const { app, services } = await composeServer({ config, db: opened.db, engine, clock });
    await app.listen({ port, host: '127.0.0.1' });
    return { config, opened, services, app };
  }

  let current = await build();
  const server: OidcTestServer = {
    engine,
    issuer,
    clock,
    get config() {
      return current.config;
    },
    get db() {
      return current.opened.db;
    },
    get services() {
      return current.services;
    },
    get app() {
      return current.app;
    },
    async restart() {
      await current.app.close();
      await current.opened.close();
      current = await build();
    },
    async close() {
      await current.app.close();
      await current.opened.close();
      await database.drop();
    },
  };
  return server;
}
