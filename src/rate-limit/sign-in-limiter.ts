import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { normalizeAccount } from '../domain/accounts.ts';
import { AppError } from '../errors.ts';
import type { Metrics, RateLimitDimension, SignInSurface } from '../ops/metrics.ts';
import { addressKey } from './address-key.ts';
import type { LimitRule, RateLimitStore } from './rate-limit-store.ts';

export interface SignInLimits {
  perAccount: number;
  perIp: number;
  perAccountIp: number;
  windowSeconds: number;
}

export interface SignInAttempt {
  account: string;
  /**
   * The caller's address as Fastify resolved it (`request.ip`, which honours TRUST_PROXY); null for an
   * in-process caller with no address, which only the per-account limit counts.
   */
  ip: string | null;
  surface: SignInSurface;
}

export interface SignInLimiter {
  /**
   * Runs `verify` (the password check) under the limits. `verify` resolves to the signed-in
   * user, or null for a wrong password or unknown account, which counts as a failure. Throws
   * AppError('rate_limited', ..., {retryAfterSeconds}) without calling `verify` when refused.
   */
  attempt<User>(attempt: SignInAttempt, verify: () => Promise<User | null>): Promise<User | null>;
}

/** For callers that are no door to the outside (the command line): every attempt runs, none is counted. */
export const unlimitedSignIns: SignInLimiter = { attempt: (_attempt, verify) => verify() };

// A hold outlives any password check; if its process dies, the hold lapses on its own.
const HOLD_MS = 30_000;
// Waiting only happens when attempts in flight could reach a limit; then they settle in milliseconds.
const MAX_WAIT_MS = 10_000;

/**
 * Password sign-in limits: failures per account, per IP and per account+IP. An attempt holds
 * a place before the password is checked, so 50 parallel wrong passwords cannot slip past a
 * limit of 5; only failures count, so correct sign-ins are never refused. A success clears the
 * account+IP count (that person got it right) but not the IP's or the account's.
 */
export function createSignInLimiter(deps: { store: RateLimitStore; limits: SignInLimits; key: (name: string, ...parts: string[]) => string; metrics: Metrics }): SignInLimiter {
  const { store, limits, key, metrics } = deps;
  const windowMs = limits.windowSeconds * 1000;

  function rulesFor(attempt: SignInAttempt): { rules: LimitRule[]; dimensions: RateLimitDimension[]; accountIpKey: string | null } {
    const account = normalizeAccount(attempt.account);
    const candidates: [RateLimitDimension, LimitRule][] = [['account', { key: key('signin-account', account), limit: limits.perAccount, windowMs }]];
    let accountIpKey: string | null = null;
    if (attempt.ip !== null) {
      const address = addressKey(attempt.ip);
      accountIpKey = key('signin-account-ip', account, address);
      candidates.push(['ip', { key: key('signin-ip', address), limit: limits.perIp, windowMs }], ['account_ip', { key: accountIpKey, limit: limits.perAccountIp, windowMs }]);
    }
    const enabled = candidates.filter(([, rule]) => rule.limit > 0);
    return { rules: enabled.map(([, rule]) => rule), dimensions: enabled.map(([dimension]) => dimension), accountIpKey };
  }

  function refuse(attempt: SignInAttempt, dimension: RateLimitDimension, retryAfterMs: number): never {
    metrics.recordRateLimitRefusal('sign_in', dimension);
    metrics.recordSignIn(attempt.surface, 'rate_limited');
    const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    throw new AppError('rate_limited', `Too many failed sign-in attempts; wait ${retryAfterSeconds} seconds before trying again.`, { retryAfterSeconds });
  }

  return {
    async attempt<User>(attempt: SignInAttempt, verify: () => Promise<User | null>): Promise<User | null> {
      const { rules, dimensions, accountIpKey } = rulesFor(attempt);
      const attemptId = randomUUID();
      const deadline = Date.now() + MAX_WAIT_MS;
      for (let pause = 2; ; pause = Math.min(pause * 2, 20)) {
        const verdict = await store.reserve(rules, attemptId, HOLD_MS);
        if (verdict.outcome === 'allowed') break;
        if (verdict.outcome === 'refused') refuse(attempt, dimensions[verdict.ruleIndex] ?? 'account', verdict.retryAfterMs);
        if (Date.now() >= deadline) refuse(attempt, 'account', 1000);
        await sleep(pause + Math.random() * pause);
      }

      let user: User | null;
      try {
        user = await verify();
      } catch (error) {
        await store.settle(rules, attemptId, { failed: false, clearKeys: [] });
        metrics.recordSignIn(attempt.surface, 'error');
        throw error;
      }
      await store.settle(rules, attemptId, { failed: user === null, clearKeys: user === null || accountIpKey === null ? [] : [accountIpKey] });
      metrics.recordSignIn(attempt.surface, user === null ? 'failure' : 'success');
      return user;
    },
  };
}

