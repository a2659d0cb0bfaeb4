import { afterAll, beforeAll } from 'vitest';
import type { Kysely } from 'kysely';
import { openDatabase, type Engine, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import type { Database } from '../../src/storage/schema.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { createTestDatabase, type TestDatabase } from './engines.ts';

export interface MigratedStore {
  readonly store: Store;
  readonly db: Kysely<Database>;
}

/** A fresh, migrated database of `engine` for the calling suite: made before its tests, dropped after them. */
export function useMigratedStore(engine: Engine): MigratedStore {
  let database: TestDatabase | undefined;
  let opened: OpenedDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
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
