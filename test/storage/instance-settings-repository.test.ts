import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

describe.each(TEST_ENGINES)('instance settings repository on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
    await migrateToLatest(opened.db);
    store = createStore(opened.db, engine);
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  it('stores a value under a new name once and keeps the first value', async () => {
    expect(await store.repos.instanceSettings.find('FIRST')).toBeUndefined();
    expect(await store.repos.instanceSettings.insertIfAbsent('FIRST', 'one', 1_000)).toBe(true);
    expect(await store.repos.instanceSettings.insertIfAbsent('FIRST', 'two', 2_000)).toBe(false);
    expect(await store.repos.instanceSettings.find('FIRST')).toBe('one');
    expect(await store.repos.instanceSettings.find('first')).toBeUndefined();
  });

  it('lets exactly one of several instances starting at once store its value, and all read that one', async () => {
    const offers = ['a', 'b', 'c', 'd', 'e'];
    const stored = await Promise.all(offers.map((value) => store.transaction((repos) => repos.instanceSettings.insertIfAbsent('RACED', value, 3_000))));
    expect(stored.filter(Boolean)).toHaveLength(1);
    expect(await store.repos.instanceSettings.find('RACED')).toBe(offers[stored.indexOf(true)]);
  });

  it('writes nothing when the transaction it wrote in rolls back', async () => {
    await expect(
      store.transaction(async (repos) => {
        await repos.instanceSettings.insertIfAbsent('ROLLED_BACK', 'value', 4_000);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await store.repos.instanceSettings.find('ROLLED_BACK')).toBeUndefined();
  });
});
