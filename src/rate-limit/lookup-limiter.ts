import { AppError } from '../errors.ts';
import type { Metrics, RateLimitDimension } from '../ops/metrics.ts';
import { addressKey } from './address-key.ts';
import type { LimitRule, RateLimitStore } from './rate-limit-store.ts';

export interface LookupLimits {
  perSession: number;
  perIp: number;
  windowSeconds: number;
}

export interface LookupCaller {
  /** The session's bearer token or cookie value; only a digest of it becomes a counter key. Null: counted per address only. */
  session: string | null;
  ip: string | null;
}

export interface LookupLimiter {
  /** Counts one lookup; throws AppError('rate_limited', ..., {retryAfterSeconds}) when the session or the address is at its limit. */
  admit(caller: LookupCaller): Promise<void>;
}

/** For callers that are no door to the outside (the command line, start-up). */
export const unlimitedLookups: LookupLimiter = { admit: async () => {} };

/**
 * Account lookups (`GET /users/lookup`) per session and per address: an exact-match lookup answers
 * whether an account exists, so unbounded it would let any signed-in person enumerate account names.
 * Every lookup counts, found or not, so the answer to one cannot be read from the limit.
 */
export function createLookupLimiter(deps: { store: RateLimitStore; limits: LookupLimits; key: (name: string, ...parts: string[]) => string; metrics: Metrics }): LookupLimiter {
  const { store, limits, key, metrics } = deps;
  const windowMs = limits.windowSeconds * 1000;

  return {
    async admit(caller) {
      const candidates: [RateLimitDimension, LimitRule][] = [];
      if (caller.session !== null) candidates.push(['session', { key: key('lookup-session', caller.session), limit: limits.perSession, windowMs }]);
      if (caller.ip !== null) candidates.push(['ip', { key: key('lookup-ip', addressKey(caller.ip)), limit: limits.perIp, windowMs }]);
      const enabled = candidates.filter(([, rule]) => rule.limit > 0);
      if (enabled.length === 0) return;
      const verdict = await store.consume(enabled.map(([, rule]) => rule));
      if (verdict.outcome !== 'refused') return;
      metrics.recordRateLimitRefusal('user_lookup', enabled[verdict.ruleIndex]?.[0] ?? 'ip');
      const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      throw new AppError('rate_limited', `Too many account lookups; wait ${retryAfterSeconds} seconds before looking up another account.`, { retryAfterSeconds });
    },
  };
}
