import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { precompile } from '../../src/storage/precompiled-query.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

describe.each(TEST_ENGINES)('precompiled queries on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
    await migrateToLatest(opened.db);
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  it('runs with each call\'s values, a slot used twice taking its value in both places, constants kept', async () => {
    const { db } = opened;
    const upsert = precompile(['id', 'payload'], (value) => {
      const row = { payload: value('payload'), grant_id: 'constant-grant', uid: null, expires_at: null, consumed_at: null };
      return db.insertInto('oidc_payloads').values({ kind: 'Test', id: value('id'), ...row }).onConflict((oc) => oc.columns(['kind', 'id']).doUpdateSet(row));
    });
    const find = precompile(['id'], (value) => db.selectFrom('oidc_payloads').select(['id', 'payload', 'grant_id']).where('kind', '=', 'Test').where('id', '=', value('id')));

    await db.executeQuery(upsert({ id: 'a', payload: '{"n":1}' }));
    await db.executeQuery(upsert({ id: 'b', payload: '{"n":2}' }));
    await db.executeQuery(upsert({ id: 'a', payload: '{"n":3}' }));

    expect((await db.executeQuery(find({ id: 'a' }))).rows).toEqual([{ id: 'a', payload: '{"n":3}', grant_id: 'constant-grant' }]);
    expect((await db.executeQuery(find({ id: 'b' }))).rows).toEqual([{ id: 'b', payload: '{"n":2}', grant_id: 'constant-grant' }]);
    expect((await db.executeQuery(find({ id: 'c' }))).rows).toEqual([]);
  });

  it('refuses a slot the query does not use', () => {
    expect(() => precompile(['id', 'forgotten'], (value) => opened.db.selectFrom('oidc_payloads').select('id').where('id', '=', value('id')))).toThrow(/forgotten/);
  });
});
