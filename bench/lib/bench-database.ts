import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Engine } from '../../src/storage/database.ts';

/** Where fresh PostgreSQL databases are created (trust auth on this machine). */
export const BENCH_PG_URL = process.env.SESAME_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BenchDatabase {
  engine: Engine;
  url: string;
  /** The PostgreSQL database's name (its server processes are found by it). */
  postgresName?: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a new SQLite file in a temporary folder, or a new PostgreSQL database. */
export async function createBenchDatabase(engine: Engine): Promise<BenchDatabase> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'sesame-bench-'));
    return { engine, url: `sqlite:${join(dir, 'sesame.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `sesame_bench_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: BENCH_PG_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${BENCH_PG_URL} (${(error as Error).message}); start it or run with --db sqlite.`);
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BENCH_PG_URL);
  url.pathname = `/${name}`;
  return {
    engine,
    url: url.toString(),
    postgresName: name,
    async drop() {
      const client = new pg.Client({ connectionString: BENCH_PG_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
