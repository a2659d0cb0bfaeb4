import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { closeConnectionOnSilence } from './postgres-silence-guard.ts';

/**
 * How many distinct statement texts get a name, process-wide. Queries with variable-length IN lists
 * produce a text per length; past the cap they run unnamed, so no connection holds more than this
 * many prepared statements per generation (see PreparedStatementClient).
 */
export const STATEMENT_NAME_CAP = 500;

// Only data statements: BEGIN/COMMIT/ROLLBACK/SAVEPOINT gain nothing, and DDL must not outlive its
// migration. A ';' may separate several statements, which only the unnamed simple protocol accepts.
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

/** Names for statement texts: the same text always gets the same name, at most `cap` texts get one. */
export class StatementNames {
  readonly #names = new Map<string, string>();
  readonly #cap: number;

  constructor(cap = STATEMENT_NAME_CAP) {
    this.#cap = cap;
  }

  /** The name to prepare `text` under, or undefined to run it unnamed. */
  nameFor(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known !== undefined) return known;
    if (this.#names.size >= this.#cap || !DATA_STATEMENT.test(text) || text.includes(';')) return undefined;
    const name = `sesame_${this.#names.size + 1}`;
    this.#names.set(text, name);
    return name;
  }
}

const processStatementNames = new StatementNames();

interface PgErrorFields {
  code?: unknown;
  routine?: unknown;
  message?: unknown;
}

// PostgreSQL re-plans a prepared statement after its tables change, but refuses (0A000) when the
// result's columns changed: a `SELECT *` or `RETURNING *` after another instance added a column.
function isStalePlan(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, routine, message } = error as PgErrorFields;
  return code === '0A000' && (routine === 'RevalidateCachedQuery' || message === 'cached plan must not change result type');
}

/**
 * One pg client as Kysely's PostgresDriver sees it, running data statements as named prepared
 * statements so PostgreSQL parses and plans each text once per connection, and closing its connection
 * when a statement gets no answer in time (postgres-silence-guard.ts). Every statement Sesame runs
 * passes through here: one wrapper, one promise of its own per statement.
 */
class PreparedStatementClient implements PostgresPoolClient {
  readonly #client: pg.PoolClient;
  readonly #names: StatementNames;
  readonly #onSilence: () => void;
  // Bumped when a prepared plan went stale: every name on this connection changes, so each
  // statement is prepared afresh on next use (the stale ones stay on the server until it closes).
  #generation = 0;

  constructor(client: pg.PoolClient, names: StatementNames, onSilence: () => void) {
    this.#client = client;
    this.#names = names;
    this.#onSilence = onSilence;
  }

  get processID(): number | undefined {
    return (this.#client as { processID?: number }).processID;
  }

  release(destroy?: boolean): void {
    this.#client.release(destroy);
  }

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') return this.#client.query(sqlOrCursor as never) as PostgresCursor<R>;
    return this.#run<R>(sqlOrCursor, (parameters ?? []) as unknown[]);
  }

  async #run<R>(text: string, values: unknown[]): Promise<PostgresQueryResult<R>> {
    const name = this.#names.nameFor(text);
    // Read before the statement: an error leaves the status of the transaction it aborted.
    const outsideTransaction = name !== undefined && this.#client.getTransactionStatus() === 'I';
    for (let attempt = 0; ; attempt += 1) {
      try {
        return (await this.#client.query(this.#statement(name, text, values))) as unknown as PostgresQueryResult<R>;
      } catch (error) {
        closeConnectionOnSilence(this.#client, error, this.#onSilence);
        if (attempt > 0 || name === undefined || !isStalePlan(error)) throw error;
        this.#generation += 1;
        // Inside a transaction the error has aborted it: the caller must see it. Outside, it runs again, prepared afresh.
        if (!outsideTransaction) throw error;
      }
    }
  }

  #statement(name: string | undefined, text: string, values: unknown[]): pg.QueryConfig {
    if (name === undefined) return { text, values };
    return { name: this.#generation === 0 ? name : `${name}_${this.#generation}`, text, values };
  }
}

/**
 * The pool to give Kysely's PostgresDialect: it hands out the pool's clients wrapped so that data
 * statements run prepared. Errors pass through unchanged (their SQLSTATE and connection messages
 * are what src/errors.ts and src/ops/database-faults.ts map).
 */
export function preparedStatementPool(pool: pg.Pool, options: { names?: StatementNames; onSilence?: () => void } = {}): PostgresPool {
  const names = options.names ?? processStatementNames;
  const onSilence = options.onSilence ?? (() => {});
  // One wrapper per pg client: Kysely keys its connection objects by the client it is handed.
  const wrappers = new WeakMap<pg.PoolClient, PreparedStatementClient>();
  return {
    Client: (pool as unknown as { Client: PostgresPool['Client'] }).Client,
    options: pool.options,
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = new PreparedStatementClient(client, names, onSilence);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
