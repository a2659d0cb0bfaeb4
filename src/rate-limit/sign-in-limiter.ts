import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { normalizeAccount } from '../domain/accounts.ts';
import { DIRECTORY_BIND_CAP, ONE_TIME_CODE_CAP } from '../domain/limits.ts';
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
   * in-process caller with no address, which only the per-account count sees.
   */
  ip: string | null;
  surface: SignInSurface;
  /**
   * Whether the browser carries a valid device cookie naming this account's person. Asked only when the
   * account's failures would slow the attempt, so an ordinary sign-in pays nothing for it.
   */
  fromKnownDevice?: (() => Promise<boolean>) | undefined;
}

export interface SignInLimiter {
  /**
   * Runs `verify` (the password check) under the limits. `verify` resolves to the signed-in
   * user, or null for a wrong password or unknown account, which counts as a failure. Throws
   * AppError('rate_limited', ..., {retryAfterSeconds}) without calling `verify` when the address
   * or the account+address is at its limit; waits (at most a few seconds) first when the account
   * as a whole is over its limit and the attempt comes from an address or device the person has not
   * signed in from before.
   */
  attempt<User>(attempt: SignInAttempt, verify: () => Promise<User | null>): Promise<User | null>;
  /**
   * Runs `verify` (a one-time code of the person `subjectId`, after their first proof) under the account's
   * cap (ONE_TIME_CODE_CAP): null counts as a wrong code; once the cap is reached, throws 429 rate_limited
   * without calling `verify`, whatever the code, until the window passes. Attempts in flight hold a place,
   * so parallel guesses cannot pass the cap either.
   */
  oneTimeCode<T>(attempt: { subjectId: string; surface: SignInSurface }, verify: () => Promise<T | null>): Promise<T | null>;
  /**
   * Runs `bind` (a password check against a directory) under the account's cap (DIRECTORY_BIND_CAP):
   * `failed(result)` says whether the directory refused the password. Past the cap, throws 429 rate_limited
   * without binding, unless the attempt comes from an address or a browser the person signed in from before,
   * so a stranger cannot trip the directory's own lockout.
   */
  directoryBind<T>(attempt: SignInAttempt, bind: () => Promise<T>, failed: (result: T) => boolean): Promise<T>;
}

/** For callers that are no door to the outside (the command line): every attempt runs, none is counted. */
export const unlimitedSignIns: SignInLimiter = {
  attempt: (_attempt, verify) => verify(),
  oneTimeCode: (_attempt, verify) => verify(),
  directoryBind: (_attempt, bind) => bind(),
};

/** The wait before an attempt on an account over its failure limit: doubling from the first, never above the last. */
export const ACCOUNT_SLOWDOWN_MS = { first: 250, max: 4_000 } as const;

/** How long an address stays "known" for a person after they signed in from it (renewed at each sign-in). */
export const KNOWN_ADDRESS_DAYS = 90;

// A hold outlives any password check; if its process dies, the hold lapses on its own.
const HOLD_MS = 30_000;
// Everything an attempt may wait, the account slowdown included, stays well under 10 s. Waiting for
// attempts in flight only happens when they could reach an address limit; they settle in milliseconds.
const MAX_WAIT_MS = 8_000;

/**
 * The slowdown for an attempt on an account that has failed `failures` times in the window: none
 * below `limit`, then 250 ms, 500 ms, 1 s, 2 s and 4 s from there on.
 */
export function accountSlowdownMs(failures: number, limit: number): number {
  if (limit <= 0 || failures < limit) return 0;
  const excess = Math.min(failures - limit, 16);
  return Math.min(ACCOUNT_SLOWDOWN_MS.max, ACCOUNT_SLOWDOWN_MS.first * 2 ** excess);
}

/**
 * Password sign-in limits. Failures per address and per account+address refuse (429) once at their
 * limit: an attempt holds a place before the password is checked, so 50 parallel wrong passwords
 * cannot slip past a limit of 5. Failures per account never refuse, since anyone can send wrong
 * passwords for anyone's account: beyond their limit they slow attempts down (ACCOUNT_SLOWDOWN_MS),
 * except from an address that signed in as that account before or a browser with that person's
 * device cookie. Only failures count, so correct sign-ins are never refused. A success clears the
 * account+address count (that person got it right) but not the address's or the account's.
 */
