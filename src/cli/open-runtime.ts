import { loadConfig } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { unlimitedSignIns } from '../rate-limit/sign-in-limiter.ts';
import { createServices } from '../services/index.ts';
import { openDatabase } from '../storage/database.ts';
import { migrateToLatest } from '../storage/migrate.ts';
import type { CliRuntime } from './command.ts';

/** The server's own start sequence up to the services: same config, same database, same migrations. */
export async function openRuntime(env: NodeJS.ProcessEnv): Promise<{ runtime: CliRuntime; close(): Promise<void> }> {
  const config = loadConfig(env);
  // An operator's command (a migration, a rotation) is not a request: no per-statement timeout.
  const opened = openDatabase(config.databaseUrl, { poolSize: 2, statementTimeouts: false });
  try {
    const appliedMigrations = await migrateToLatest(opened.db);
    // The command line is run by the operator on the server; it signs nobody in, so nothing to limit.
    const services = createServices({ db: opened.db, engine: opened.engine, clock: systemClock, signInLimiter: unlimitedSignIns });
    return { runtime: { config, db: opened.db, engine: opened.engine, clock: systemClock, services, appliedMigrations }, close: opened.close };
  } catch (error) {
    await opened.close();
    throw error;
  }
}
