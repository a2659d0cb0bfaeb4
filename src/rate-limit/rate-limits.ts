import type { Config } from '../config.ts';
import type { Metrics } from '../ops/metrics.ts';
import { limitKeyFactory } from './limit-keys.ts';
import { createMailRequestLimiter } from './mail-request-limiter.ts';
import { createLookupLimiter } from './lookup-limiter.ts';
import { createMemoryStore } from './memory-store.ts';
import type { RateLimitStore } from './rate-limit-store.ts';
import { createSharedStore, type StoreLogger } from './shared-store.ts';
import { createSignInLimiter } from './sign-in-limiter.ts';
import { createTokenLimiter } from './token-limiter.ts';

/** Every rate limit Sesame applies, over Redis when REDIS_URL is set and in process otherwise. */
export function createRateLimits(config: Pick<Config, 'issuer' | 'redisUrl' | 'rateLimits'>, deps: { metrics: Metrics; log: StoreLogger; store?: RateLimitStore }) {
  const store = deps.store ?? (config.redisUrl ? createSharedStore(config.redisUrl, deps.log) : createMemoryStore());
  const key = limitKeyFactory(config.issuer);
  return {
    signIn: createSignInLimiter({ store, limits: config.rateLimits.signIn, key, metrics: deps.metrics }),
    token: createTokenLimiter({ store, limits: config.rateLimits.token, key, metrics: deps.metrics }),
    mailRequests: createMailRequestLimiter({ store, key }),
    lookup: createLookupLimiter({ store, limits: config.rateLimits.lookup, key, metrics: deps.metrics }),
    shared: config.redisUrl !== undefined,
    close: () => store.close(),
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