export function createSignInLimiter(deps: { store: RateLimitStore; limits: SignInLimits; key: (name: string, ...parts: string[]) => string; metrics: Metrics }): SignInLimiter {
  const { store, limits, key, metrics } = deps;
  const windowMs = limits.windowSeconds * 1000;
  const knownForMs = KNOWN_ADDRESS_DAYS * 86_400_000;

  function rulesFor(account: string, address: string | null) {
    const accountRule: LimitRule | null = limits.perAccount > 0 ? { key: key('signin-account', account), limit: limits.perAccount, windowMs } : null;
    const candidates: [RateLimitDimension, LimitRule][] = [];
    let accountIpKey: string | null = null;
    if (address !== null) {
      accountIpKey = key('signin-account-ip', account, address);
      candidates.push(['ip', { key: key('signin-ip', address), limit: limits.perIp, windowMs }], ['account_ip', { key: accountIpKey, limit: limits.perAccountIp, windowMs }]);
    }
    const enabled = candidates.filter(([, rule]) => rule.limit > 0);
    return { accountRule, refusing: enabled.map(([, rule]) => rule), dimensions: enabled.map(([dimension]) => dimension), accountIpKey };
  }

  async function slowdownMs(attempt: SignInAttempt, accountRule: LimitRule, knownAddressKey: string | null): Promise<number> {
    const delay = accountSlowdownMs(await store.peek(accountRule.key), accountRule.limit);
    if (delay === 0) return 0;
    if (knownAddressKey !== null && (await store.peek(knownAddressKey)) > 0) return 0;
    if (attempt.fromKnownDevice && (await attempt.fromKnownDevice())) return 0;
    return delay;
  }

  function refuse(attempt: { surface: SignInSurface }, dimension: RateLimitDimension, retryAfterMs: number, what = 'failed sign-in attempts'): never {
    metrics.recordRateLimitRefusal('sign_in', dimension);
    metrics.recordSignIn(attempt.surface, 'rate_limited');
    const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    throw new AppError('rate_limited', `Too many ${what}; wait ${retryAfterSeconds} seconds before trying again.`, { retryAfterSeconds });
  }

  /** Holds a place under `rule`; the refusal (or, after attempts in flight kept it busy too long, `null`) otherwise. */
  async function hold(rule: LimitRule, attemptId: string): Promise<{ retryAfterMs: number } | null> {
    const deadline = Date.now() + MAX_WAIT_MS;
    for (let pause = 2; ; pause = Math.min(pause * 2, 20)) {
      const verdict = await store.reserve([rule], attemptId, HOLD_MS);
      if (verdict.outcome === 'allowed') return null;
      if (verdict.outcome === 'refused') return { retryAfterMs: verdict.retryAfterMs };
      if (Date.now() >= deadline) return { retryAfterMs: 1000 };
      await sleep(pause + Math.random() * pause);
    }
  }

  async function isKnown(attempt: SignInAttempt, account: string): Promise<boolean> {
    if (attempt.ip !== null && (await store.peek(key('signin-known-address', account, addressKey(attempt.ip)))) > 0) return true;
    return attempt.fromKnownDevice ? attempt.fromKnownDevice() : false;
  }

  return {
    async attempt<User>(attempt: SignInAttempt, verify: () => Promise<User | null>): Promise<User | null> {
      const deadline = Date.now() + MAX_WAIT_MS;
      const account = normalizeAccount(attempt.account);
      const address = attempt.ip === null ? null : addressKey(attempt.ip);
      const knownAddressKey = address === null ? null : key('signin-known-address', account, address);
      const { accountRule, refusing, dimensions, accountIpKey } = rulesFor(account, address);

      if (accountRule) {
        const delay = await slowdownMs(attempt, accountRule, knownAddressKey);
        if (delay > 0) await sleep(delay);
      }

      const attemptId = randomUUID();
      for (let pause = 2; ; pause = Math.min(pause * 2, 20)) {
        const verdict = await store.reserve(refusing, attemptId, HOLD_MS);
        if (verdict.outcome === 'allowed') break;
        if (verdict.outcome === 'refused') refuse(attempt, dimensions[verdict.ruleIndex] ?? 'ip', verdict.retryAfterMs);
        if (Date.now() >= deadline) refuse(attempt, dimensions.at(-1) ?? 'ip', 1000);
        await sleep(pause + Math.random() * pause);
      }

      const settled = accountRule ? [...refusing, accountRule] : refusing;
      let user: User | null;
      try {
        user = await verify();
      } catch (error) {
        await store.settle(settled, attemptId, { failed: false, clearKeys: [] });
        metrics.recordSignIn(attempt.surface, 'error');
        throw error;
      }
      await store.settle(settled, attemptId, { failed: user === null, clearKeys: user === null || accountIpKey === null ? [] : [accountIpKey] });
      if (user !== null && knownAddressKey !== null) await store.remember(knownAddressKey, knownForMs);
      metrics.recordSignIn(attempt.surface, user === null ? 'failure' : 'success');
      return user;
    },

    async oneTimeCode<T>(attempt: { subjectId: string; surface: SignInSurface }, verify: () => Promise<T | null>): Promise<T | null> {
      const rule: LimitRule = { key: key('otp-account', attempt.subjectId), limit: ONE_TIME_CODE_CAP.failures, windowMs: ONE_TIME_CODE_CAP.windowSeconds * 1000 };
      const attemptId = randomUUID();
      const refused = await hold(rule, attemptId);
      if (refused) refuse(attempt, 'account', refused.retryAfterMs, 'wrong one-time codes for this account');
      let result: T | null;
      try {
        result = await verify();
      } catch (error) {
        await store.settle([rule], attemptId, { failed: false, clearKeys: [] });
        throw error;
      }
      await store.settle([rule], attemptId, { failed: result === null, clearKeys: [] });
      return result;
    },

    async directoryBind<T>(attempt: SignInAttempt, bind: () => Promise<T>, failed: (result: T) => boolean): Promise<T> {
      const account = normalizeAccount(attempt.account);
      const rule: LimitRule = { key: key('directory-bind', account), limit: DIRECTORY_BIND_CAP.failures, windowMs: DIRECTORY_BIND_CAP.windowSeconds * 1000 };
      const attemptId = randomUUID();
      const refused = await hold(rule, attemptId);
      if (refused) {
        if (!(await isKnown(attempt, account))) refuse(attempt, 'account', refused.retryAfterMs);
        // The person's own browser or address reaches the directory past the cap; its failures still count.
        const result = await bind();
        if (failed(result)) await store.record([rule]);
        return result;
      }
      let result: T;
      try {
        result = await bind();
      } catch (error) {
        await store.settle([rule], attemptId, { failed: false, clearKeys: [] });
        throw error;
      }
      await store.settle([rule], attemptId, { failed: failed(result), clearKeys: [] });
      return result;
    },
  };
}
