import { Redis } from 'ioredis';
import { createMemoryStore } from './memory-store.ts';
import type { RateLimitStore } from './rate-limit-store.ts';
import { createRedisStore } from './redis-store.ts';

export interface StoreLogger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

// A limiter call must never hang a sign-in: Redis gets this long, then the local store answers.
const REDIS_COMMAND_TIMEOUT_MS = 1_000;

/**
 * The Redis store when Redis answers; this instance's own counters while it does not, so an
 * outage degrades the limits to per-instance instead of refusing every sign-in or dropping
 * every limit. Connection attempts continue in the background, and Redis resumes when it returns.
 */
export function createSharedStore(redisUrl: string, log: StoreLogger): RateLimitStore {
  const redis = new Redis(redisUrl, {
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  const remote = createRedisStore(redis);
  const local = createMemoryStore();
  // Set by a connection error, cleared when the connection is ready again.
  let unreachable = false;
  let lastCommandWarning = 0;

  redis.on('ready', () => {
    if (unreachable) log.info({}, 'rate limits: Redis is back; limits are shared again');
    unreachable = false;
  });
  redis.on('error', (error: Error) => {
    if (!unreachable) log.warn({ reason: error.message }, 'rate limits: Redis unreachable; counting in this instance until it returns');
    unreachable = true;
  });

  // Before the first connection completes, commands wait in ioredis's queue (bounded by the timeout).
  const usable = () => redis.status === 'ready' || (!unreachable && (redis.status === 'connecting' || redis.status === 'connect'));

  async function withFallback<T>(run: (store: RateLimitStore) => Promise<T>): Promise<T> {
    if (!usable()) return run(local);
    try {
      return await run(remote);
    } catch (error) {
      if (Date.now() - lastCommandWarning > 60_000) {
        lastCommandWarning = Date.now();
        log.warn({ reason: (error as Error).message }, 'rate limits: a Redis command failed; this request was counted in this instance');
      }
      return run(local);
    }
  }

  return {
    consume: (counted, checked) => withFallback((store) => store.consume(counted, checked)),
    record: (rules) => withFallback((store) => store.record(rules)),
    reserve: (rules, attemptId, holdMs) => withFallback((store) => store.reserve(rules, attemptId, holdMs)),
    settle: (rules, attemptId, outcome) => withFallback((store) => store.settle(rules, attemptId, outcome)),
    peek: (key) => withFallback((store) => store.peek(key)),
    remember: (key, ttlMs) => withFallback((store) => store.remember(key, ttlMs)),
    async close() {
      await local.close();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
