import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { systemClock } from './domain/clock.ts';
import { createOperations } from './ops/operations.ts';
import { installGracefulShutdown } from './ops/graceful-shutdown.ts';
import { prepareInstance } from './startup.ts';
import { createServices } from './services/index.ts';
import { openDatabase } from './storage/database.ts';
import { migrateToLatest } from './storage/migrate.ts';
import { printStartup } from './startup-output.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  // Migrations get a connection of their own, without the per-statement timeouts that bound requests.
  const migrating = openDatabase(config.databaseUrl, { statementTimeouts: false });
  process.stdout.write(`sesame: database ${migrating.engine}, applying migrations\n`);
  await migrateToLatest(migrating.db);
  await migrating.close();
  const { db, engine, close } = openDatabase(config.databaseUrl);
  const operations = createOperations(config);
  const services = createServices({ db, engine, clock: systemClock, signInLimiter: operations.rateLimits.signIn, keyEncryptionSecret: config.keyEncryptionSecret });
  const prepared = await prepareInstance({ config, db, clock: systemClock, services });
  const app = await buildApp({ config, db, engine, clock: systemClock, services, instanceSecrets: prepared.instanceSecrets, operations });
  installGracefulShutdown(app, { graceSeconds: config.shutdownGraceSeconds, afterClose: close });
  await app.listen({ port: config.port, host: config.host });
  printStartup(config, prepared, app.server.address());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `sesame: failed to start: ${(error as Error).stack ?? String(error)}`}\n`);
  process.exit(1);
});
