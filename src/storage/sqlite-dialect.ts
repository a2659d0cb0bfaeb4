import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';

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

/** Kysely's SQLite dialect over Node's built-in `node:sqlite`: nothing to compile. */
export function createNodeSqliteDialect(path: string): { dialect: SqliteDialect; database: DatabaseSync } {
  const database = new DatabaseSync(path);
  database.exec('PRAGMA journal_mode = WAL');
  database.exec('PRAGMA synchronous = NORMAL');
  database.exec('PRAGMA foreign_keys = ON');
  database.exec('PRAGMA busy_timeout = 5000');
  const adapted: SqliteDatabase = {
    close: () => database.close(),
    // Kysely opens transactions with a deferred BEGIN; a second process (the CLI beside the server)
    // could then fail with SQLITE_BUSY on upgrade instead of waiting. IMMEDIATE takes the write lock up front.
    prepare: cachedPrepare(database, (sql) => (/^\s*begin\s*$/i.test(sql) ? 'BEGIN IMMEDIATE' : sql)),
  };
  return { dialect: new SqliteDialect({ database: adapted }), database };
}
