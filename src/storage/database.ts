import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';
import { DATABASE_TIMEOUTS } from './database-timeouts.ts';
import { preparedStatementPool } from './postgres-prepared-statements.ts';
import { createSilenceGuard } from './postgres-silence-guard.ts';
import { followPostgresChanges, followSqliteChanges, type ChangeFeed, type ChangeFeedLog } from './change-feed.ts';
import { createReadCache, registerReadCache, type ReadCache } from './read-cache.ts';
import { createNodeSqliteDialect } from './sqlite-dialect.ts';
import { watchingWrites } from './write-watching-dialect.ts';
import type { Database } from './schema.ts';

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
}

/**
 * What a server adds to an opened database: its read cache starts answering, following other processes'
 * changes (src/storage/change-feed.ts). Without it (the command line) every read goes to the database.
 */
const followers = new WeakMap<Db, (log: ChangeFeedLog) => Promise<ChangeFeed>>();

export function followChanges(db: Db, log: ChangeFeedLog): Promise<ChangeFeed> {
  const follow = followers.get(db);
  if (!follow) throw new Error('followChanges: this database was not opened by openDatabase');
  return follow(log);
}

function withReadCache(db: Db, cache: ReadCache, follow: (log: ChangeFeedLog) => Promise<ChangeFeed>): Db {
  registerReadCache(db, cache);
  followers.set(db, follow);
  return db;
}

// int8 (our epoch-ms columns and COUNT(*)) arrives as a string by default; every value we store fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function engineOf(databaseUrl: string): Engine {
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) return 'postgres';
  if (databaseUrl.startsWith('sqlite:')) return 'sqlite';
  throw new Error(`DATABASE_URL must start with postgres://, postgresql:// or sqlite: (got "${databaseUrl.split(':')[0]}:")`);
}

export interface OpenDatabaseOptions {
  poolSize?: number;
  /** Told of every statement run (and every failed one); tests count statements per request with it. */
  log?: (event: LogEvent) => void;
  /**
   * PostgreSQL: false lifts the per-statement timeouts (DATABASE_TIMEOUTS), for migrations, whose
   * statements may rightly run long on a big table. Waiting for a connection stays bounded.
   */
  statementTimeouts?: boolean;
}

export function openDatabase(databaseUrl: string, options: OpenDatabaseOptions = {}): OpenedDatabase {
  const log = options.log ? { log: options.log } : {};
  const engine = engineOf(databaseUrl);
  if (engine === 'postgres') {
    // A server that drops packets instead of refusing them must fail a request (503) in bounded time, not hang it.
    const silence = createSilenceGuard(databaseUrl);
    const statementTimeouts = options.statementTimeouts === false ? {} : { statement_timeout: DATABASE_TIMEOUTS.statementMs, query_timeout: DATABASE_TIMEOUTS.queryMs };
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: DATABASE_TIMEOUTS.acquireMs,
      ...statementTimeouts,
    });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    // The same for a client checked out between queries (inside a transaction): without a listener
    // its 'error' is an uncaught exception. Its query fails, and the pool discards it on release.
    pool.on('connect', (client) => client.on('error', () => {}));
    const cache = createReadCache();
    const dialect = watchingWrites(new PostgresDialect({ pool: silence.guard(preparedStatementPool(pool, { onSilence: () => silence.trip() })) }), cache.written);
    const db = withReadCache(new Kysely<Database>({ dialect, ...log }), cache, (feedLog) => followPostgresChanges(databaseUrl, cache, feedLog));
    return { db, engine, close: () => db.destroy() };
  }
  const path = databaseUrl.slice('sqlite:'.length);
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const { dialect, database } = createNodeSqliteDialect(path);
  const cache = createReadCache();
  const db = withReadCache(new Kysely<Database>({ dialect: watchingWrites(dialect, cache.written), ...log }), cache, async () => followSqliteChanges(database, cache));
  return { db, engine, close: () => db.destroy() };
}
