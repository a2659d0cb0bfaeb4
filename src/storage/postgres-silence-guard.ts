import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { DATABASE_TIMEOUTS, DatabaseTimeoutError } from './database-timeouts.ts';

// node-postgres's words for "the server did not answer in time": to a query (query_timeout), or to a new
// connection's handshake (connectionTimeoutMillis). A checkout that timed out waiting for a busy pool
// ('timeout exceeded when trying to connect') answers 503 too, but says nothing about the server.
const SILENCE_MESSAGES = ['Query read timeout', 'Connection terminated due to connection timeout'];

export function isSilence(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && SILENCE_MESSAGES.some((text) => message.includes(text));
}

/**
 * After a query failed: when it got no answer in time, closes its connection and tells `onSilence`.
 * node-postgres otherwise keeps the connection, its unanswered query still at the head of the line, and
 * returns it to the pool: every later query on it (the ROLLBACK first) would wait out its own timeout.
 */
export function closeConnectionOnSilence(client: pg.ClientBase, error: unknown, onSilence: () => void): void {
  if (!isSilence(error)) return;
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  onSilence();
}

/**
 * Once the server went silent (a query or a new connection got no answer in time), every request would wait out the
 * same timeouts, one after another: a request that reads twice would take twice as long. So from then on
 * checkouts fail at once, with a DatabaseTimeoutError (503), while a probe on its own connection, outside
 * the pool, asks the server every second; its first answer lets requests through again.
 */
export function createSilenceGuard(connectionString: string) {
  let silent = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  // Checkouts waiting for a connection: when the server goes silent they fail at once instead of at their own timeout.
  const waiting = new Set<(error: Error) => void>();
  const silenceError = () => new DatabaseTimeoutError('PostgreSQL stopped answering; waiting for it to answer again');

  async function probe(): Promise<void> {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: DATABASE_TIMEOUTS.acquireMs, query_timeout: DATABASE_TIMEOUTS.queryMs });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('select 1');
      silent = false;
    } catch {
      schedule();
    } finally {
      void client.end().catch(() => {});
    }
  }

  function schedule(): void {
    if (closed) return;
    timer = setTimeout(() => void probe(), DATABASE_TIMEOUTS.probeIntervalMs);
    timer.unref();
  }

  /** The server did not answer in time: fail fast until the probe hears it again. */
  function trip(): void {
    if (silent || closed) return;
    silent = true;
    for (const fail of waiting) fail(silenceError());
    waiting.clear();
    schedule();
  }

  return {
    get silent(): boolean {
      return silent;
    },
    trip,
    /** Kysely's pool, failing checkouts at once while the server is silent and tripping on a checkout that timed out. */
    guard(pool: PostgresPool): PostgresPool {
      return {
        ...pool,
        connect: (): Promise<PostgresPoolClient> => {
          if (silent) return Promise.reject(silenceError());
          return new Promise((resolve, reject) => {
            let failed = false;
            const fail = (error: Error) => {
              failed = true;
              reject(error);
            };
            waiting.add(fail);
            pool.connect().then(
              (client) => {
                waiting.delete(fail);
                if (failed) client.release();
                else resolve(client);
              },
              (error: unknown) => {
                waiting.delete(fail);
                if (isSilence(error)) trip();
                reject(error as Error);
              },
            );
          });
        },
        end: async () => {
          closed = true;
          clearTimeout(timer);
          await pool.end();
        },
      };
    },
  };
}
