import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { preparedStatementPool, StatementNames } from '../../src/storage/postgres-prepared-statements.ts';
import type { Database } from '../../src/storage/schema.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

/** The statements prepared on the connection `db` runs on (tests open it with one connection). */
async function preparedOnConnection(db: Db): Promise<{ name: string; statement: string }[]> {
  const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db);
  return rows;
}

async function onAnotherConnection(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe('which statements get a name', () => {
  it('names data statements, the same name for the same text, and none past the cap', () => {
    const names = new StatementNames(2);
    const select = 'select * from "users" where "id" = $1';
    const name = names.nameFor(select);
    expect(name).toEqual(expect.any(String));
    expect(names.nameFor(select)).toBe(name);
    expect(names.nameFor('  WITH x as (select 1) delete from "sessions"')).toEqual(expect.any(String));
    expect(names.nameFor('insert into "users" ("id") values ($1)')).toBeUndefined();
    expect(names.nameFor(select)).toBe(name);
  });

  it('leaves transaction control, DDL and several statements in one text unnamed', () => {
    const names = new StatementNames();
    for (const text of ['begin', 'commit', 'rollback', 'start transaction isolation level serializable', 'savepoint "sp"', 'create table "t" ("a" int)', 'alter table "users" add column "x" text', 'select 1; select 2', 'selective']) {
      expect(names.nameFor(text), text).toBeUndefined();
    }
  });
});

describe.skipIf(!TEST_ENGINES.includes('postgres'))('named prepared statements on PostgreSQL', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const { db, close } = openDatabase(database.url);
    await migrateToLatest(db);
    await close();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('prepares a data statement once per connection and reuses it; transaction control is not prepared', async () => {
    const { db, close } = openDatabase(database.url, { poolSize: 1 });
    try {
      const query = (name: string) => db.selectFrom('instance_settings').select(['value']).where('name', '=', name);
      await query('a').execute();
      const text = query('a').compile().sql;
      expect((await preparedOnConnection(db)).filter((row) => row.statement === text)).toHaveLength(1);

      await query('b').execute();
      await db.transaction().execute(async (trx) => {
        await trx.selectFrom('instance_settings').select(['value']).where('name', '=', 'c').execute();
      });
      const prepared = await preparedOnConnection(db);
      expect(prepared.filter((row) => row.statement === text)).toHaveLength(1);
      expect(prepared.filter((row) => /^\s*(begin|commit|rollback)/i.test(row.statement))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps the SQLSTATE of a failing prepared statement', async () => {
    const { db, close } = openDatabase(database.url, { poolSize: 1 });
    try {
      const insert = () => db.insertInto('instance_settings').values({ name: 'duplicate', value: 'v', created_at: 1 }).execute();
      await insert();
      await expect(insert()).rejects.toMatchObject({ code: '23505' });
      await expect(insert()).rejects.toMatchObject({ code: '23505' });
    } finally {
      await close();
    }
  });

  it('runs a SELECT * prepared before another connection added a column, inside and outside a transaction', async () => {
    const { db, close } = openDatabase(database.url, { poolSize: 1 });
    try {
      await db.insertInto('instance_settings').values({ name: 'altered', value: 'v', created_at: 1 }).execute();
      const everyColumn = () => db.selectFrom('instance_settings').selectAll().where('name', '=', 'altered').execute();
      expect(await everyColumn()).toEqual([{ name: 'altered', value: 'v', created_at: 1 }]);

      await onAnotherConnection(database.url, `ALTER TABLE instance_settings ADD COLUMN note text DEFAULT 'added'`);
      expect(await everyColumn()).toEqual([{ name: 'altered', value: 'v', created_at: 1, note: 'added' }]);

      // Inside a transaction the failed statement has aborted it, so the error reaches the caller;
      // the connection's next statement must not fail the same way.
      await onAnotherConnection(database.url, `ALTER TABLE instance_settings ADD COLUMN second_note text DEFAULT 'again'`);
      await expect(
        db.transaction().execute(async (trx) => trx.selectFrom('instance_settings').selectAll().where('name', '=', 'altered').execute()),
      ).rejects.toMatchObject({ code: '0A000' });
      expect(await everyColumn()).toEqual([{ name: 'altered', value: 'v', created_at: 1, note: 'added', second_note: 'again' }]);
    } finally {
      await close();
    }
  });

  it('runs statements past the cap unnamed', async () => {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: preparedStatementPool(new pg.Pool({ connectionString: database.url, max: 1 }), { names: new StatementNames(2) }) }),
    });
    try {
      const texts: string[] = [];
      for (const names of [['a'], ['a', 'b'], ['a', 'b', 'c']]) {
        const query = db.selectFrom('instance_settings').select(['value']).where('name', 'in', names);
        texts.push(query.compile().sql);
        await query.execute();
      }
      const prepared = await preparedOnConnection(db);
      expect(prepared.map((row) => row.statement).sort()).toEqual(texts.slice(0, 2).sort());
    } finally {
      await db.destroy();
    }
  });
});
