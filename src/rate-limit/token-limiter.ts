import { AppError } from '../errors.ts';
import type { Metrics, RateLimitDimension } from '../ops/metrics.ts';
import type { LimitRule, RateLimitStore } from './rate-limit-store.ts';

export interface TokenLimits {
  perClient: number;
  perIp: number;
  windowSeconds: number;
}

/** Token endpoint limits: every request counts, per client and per IP. */
export function createTokenLimiter(deps: { store: RateLimitStore; limits: TokenLimits; key: (name: string, ...parts: string[]) => string; metrics: Metrics }) {
  const { store, limits, key, metrics } = deps;
  const windowMs = limits.windowSeconds * 1000;

  return {
    /**
     * Counts one token request; throws AppError('rate_limited', ..., {retryAfterSeconds}) when a
     * limit is reached. `clientId` is what the request claims (Basic user name or `client_id`),
     * unauthenticated yet, or undefined when it names none.
     */
    async consume(request: { clientId: string | undefined; ip: string }): Promise<void> {
      const candidates: [RateLimitDimension, LimitRule][] = [['ip', { key: key('token-ip', request.ip), limit: limits.perIp, windowMs }]];
      if (request.clientId !== undefined) candidates.push(['client', { key: key('token-client', request.clientId), limit: limits.perClient, windowMs }]);
      const enabled = candidates.filter(([, rule]) => rule.limit > 0);
      const verdict = await store.consume(enabled.map(([, rule]) => rule));
      if (verdict.outcome !== 'refused') return;
      metrics.recordRateLimitRefusal('token', enabled[verdict.ruleIndex]?.[0] ?? 'ip');
      const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      throw new AppError('rate_limited', `Too many token requests; wait ${retryAfterSeconds} seconds before trying again.`, { retryAfterSeconds });
    },
  };
}

export type TokenLimiter = ReturnType<typeof createTokenLimiter>;
