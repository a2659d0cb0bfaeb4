import { AppError } from '../errors.ts';
import type { Metrics, RateLimitDimension } from '../ops/metrics.ts';
import { addressKey } from './address-key.ts';
import type { LimitRule, RateLimitStore, Verdict } from './rate-limit-store.ts';

export interface TokenLimits {
  /** Failed client authentications (invalid_client) from one address per failure window. */
  failedAuthPerIp: number;
  /** Refused token requests of any kind (invalid_grant, invalid_request, ...) from one address. */
  failuresPerIp: number;
  /** invalid_grant answers to one client that authenticated. */
  invalidGrantsPerClient: number;
  failureWindowSeconds: number;
  /** Optional ceiling: tokens issued to one client per window (0: off, the default). */
  perClient: number;
  /** Optional ceiling: every /token request from one address per window (0: off, the default). */
  perIp: number;
  windowSeconds: number;
}

/** A token request the endpoint refused, as the limits see it. */
export interface TokenFailure {
  /** The OAuth error it answered: invalid_client, invalid_grant, invalid_request, ... */
  error: string;
  ip: string;
  /** The client, when it authenticated (a confidential client whose credentials were right); else undefined. */
  authenticatedClientId: string | undefined;
}

type Rules = [RateLimitDimension, LimitRule][];

/**
 * Token endpoint limits. They count what signals abuse, never a token issued: a healthy relying party,
 * however busy, is not held back. Failed client authentications and refused requests count per address;
 * invalid_grant answers to an authenticated client count per client too (someone holding its secret and
 * replaying codes, or a broken back end). A request is checked against the counts before it is handled;
 * a failure is counted when it happens, atomically, so parallel failures cannot slip past a limit: the
 * failure that finds its count full is answered 429 instead. Nothing is counted against a client on behalf
 * of an unauthenticated request, so knowing a client_id does not let anyone lock its users out.
 */
export function createTokenLimiter(deps: { store: RateLimitStore; limits: TokenLimits; key: (name: string, ...parts: string[]) => string; metrics: Metrics }) {
  const { store, limits, key, metrics } = deps;
  const windowMs = limits.windowSeconds * 1000;
  const failureWindowMs = limits.failureWindowSeconds * 1000;
  const enabled = (rules: Rules): Rules => rules.filter(([, rule]) => rule.limit > 0);
  const failedAuthRule = (ip: string): LimitRule => ({ key: key('token-failed-auth-ip', addressKey(ip)), limit: limits.failedAuthPerIp, windowMs: failureWindowMs });
  const failuresRule = (ip: string): LimitRule => ({ key: key('token-failures-ip', addressKey(ip)), limit: limits.failuresPerIp, windowMs: failureWindowMs });
  const invalidGrantsRule = (clientId: string): LimitRule => ({ key: key('token-invalid-grants-client', clientId), limit: limits.invalidGrantsPerClient, windowMs: failureWindowMs });
  const requestsRule = (ip: string): LimitRule => ({ key: key('token-ip', addressKey(ip)), limit: limits.perIp, windowMs });
  const issuedRule = (clientId: string): LimitRule => ({ key: key('token-client', clientId), limit: limits.perClient, windowMs });

  function refusal(verdict: Verdict, rules: Rules): AppError | undefined {
    if (verdict.outcome !== 'refused') return undefined;
    metrics.recordRateLimitRefusal('token', rules[verdict.ruleIndex]?.[0] ?? 'ip');
    const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
    return new AppError('rate_limited', `Too many failed or excessive token requests; wait ${retryAfterSeconds} seconds before trying again.`, { retryAfterSeconds });
  }

  return {
    /**
     * Call before the token endpoint handles a request. `clientId` is the one the request claims (the
     * Basic user name), not yet authenticated, or undefined. Throws AppError('rate_limited', ...,
     * {retryAfterSeconds}) when a count for its address or that client is full.
     */
    async admit(request: { clientId: string | undefined; ip: string }): Promise<void> {
      const counted = enabled([['ip', requestsRule(request.ip)]]);
      const checked = enabled([
        ['ip', failedAuthRule(request.ip)],
        ['ip', failuresRule(request.ip)],
        ...(request.clientId === undefined ? [] : ([['client', invalidGrantsRule(request.clientId)], ['client', issuedRule(request.clientId)]] as Rules)),
      ]);
      if (counted.length + checked.length === 0) return;
      const verdict = await store.consume(
        counted.map(([, rule]) => rule),
        checked.map(([, rule]) => rule),
      );
      const refused = refusal(verdict, [...counted, ...checked]);
      if (refused) throw refused;
    },

    /**
     * Call when the token endpoint refused a request. Counts it; returns the 429 to answer instead when
     * one of its counts was already full (it was one failure too many), else undefined.
     */
    async recordFailure(failure: TokenFailure): Promise<AppError | undefined> {
      const rules = enabled([
        ['ip', failuresRule(failure.ip)],
        ...(failure.error === 'invalid_client' ? ([['ip', failedAuthRule(failure.ip)]] as Rules) : []),
        ...(failure.error === 'invalid_grant' && failure.authenticatedClientId !== undefined ? ([['client', invalidGrantsRule(failure.authenticatedClientId)]] as Rules) : []),
      ]);
      if (rules.length === 0) return undefined;
      return refusal(await store.consume(rules.map(([, rule]) => rule)), rules);
    },

    /** Call when the token endpoint issued tokens to an authenticated client; also counts the grant type. */
    async recordIssued(grant: { clientId: string; grantType: string }): Promise<void> {
      metrics.recordTokenIssued(grant.grantType);
      if (limits.perClient > 0) await store.record([issuedRule(grant.clientId)]);
    },
  };
}

export type TokenLimiter = ReturnType<typeof createTokenLimiter>;
