import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { systemClock } from './domain/clock.ts';
import { createOperations } from './ops/operations.ts';
import { prepareInstance } from './startup.ts';
import { createServices } from './services/index.ts';
import { openDatabase } from './storage/database.ts';
import { migrateToLatest } from './storage/migrate.ts';
import { printStartup } from './startup-output.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const { db, engine, close } = openDatabase(config.databaseUrl);
  process.stdout.write(`sesame: database ${engine}, applying migrations\n`);
  await migrateToLatest(db);
  const operations = createOperations(config);
  const services = createServices({ db, engine, clock: systemClock, signInLimiter: operations.rateLimits.signIn, lookupLimiter: operations.rateLimits.lookup });
  const prepared = await prepareInstance({ config, db, clock: systemClock, services });
  const app = await buildApp({ config, db, engine, clock: systemClock, services, instanceSecrets: prepared.instanceSecrets, operations });
  await app.listen({ port: config.port, host: config.host });
  printStartup(config, prepared, app.server.address());

  const shutdown = async (signal: string) => {
    process.stdout.write(`sesame: ${signal} received, finishing in-flight requests\n`);
    await app.close();
    await close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `sesame: failed to start: ${(error as Error).stack ?? String(error)}`}\n`);
  process.exit(1);
});
