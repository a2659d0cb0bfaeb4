import { AppError } from '../errors.ts';
import type { Metrics, RateLimitDimension } from '../ops/metrics.ts';
import { addressKey } from './address-key.ts';
import type { LimitRule, RateLimitStore } from './rate-limit-store.ts';

export interface TokenLimits {
  perClient: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * Token endpoint limits. Every request counts against its IP. A client's count grows only when
 * tokens are issued to it (after it authenticated), and is checked on each request that names
 * it: counting unauthenticated requests per client would let anyone who knows a client_id
 * exhaust that client's allowance and lock its users out.
 */
export function createTokenLimiter(deps: { store: RateLimitStore; limits: TokenLimits; key: (name: string, ...parts: string[]) => string; metrics: Metrics }) {
  const { store, limits, key, metrics } = deps;
  const windowMs = limits.windowSeconds * 1000;
  const ipRule = (ip: string): LimitRule => ({ key: key('token-ip', addressKey(ip)), limit: limits.perIp, windowMs });
  const clientRule = (clientId: string): LimitRule => ({ key: key('token-client', clientId), limit: limits.perClient, windowMs });

  return {
    /**
     * Call before the token endpoint handles a request. `clientId` is the one the request claims
     * (the Basic user name), not yet authenticated, or undefined. Throws
     * AppError('rate_limited', ..., {retryAfterSeconds}) when the IP or the client is at its limit.
     */
    async admit(request: { clientId: string | undefined; ip: string }): Promise<void> {
      const counted: [RateLimitDimension, LimitRule][] = limits.perIp > 0 ? [['ip', ipRule(request.ip)]] : [];
      const checked: [RateLimitDimension, LimitRule][] = request.clientId !== undefined && limits.perClient > 0 ? [['client', clientRule(request.clientId)]] : [];
      const verdict = await store.consume(
        counted.map(([, rule]) => rule),
        checked.map(([, rule]) => rule),
      );
      if (verdict.outcome !== 'refused') return;
      metrics.recordRateLimitRefusal('token', [...counted, ...checked][verdict.ruleIndex]?.[0] ?? 'ip');
      const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      throw new AppError('rate_limited', `Too many token requests; wait ${retryAfterSeconds} seconds before trying again.`, { retryAfterSeconds });
    },

    /** Call when the token endpoint issued tokens to an authenticated client; also counts the grant type. */
    async recordIssued(grant: { clientId: string; grantType: string }): Promise<void> {
      metrics.recordTokenIssued(grant.grantType);
      if (limits.perClient > 0) await store.record([clientRule(grant.clientId)]);
    },
  };
}

export type TokenLimiter = ReturnType<typeof createTokenLimiter>;
