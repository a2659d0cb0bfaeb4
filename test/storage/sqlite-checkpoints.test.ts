import { once } from 'node:events';
import { existsSync, statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeSqliteDialect, type NodeSqliteDialect } from '../../src/storage/sqlite-dialect.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

interface NotesTable {
  id: number;
  body: string;
}
type NotesDb = Kysely<{ notes: NotesTable }>;

const ROWS = 2500;
const BATCH = 125;
// About one 4 KB page per row: the WAL holds ~30 MB once every row is in it.
const body = (row: number) => `${row}:`.padEnd(3000, 'x');

/**
 * One committed INSERT per row, in bursts with quiet moments between them as a server's writes have; returns
 * the largest -wal seen. A checkpoint lets the next write start the log over only if it copied the whole log,
 * that is if no write came while it ran: the pause is longer than the worker's interval, so every pause holds one.
 */
async function writeNotes(walPath: string, pauseMs: number, insert: (row: number) => unknown): Promise<number> {
  let largestWal = 0;
  for (let row = 0; row < ROWS; row++) {
    await insert(row);
    if (row % BATCH === BATCH - 1) {
      largestWal = Math.max(largestWal, statSync(walPath).size);
      await sleep(pauseMs);
    }
  }
  return largestWal;
}

function autocheckpointOf(database: DatabaseSync): number {
  return (database.prepare('PRAGMA wal_autocheckpoint').get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
}

describe.skipIf(!TEST_ENGINES.includes('sqlite'))('SQLite WAL checkpoints in a worker thread', () => {
  let testDatabase: TestDatabase;
  let path: string;
  let opened: NodeSqliteDialect;
  let db: NotesDb;

  function open(): void {
    opened = createNodeSqliteDialect(path);
    db = new Kysely({ dialect: opened.dialect });
  }

  async function startedWorker() {
    await sql`CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db);
    const worker = opened.checkpointWorker();
    expect(worker).toBeDefined();
    return worker!;
  }

  beforeEach(async () => {
    testDatabase = await createTestDatabase('sqlite');
    path = testDatabase.url.slice('sqlite:'.length);
    open();
  });
  afterEach(async () => {
    await db.destroy();
    await testDatabase.drop();
  });

  it('keeps the WAL far smaller than it grows without checkpoints, and closing merges it into the database', async () => {
    const unchecked = new DatabaseSync(`${path}-unchecked`);
    unchecked.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0');
    unchecked.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insertUnchecked = unchecked.prepare('INSERT INTO notes (id, body) VALUES (?, ?)');
    const uncheckedWal = await writeNotes(`${path}-unchecked-wal`, 0, (row) => insertUnchecked.run(row, body(row)));
    unchecked.close();
    expect(uncheckedWal).toBeGreaterThan(25_000_000);

    const worker = await startedWorker();
    const exited = once(worker, 'exit');
    await once(worker, 'online');
    const checkedWal = await writeNotes(`${path}-wal`, 250, (row) => db.insertInto('notes').values({ id: row, body: body(row) }).execute());
    expect(checkedWal).toBeLessThan(uncheckedWal / 4);

    await db.destroy();
    expect(await exited).toEqual([0]);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = new DatabaseSync(path, { readOnly: true });
    expect(reopened.prepare('SELECT count(*) AS n, max(id) AS last FROM notes').get()).toEqual({ n: ROWS, last: ROWS - 1 });
    expect(reopened.prepare('SELECT body FROM notes WHERE id = ?').get(ROWS - 1)).toEqual({ body: body(ROWS - 1) });
    reopened.close();
  }, 60_000);

  it('hands checkpoints back to the serving connection when the worker is gone', async () => {
    const worker = await startedWorker();
    expect(autocheckpointOf(opened.database)).toBe(10_000);
    await worker.terminate();
    expect(autocheckpointOf(opened.database)).toBe(1000);

    for (let row = 0; row < 1000; row++) await db.insertInto('notes').values({ id: row, body: body(row) }).execute();
    // 1000 pages of WAL trigger SQLite's own checkpoint again, after which the log starts over.
    expect(statSync(`${path}-wal`).size).toBeLessThan(1100 * 4096);
    await db.destroy();
    expect(existsSync(`${path}-wal`)).toBe(false);
    open();
    expect(await db.selectFrom('notes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).toEqual({ n: 1000 });
  });

  it('closes at once whether the worker is still starting or between checkpoints, leaving no -wal', async () => {
    const starting = await startedWorker();
    await db.insertInto('notes').values({ id: 1, body: body(1) }).execute();
    const startingExited = once(starting, 'exit');
    await db.destroy();
    expect(await startingExited).toEqual([0]);
    expect(existsSync(`${path}-wal`)).toBe(false);

    open();
    const running = await startedWorker();
    await once(running, 'online');
    await sleep(300);
    await db.insertInto('notes').values({ id: 2, body: body(2) }).execute();
    const runningExited = once(running, 'exit');
    const closing = performance.now();
    await db.destroy();
    expect(performance.now() - closing).toBeLessThan(1000);
    expect(await runningExited).toEqual([0]);
    expect(existsSync(`${path}-wal`)).toBe(false);
    open();
    expect(await db.selectFrom('notes').select('id').orderBy('id').execute()).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('starts no worker for an in-memory database', async () => {
    await db.destroy();
    opened = createNodeSqliteDialect(':memory:');
    db = new Kysely({ dialect: opened.dialect });
    await sql`SELECT 1`.execute(db);
    expect(opened.checkpointWorker()).toBeUndefined();
  });
});
