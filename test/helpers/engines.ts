import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Engine } from '../../src/storage/database.ts';

/** Which engines the suites run on: both by default; SESAME_TEST_ENGINES=sqlite|postgres narrows it. */
export const TEST_ENGINES: Engine[] = (process.env.SESAME_TEST_ENGINES ?? 'sqlite,postgres')
  .split(',')
  .map((e) => e.trim())
  .filter((e): e is Engine => e === 'sqlite' || e === 'postgres');

/** A PostgreSQL server the tests may create databases on (trust auth on this machine and in CI). */
export const TEST_PG_URL = process.env.SESAME_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database of the given engine. PostgreSQL gets a new database per call,
 * so suites never see each other's rows; SQLite gets a file in a new temporary folder.
 */
export async function createTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'sesame-test-'));
    return { url: `sqlite:${join(dir, 'sesame.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `sesame_t_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: TEST_PG_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is required for the postgres suites and is not reachable at ${TEST_PG_URL} (${(error as Error).message}). ` +
        'Start it, or set SESAME_TEST_ENGINES=sqlite to run only the SQLite suites locally.',
    );
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_PG_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
