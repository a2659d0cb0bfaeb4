import { ConfigError, loadConfig } from './config.ts';
import { systemClock } from './domain/clock.ts';
import { installGracefulShutdown } from './ops/graceful-shutdown.ts';
import { openDatabase } from './storage/database.ts';
import { migrateToLatest } from './storage/migrate.ts';
import { printStartup } from './startup/startup-output.ts';
import { composeServer } from './startup/compose-server.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  // Migrations get a connection of their own, without the per-statement timeouts that bound requests.
  const migrating = openDatabase(config.databaseUrl, { statementTimeouts: false });
  process.stdout.write(`sesame: database ${migrating.engine}, applying migrations\n`);
  await migrateToLatest(migrating.db);
  await migrating.close();
  const { db, engine, close } = openDatabase(config.databaseUrl);
  const { app, prepared } = await composeServer({ config, db, engine, clock: systemClock });
  installGracefulShutdown(app, { graceSeconds: config.shutdownGraceSeconds, afterClose: close });
  await app.listen({ port: config.port, host: config.host });
  printStartup(config, prepared, app.server.address());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `sesame: failed to start: ${(error as Error).stack ?? String(error)}`}\n`);
  process.exit(1);
});
