import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.SESAME_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether the Redis suites can run. In CI Redis is mandatory: an unreachable one fails the run
 * instead of skipping the tests that prove limits hold across instances.
 */
export async function redisReachable(): Promise<boolean> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch (error) {
    if (process.env.CI) throw new Error(`Redis is required in CI and is not reachable at ${TEST_REDIS_URL}: ${(error as Error).message}`);
    process.stderr.write(`Redis suites skipped: nothing answers at ${TEST_REDIS_URL} (CI fails instead)\n`);
    return false;
  } finally {
    redis.disconnect();
  }
}

export function newRedisClient(): Redis {
  return new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
}
