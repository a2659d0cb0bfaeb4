import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { sha256Hex } from '../domain/digests.ts';
import { DATABASE_TIMEOUTS } from './database-timeouts.ts';
import { BoundedSqliteDialect } from './sqlite-driver.ts';

// node:sqlite binds only null, numbers, bigints, strings and bytes; Kysely hands us booleans too.
function toSqliteValue(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value as SQLInputValue;
}

function adaptStatement(statement: StatementSync): SqliteStatement {
  const bind = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);
  return {
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...bind(parameters)),
    run: (parameters) => statement.run(...bind(parameters)),
    iterate: (parameters) => statement.iterate(...bind(parameters)),
  };
}

// Kysely prepares every query it runs; compiling the SQL again each time was the largest single cost of
// a protocol request in `npm run bench` profiles. The app repeats a few dozen statements forever, so each
// is prepared once (a statement is reused only after its previous run finished: one connection, in turn).
const STATEMENT_CACHE_SIZE = 500;

function cachedPrepare(database: DatabaseSync, rewrite: (sql: string) => string): (sql: string) => SqliteStatement {
  const statements = new Map<string, SqliteStatement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = adaptStatement(database.prepare(rewrite(sql)));
      // Oldest first: statements built with variable IN lists must not grow the cache without bound.
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      statements.set(sql, statement);
    }
    return statement;
  };
}

// SQLite's automatic checkpoint runs in the commit that fills the WAL to 1000 pages: it copies the log into the
// database file and syncs it, on the event loop (writes of up to 91 ms, docs/performance.md). A worker thread
// with its own connection checkpoints every 200 ms instead. Its PASSIVE checkpoints never catch up with a log
// that is being appended to, and only a fully copied log is started over by the next write, so under sustained
// writes the WAL would grow without bound (300 MB in 20,000 inserts). The serving connection therefore still
// checkpoints itself, at 10,000 pages (~40 MB) instead of 1000, when all but the last interval's pages are
// copied already.
const CHECKPOINT_INTERVAL_MS = 200;
const SERVING_AUTOCHECKPOINT_PAGES = 10_000;
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
// A checkpoint in progress takes milliseconds; the bound is for a worker that no longer answers.
const STOP_WAIT_MS = 5000;

/** The worker's state: one Int32 both threads change with Atomics. */
const CHECKPOINTER_STATES = { starting: 0, running: 1, stopping: 2, stopped: 3 } as const;

export interface CheckpointWorkerData {
  path: string;
  intervalMs: number;
  state: Int32Array;
  states: typeof CHECKPOINTER_STATES;
}

interface WalCheckpointer {
  worker: Worker;
  /** Synchronous because Kysely does not await close(): returns once the worker's connection is closed. */
  stop(): void;
}

function startWalCheckpointer(path: string, database: DatabaseSync): WalCheckpointer | undefined {
  const { starting, running, stopping, stopped } = CHECKPOINTER_STATES;
  const state = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const workerData: CheckpointWorkerData = { path, intervalMs: CHECKPOINT_INTERVAL_MS, state, states: CHECKPOINTER_STATES };
  let worker: Worker;
  try {
    worker = new Worker(new URL('./sqlite-checkpoint-worker.ts', import.meta.url), { workerData });
  } catch {
    return undefined; // SQLite's own checkpoints, as without the worker
  }
  worker.unref();
  let stopRequested = false;
  worker.on('error', (error) => {
    process.emitWarning(`SQLite checkpoint worker failed (${error.message}); the serving connection checkpoints again`);
  });
  worker.on('exit', () => {
    Atomics.store(state, 0, stopped);
    if (!stopRequested) database.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  });
  database.exec(`PRAGMA wal_autocheckpoint = ${SERVING_AUTOCHECKPOINT_PAGES}`);
  return {
    worker,
    stop() {
      stopRequested = true;
      if (Atomics.compareExchange(state, 0, starting, stopped) === starting) return; // it never opened the file
      if (Atomics.compareExchange(state, 0, running, stopping) !== running) return;
      Atomics.notify(state, 0);
      if (Atomics.wait(state, 0, stopping, STOP_WAIT_MS) === 'timed-out') void worker.terminate();
    },
  };
}

export interface NodeSqliteDialect {
  dialect: SqliteDialect;
  database: DatabaseSync;
  /** The checkpoint worker once Kysely ran its first query; none for `:memory:`. For tests. */
  checkpointWorker(): Worker | undefined;
}

/** Kysely's SQLite dialect over Node's built-in `node:sqlite`: nothing to compile. */
export function createNodeSqliteDialect(path: string): NodeSqliteDialect {
  const database = new DatabaseSync(path);
  const { journal_mode: journalMode } = database.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode: string };
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA foreign_keys = ON');
  // A lock held by another process is waited for by sqlite-driver.ts, between pauses, off the event loop.
  database.exec('PRAGMA busy_timeout = 0');
  // The digest oidc_payloads keys its rows by, for statements that find a row by another row's id.
  database.function('sha256_hex', { deterministic: true }, (value) => (typeof value === 'string' ? sha256Hex(value) : null));
  // SQLite's own lower() folds ASCII only; PostgreSQL's folds every letter. Searches compare lower(column) with
  // text lowered in JavaScript, so both engines fold as JavaScript does ("Émile" is found by "émile").
  database.function('lower', { deterministic: true }, (value) => (typeof value === 'string' ? value.toLowerCase() : value));
  let checkpointer: WalCheckpointer | undefined;
  const adapted: SqliteDatabase = {
    // The worker closes its connection first, so this one is the last and does SQLite's final checkpoint.
    close: () => {
      checkpointer?.stop();
      database.close();
    },
    // Kysely opens transactions with a deferred BEGIN; a second process (the CLI beside the server)
    // could then fail with SQLITE_BUSY on upgrade instead of waiting. IMMEDIATE takes the write lock up front.
    prepare: cachedPrepare(database, (sql) => (/^\s*begin\s*$/i.test(sql) ? 'BEGIN IMMEDIATE' : sql)),
  };
  const isFile = path !== '' && path !== ':memory:';
  // Started with the first query: Kysely calls close() only on a database it used.
  const open = async () => {
    if (isFile && journalMode === 'wal' && !checkpointer) checkpointer = startWalCheckpointer(path, database);
    return adapted;
  };
  const dialect = new BoundedSqliteDialect({ database: open, inTransaction: () => database.isTransaction, waitMs: DATABASE_TIMEOUTS.sqliteWaitMs });
  return { dialect, database, checkpointWorker: () => checkpointer?.worker };
}
