import { afterAll, beforeAll } from 'vitest';
import type { Kysely } from 'kysely';
import { openDatabase, type Engine, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToBefore, migrateToLatest } from '../../src/storage/migrate.ts';
import type { Database } from '../../src/storage/schema.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { createTestDatabase, type TestDatabase } from './engines.ts';

export interface MigratedStore {
  readonly store: Store;
  readonly db: Kysely<Database>;
}

/** Where a suite testing a migration starts: the migrations named before `before`, then `prepare` writes rows as the code of that time did. */
export interface EarlierDatabase {
  before: string;
  prepare(db: Kysely<any>): Promise<void>;
}

/**
 * A fresh, migrated database of `engine` for the calling suite: made before its tests, dropped after them.
 * With `earlier`, it is first the database as it was before that migration, with the rows `prepare` wrote.
 */
export function useMigratedStore(engine: Engine, earlier?: EarlierDatabase): MigratedStore {
  let database: TestDatabase | undefined;
  let opened: OpenedDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
    if (earlier) {
      await migrateToBefore(opened.db, earlier.before);
      await earlier.prepare(opened.db);
    }
    await migrateToLatest(opened.db);
    store = createStore(opened.db, engine);
  });
  afterAll(async () => {
    await opened?.close();
    await database?.drop();
  });
  return {
    get store() {
      if (!store) throw new Error('useMigratedStore: the store exists only inside the suite\'s tests');
      return store;
    },
    get db() {
      if (!opened) throw new Error('useMigratedStore: the database exists only inside the suite\'s tests');
      return opened.db;
    },
  };
}
