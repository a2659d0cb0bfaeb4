import { setTimeout as sleep } from 'node:timers/promises';
import { CompiledQuery, SelectQueryNode, SqliteAdapter, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult, type SqliteDatabase } from 'kysely';
import { DatabaseTimeoutError } from './database-timeouts.ts';

// SQLITE_BUSY and SQLITE_LOCKED, the primary codes of "another connection holds the lock".
const BUSY_CODES = new Set([5, 6]);

function isBusy(error: unknown): boolean {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' && BUSY_CODES.has(errcode & 0xff);
}

/** One holder at a time, in order of arrival; a waiter gives up at its deadline. */
class ConnectionQueue {
  #held = false;
  readonly #waiting: (() => void)[] = [];

  acquire(timeoutMs: number): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(grant), 1);
        reject(new DatabaseTimeoutError(`the SQLite connection stayed busy for ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiting.push(grant);
    });
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

export interface BoundedSqliteOptions {
  database: () => Promise<SqliteDatabase>;
  /** Whether the connection is inside a transaction (node:sqlite's `isTransaction`). */
  inTransaction: () => boolean | undefined;
  /** How long one statement or transaction may wait, for the connection and for the file's write lock together. */
  waitMs: number;
}

/**
 * Kysely's SQLite driver, with waiting bounded and off the event loop. node:sqlite is synchronous, so
 * SQLite's own busy_timeout would block every request while another process holds the write lock; here
 * busy_timeout is 0 and a statement refused with SQLITE_BUSY outside a transaction (where it ran not at all,
 * e.g. the BEGIN IMMEDIATE of a write) gives the connection up, pauses, and tries again at its next turn:
 * reads, which WAL lets through, are served in between. Each use of the connection (a statement, or a
 * transaction from its BEGIN) waits at most `waitMs` from its arrival, then fails (503).
 */
class BoundedSqliteDriver implements Driver {
  readonly #options: BoundedSqliteOptions;
  readonly #queue = new ConnectionQueue();
  #database: SqliteDatabase | undefined;

  constructor(options: BoundedSqliteOptions) {
    this.#options = options;
  }

  async init(): Promise<void> {
    this.#database = await this.#options.database();
  }

  /** A lease on the one connection: Kysely hands it back to releaseConnection, which knows whether it still holds a turn. */
  async acquireConnection(): Promise<DatabaseConnection> {
    const deadline = Date.now() + this.#options.waitMs;
    await this.#queue.acquire(this.#options.waitMs);
    const database = this.#database!;
    const lease: Lease = {
      held: true,
      executeQuery: (query) => this.#execute(lease, deadline, database, query),
      streamQuery: (query) => stream(database, query),
    };
    return lease;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!lease.held) return;
    lease.held = false;
    this.#queue.release();
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(raw('rollback'));
  }

  async destroy(): Promise<void> {
    this.#database?.close();
  }

  async #execute<R>(lease: Lease, deadline: number, database: SqliteDatabase, query: CompiledQuery): Promise<QueryResult<R>> {
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      try {
        return run<R>(database, query);
      } catch (error) {
        const inTransaction = this.#options.inTransaction() ?? !/^\s*begin\b/i.test(query.sql);
        if (!isBusy(error) || inTransaction || Date.now() + pause > deadline) throw error;
      }
      lease.held = false;
      this.#queue.release();
      await sleep(pause);
      const left = deadline - Date.now();
      if (left <= 0) throw new DatabaseTimeoutError('the SQLite database stayed locked by another process');
      await this.#queue.acquire(left);
      lease.held = true;
    }
  }
}

interface Lease extends DatabaseConnection {
  held: boolean;
}

const raw = (sql: string) => CompiledQuery.raw(sql);

function run<R>(database: SqliteDatabase, { sql, parameters }: CompiledQuery): QueryResult<R> {
  const statement = database.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return {
    insertId: lastInsertRowid != null ? BigInt(lastInsertRowid) : undefined,
    numAffectedRows: changes != null ? BigInt(changes) : undefined,
    rows: [],
  };
}

async function* stream<R>(database: SqliteDatabase, { sql, parameters, query }: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
  if (!SelectQueryNode.is(query)) throw new Error('Sqlite driver only supports streaming of select queries');
  for (const row of database.prepare(sql).iterate(parameters)) yield { rows: [row as R] };
}

/** The driver above serialises the one connection itself, with a deadline; Kysely's own queue waits forever. */
class BoundedSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

export class BoundedSqliteDialect extends SqliteDialect {
  readonly #options: BoundedSqliteOptions;

  constructor(options: BoundedSqliteOptions) {
    super({ database: options.database });
    this.#options = options;
  }

  override createDriver(): Driver {
    return new BoundedSqliteDriver(this.#options);
  }

  override createAdapter(): SqliteAdapter {
    return new BoundedSqliteAdapter();
  }
}
