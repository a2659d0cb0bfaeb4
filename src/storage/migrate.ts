import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db } from './database.ts';

const migrationsDir = fileURLToPath(new URL('../../migrations/', import.meta.url));

// Timestamp-named files, applied in name order; the same files on both engines.
const migrationFiles: MigrationProvider = {
  async getMigrations() {
    const names = (await readdir(migrationsDir)).filter((name) => /^\d{14}-[a-z0-9-]+\.ts$/.test(name)).sort();
    const migrations: Record<string, Migration> = {};
    for (const name of names) {
      migrations[name.replace(/\.ts$/, '')] = (await import(pathToFileURL(join(migrationsDir, name)).href)) as Migration;
    }
    return migrations;
  },
};

export const migrateToLatest = (db: Db): Promise<string[]> => migrate(db, migrationFiles);

/** Applies only the migrations named before `name`: the database as it was before that one (what a test of it starts from). */
export const migrateToBefore = (db: Db, name: string): Promise<string[]> =>
  migrate(db, { getMigrations: async () => Object.fromEntries(Object.entries(await migrationFiles.getMigrations()).filter(([earlier]) => earlier < name)) });

async function migrate(db: Db, provider: MigrationProvider): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'schema_migrations', migrationLockTableName: 'schema_migrations_lock' });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw new Error(`database migration failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
