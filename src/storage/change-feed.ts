import type { DatabaseSync } from 'node:sqlite';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { DATABASE_TIMEOUTS } from './database-timeouts.ts';
import type { ReadCache } from './read-cache.ts';

/** How other processes' changes reach this process's read cache; stopping it sends every read to the database. */
export interface ChangeFeed {
  /** Whether the cache answers now (false: the notification connection is down, every read goes to the database). */
  inUse(): boolean;
  stop(): Promise<void>;
}

export interface ChangeFeedLog {
  warn(message: string): void;
  info(message: string): void;
}

/** The channel the triggers of migrations/20261128060000-cache-change-notifications.ts notify, `<table>:<key>`. */
export const CACHE_CHANNEL = 'sesame_cache';
/** How the notification connection shows in `pg_stat_activity`. */
export const LISTENER_APPLICATION_NAME = 'sesame-cache-listener';

// The listener asks the server every HEARTBEAT_MS; an answer to a question sent at t shows every notification
// committed before t was heard (the server sends them before the answer, on the same connection). The cache
// answers only until t + VOUCHED_MS: a connection that dies without a word (packets dropped) stops the cache
// within that bound, which with the time a notification takes keeps a change's reach under 1 s (docs/operations.md).
const HEARTBEAT_MS = 250;
const VOUCHED_MS = 750;
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/**
 * SQLite: `PRAGMA data_version` moves when another connection (another instance, the CLI) committed to the
 * file. It is read on the serving connection, synchronously, before each cached read (a few microseconds);
 * when it moved, the cache is emptied. This process's own writes do not move it: the write watcher reports them.
 */
export function followSqliteChanges(database: DatabaseSync, cache: ReadCache): ChangeFeed {
  const dataVersion = database.prepare('PRAGMA data_version');
  const mark = () => (dataVersion.get() as { data_version: number }).data_version;
  let seen = mark();
  let stopped = false;
  const feed = {
    inUse: () => {
      if (stopped || !database.isOpen) return false;
      const now = mark();
      if (now !== seen) {
        seen = now;
        cache.clear();
      }
      return true;
    },
    async stop() {
      stopped = true;
    },
  };
  cache.attach({ fresh: feed.inUse });
  return feed;
}

/**
 * PostgreSQL: one connection of its own (not from the pool) LISTENs on the triggers' channel. While it is down
 * the cache is bypassed; it reconnects with a growing pause, and once it listens again the cache starts empty,
 * since changes made meanwhile were not heard.
 */
export async function followPostgresChanges(connectionString: string, cache: ReadCache, log: ChangeFeedLog): Promise<ChangeFeed> {
  let listening: pg.Client | undefined;
  let vouchedUntil = 0;
  let stopped = false;
  let pause = RECONNECT_FIRST_MS;
  let reconnect: NodeJS.Timeout | undefined;
  let asking = false;
  let wasLost = false;

  const inUse = () => listening !== undefined && performance.now() < vouchedUntil;
  cache.attach({ fresh: inUse });

  function lost(client: pg.Client, reason: string): void {
    if (listening !== client) return;
    listening = undefined;
    wasLost = true;
    void client.end().catch(() => {});
    log.warn(`read cache bypassed: its notification connection to PostgreSQL was lost (${reason}); reconnecting`);
    scheduleConnect();
  }

  function scheduleConnect(): void {
    if (stopped || reconnect) return;
    reconnect = setTimeout(() => {
      reconnect = undefined;
      void connect();
    }, pause);
    reconnect.unref();
    pause = Math.min(pause * 2, RECONNECT_MAX_MS);
  }

  async function connect(): Promise<boolean> {
    const client = new pg.Client({
      connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      connectionTimeoutMillis: DATABASE_TIMEOUTS.acquireMs,
      query_timeout: DATABASE_TIMEOUTS.queryMs,
      keepAlive: true,
    });
    client.on('error', (error) => lost(client, error.message));
    client.on('end', () => lost(client, 'connection ended'));
    client.on('notification', ({ channel, payload }) => {
      if (channel !== CACHE_CHANNEL || payload === undefined) return;
      const colon = payload.indexOf(':');
      if (colon > 0) cache.changed({ table: payload.slice(0, colon), key: payload.slice(colon + 1) });
    });
    try {
      await client.connect();
      const askedAt = performance.now();
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
      if (stopped) {
        await client.end();
        return false;
      }
      // Whatever changed while nobody listened was not heard.
      cache.clear();
      listening = client;
      vouchedUntil = askedAt + VOUCHED_MS;
      pause = RECONNECT_FIRST_MS;
      if (wasLost) log.info('read cache in use again: listening for changes on PostgreSQL');
      wasLost = false;
      return true;
    } catch {
      void client.end().catch(() => {});
      scheduleConnect();
      return false;
    }
  }

  const heartbeat = setInterval(() => {
    const client = listening;
    if (!client || asking) return;
    asking = true;
    const askedAt = performance.now();
    client
      .query('select 1')
      .then(() => {
        if (listening === client) vouchedUntil = askedAt + VOUCHED_MS;
      })
      .catch((error: Error) => lost(client, error.message))
      .finally(() => {
        asking = false;
      });
  }, HEARTBEAT_MS);
  heartbeat.unref();

  if (!(await connect())) log.warn('read cache bypassed: could not LISTEN for changes on PostgreSQL yet; retrying');
  return {
    inUse,
    async stop() {
      stopped = true;
      clearInterval(heartbeat);
      clearTimeout(reconnect);
      const client = listening;
      listening = undefined;
      await client?.end().catch(() => {});
    },
  };
}
