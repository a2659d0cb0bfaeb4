import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { AppError } from '../../src/errors.ts';
import { createMetrics } from '../../src/ops/metrics.ts';
import { createRateLimits, type RateLimits } from '../../src/rate-limit/rate-limits.ts';
import { ACCOUNT_SLOWDOWN_MS, accountSlowdownMs } from '../../src/rate-limit/sign-in-limiter.ts';
import { redisReachable, TEST_REDIS_URL } from './helpers/redis.ts';

const redisUp = await redisReachable();
const opened: RateLimits[] = [];
afterAll(async () => {
  await Promise.all(opened.map((limits) => limits.close()));
});

const quietLog = { warn: () => {}, info: () => {} };

function limitsFor(store: 'memory' | 'redis', env: Record<string, string> = {}, issuer = 'https://id.example.test') {
  const config = loadConfig({ NODE_ENV: 'test', OIDC_ISSUER: issuer, ...(store === 'redis' ? { REDIS_URL: TEST_REDIS_URL } : {}), ...env });
  const metrics = createMetrics();
  const limits = createRateLimits(config, { metrics, log: quietLog });
  opened.push(limits);
  return { limits, metrics };
}

/** A password check that takes a little while, as argon2 does, so attempts truly overlap. */
const slowCheck = <T>(result: T, ms = 20) => async () => {
  await sleep(ms);
  return result;
};

async function refusal(promise: Promise<unknown>): Promise<AppError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

const user = { subjectId: 'sub-1' };

describe.each([
  { store: 'memory' as const, available: true },
  { store: 'redis' as const, available: redisUp },
])('sign-in limiter over $store', ({ store, available }) => {
  const test = it.skipIf(!available);

  test('50 parallel wrong passwords for one account from one address are held to the limit, with Retry-After', async () => {
    const { limits, metrics } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '5' });
    const account = `victim-${randomUUID()}`;
    let checked = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () =>
        refusal(
          limits.signIn.attempt({ account, ip: '198.51.100.1', surface: 'agent' }, async () => {
            checked += 1;
            return slowCheck(null)();
          }),
        ),
      ),
    );
    expect(checked).toBe(5);
    const refused = outcomes.filter((error) => error !== undefined);
    expect(refused).toHaveLength(45);
    for (const error of refused) {
      expect(error.code).toBe('rate_limited');
      expect(error.status).toBe(429);
      expect(error.retryAfterSeconds).toBeGreaterThan(800);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(900);
    }
    expect(metrics.signInCount('agent', 'failure')).toBe(5);
    expect(metrics.signInCount('agent', 'rate_limited')).toBe(45);
    expect(metrics.refusalCount('sign_in', 'account_ip')).toBe(45);
  });

  test('a stranger\'s 50 wrong passwords from 50 addresses refuse nobody: the owner\'s known address and device are not slowed, an unknown address is slowed under 10 s', async () => {
    const { limits, metrics } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '10' });
    const account = `owner-${randomUUID()}`;
    const home = '192.0.2.50';
    expect(await limits.signIn.attempt({ account, ip: home, surface: 'login_page' }, slowCheck(user, 0))).toBe(user);

    let checked = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        refusal(
          limits.signIn.attempt({ account, ip: `198.51.100.${i + 1}`, surface: 'agent' }, async () => {
            checked += 1;
            return slowCheck(null)();
          }),
        ),
      ),
    );
    expect(outcomes.filter((error) => error !== undefined)).toEqual([]);
    expect(checked).toBe(50);

    const timed = async (attempt: Parameters<typeof limits.signIn.attempt>[0]) => {
      const started = performance.now();
      const result = await limits.signIn.attempt(attempt, slowCheck(user, 0));
      return { result, ms: performance.now() - started };
    };
    const fromHome = await timed({ account, ip: home, surface: 'login_page' });
    expect(fromHome.result).toBe(user);
    expect(fromHome.ms).toBeLessThan(ACCOUNT_SLOWDOWN_MS.first);

    let deviceAsked = 0;
    const withDevice = await timed({ account, ip: '203.0.113.80', surface: 'login_page', fromKnownDevice: async () => (deviceAsked += 1) > 0 });
    expect(withDevice.result).toBe(user);
    expect(withDevice.ms).toBeLessThan(ACCOUNT_SLOWDOWN_MS.first);
    expect(deviceAsked).toBe(1);

    const stranger = await timed({ account, ip: '203.0.113.81', surface: 'agent', fromKnownDevice: async () => false });
    expect(stranger.result).toBe(user);
    expect(stranger.ms).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.max - 50);
    expect(stranger.ms).toBeLessThan(10_000);
    expect(metrics.signInCount('agent', 'rate_limited') + metrics.signInCount('login_page', 'rate_limited')).toBe(0);
  });

  test('a correct sign-in makes its address known to that account only', async () => {
    const { limits } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '1' });
    const [known, other] = [`known-${randomUUID()}`, `other-${randomUUID()}`];
    const office = '192.0.2.60';
    await limits.signIn.attempt({ account: known, ip: office, surface: 'agent' }, slowCheck(user, 0));
    for (const account of [known, other]) await limits.signIn.attempt({ account, ip: '198.51.100.60', surface: 'agent' }, slowCheck(null, 0));
    const started = performance.now();
    await limits.signIn.attempt({ account: known, ip: office, surface: 'agent' }, slowCheck(user, 0));
    expect(performance.now() - started).toBeLessThan(ACCOUNT_SLOWDOWN_MS.first);
    const slowed = performance.now();
    await limits.signIn.attempt({ account: other, ip: office, surface: 'agent' }, slowCheck(user, 0));
    expect(performance.now() - slowed).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.first - 20);
  });

  test('account names differing only in case share one count', async () => {
    const { limits } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '2' });
    const account = `Mixed-${randomUUID()}`;
    await limits.signIn.attempt({ account, ip: '198.51.100.1', surface: 'agent' }, slowCheck(null, 0));
    await limits.signIn.attempt({ account: account.toUpperCase(), ip: '198.51.100.1', surface: 'agent' }, slowCheck(null, 0));
    const error = await refusal(limits.signIn.attempt({ account: account.toLowerCase(), ip: '198.51.100.1', surface: 'agent' }, slowCheck(null, 0)));
    expect(error?.code).toBe('rate_limited');

    const { limits: perAccount } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '2' });
    await perAccount.signIn.attempt({ account, ip: '198.51.100.1', surface: 'agent' }, slowCheck(null, 0));
    await perAccount.signIn.attempt({ account: account.toUpperCase(), ip: '198.51.100.2', surface: 'agent' }, slowCheck(null, 0));
    const started = performance.now();
    expect(await perAccount.signIn.attempt({ account: account.toLowerCase(), ip: '198.51.100.3', surface: 'agent' }, slowCheck(null, 0))).toBeNull();
    expect(performance.now() - started).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.first - 20);
  });

  test('correct sign-ins are never refused, however many and however parallel', async () => {
    const { limits, metrics } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '3', SIGNIN_MAX_FAILURES_PER_IP: '3', SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '2' });
    const account = `bench-${randomUUID()}`;
    for (let round = 0; round < 4; round += 1) {
      const results = await Promise.all(Array.from({ length: 25 }, () => limits.signIn.attempt({ account, ip: '127.0.0.1', surface: 'management' }, slowCheck(user, 5))));
      expect(results.every((result) => result === user)).toBe(true);
    }
    expect(metrics.signInCount('management', 'success')).toBe(100);
    expect(metrics.signInCount('management', 'rate_limited')).toBe(0);
  });

  test('a success does not reset the per-IP failure count', async () => {
    const { limits } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_IP: '3' });
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
    await limits.signIn.attempt({ account: `a-${randomUUID()}`, ip, surface: 'login_page' }, slowCheck(null, 0));
    await limits.signIn.attempt({ account: `b-${randomUUID()}`, ip, surface: 'login_page' }, slowCheck(null, 0));
    expect(await limits.signIn.attempt({ account: `c-${randomUUID()}`, ip, surface: 'login_page' }, slowCheck(user, 0))).toBe(user);
    await limits.signIn.attempt({ account: `d-${randomUUID()}`, ip, surface: 'login_page' }, slowCheck(null, 0));
    const error = await refusal(limits.signIn.attempt({ account: `e-${randomUUID()}`, ip, surface: 'login_page' }, slowCheck(user, 0)));
    expect(error?.code).toBe('rate_limited');
  });

  test('a success resets the account+IP count, but not the account count', async () => {
    const { limits } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '2', SIGNIN_MAX_FAILURES_PER_ACCOUNT: '4' });
    const account = `typo-${randomUUID()}`;
    const here = { account, ip: '192.0.2.10', surface: 'agent' as const };
    await limits.signIn.attempt(here, slowCheck(null, 0));
    expect(await limits.signIn.attempt(here, slowCheck(user, 0))).toBe(user);
    await limits.signIn.attempt(here, slowCheck(null, 0));
    await limits.signIn.attempt(here, slowCheck(null, 0));
    // account+IP is at 2 now (reset by the success), so this one is refused by it...
    expect((await refusal(limits.signIn.attempt(here, slowCheck(user, 0))))?.code).toBe('rate_limited');
    // ...while the account as a whole keeps its 3 failures: one more from elsewhere reaches its limit,
    // and the next attempt from an address it never signed in from is slowed, not refused.
    await limits.signIn.attempt({ ...here, ip: '192.0.2.11' }, slowCheck(null, 0));
    const started = performance.now();
    expect(await limits.signIn.attempt({ ...here, ip: '192.0.2.12' }, slowCheck(user, 0))).toBe(user);
    expect(performance.now() - started).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.first - 20);
  });

  test('a check that throws (database down) counts as nothing', async () => {
    const { limits, metrics } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '1' });
    const account = `flaky-${randomUUID()}`;
    for (let i = 0; i < 3; i += 1) {
      await expect(limits.signIn.attempt({ account, ip: '192.0.2.20', surface: 'agent' }, () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    }
    expect(await limits.signIn.attempt({ account, ip: '192.0.2.20', surface: 'agent' }, slowCheck(user, 0))).toBe(user);
    expect(metrics.signInCount('agent', 'error')).toBe(3);
  });

  test('an attempt with no address (an in-process caller) counts toward its account only, which slows and never refuses', async () => {
    const { limits, metrics } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '2', SIGNIN_MAX_FAILURES_PER_IP: '1', SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '1' });
    const account = `no-address-${randomUUID()}`;
    expect(await limits.signIn.attempt({ account, ip: null, surface: 'management' }, slowCheck(null, 0))).toBeNull();
    expect(await limits.signIn.attempt({ account, ip: null, surface: 'management' }, slowCheck(null, 0))).toBeNull();
    const started = performance.now();
    expect(await limits.signIn.attempt({ account, ip: null, surface: 'management' }, slowCheck(user, 0))).toBe(user);
    expect(performance.now() - started).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.first - 20);
    expect(metrics.signInCount('management', 'rate_limited')).toBe(0);
    const fresh = performance.now();
    expect(await limits.signIn.attempt({ account: `other-${randomUUID()}`, ip: null, surface: 'management' }, slowCheck(user, 0))).toBe(user);
    expect(performance.now() - fresh).toBeLessThan(ACCOUNT_SLOWDOWN_MS.first);
  });

  test('a limit set to 0 is off', async () => {
    const { limits } = limitsFor(store, { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '0', SIGNIN_MAX_FAILURES_PER_IP: '0', SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '0' });
    const account = `open-${randomUUID()}`;
    for (let i = 0; i < 20; i += 1) expect(await limits.signIn.attempt({ account, ip: '192.0.2.30', surface: 'agent' }, slowCheck(null, 0))).toBeNull();
  });

  test('token requests: every one counts per IP; a client counts only tokens issued to it', async () => {
    const { limits, metrics } = limitsFor(store, { TOKEN_RATE_PER_CLIENT: '3', TOKEN_RATE_PER_IP: '5' });
    const client = `cli_${randomUUID()}`;
    // Anyone may claim a client_id: requests that issue nothing do not use up the client's allowance.
    for (let i = 0; i < 4; i += 1) await limits.token.admit({ clientId: client, ip: `attacker-${randomUUID()}` });
    for (let i = 0; i < 3; i += 1) {
      await limits.token.admit({ clientId: client, ip: `rp-${i}-${randomUUID()}` });
      await limits.token.recordIssued({ clientId: client, grantType: 'authorization_code' });
    }
    const byClient = await refusal(limits.token.admit({ clientId: client, ip: `rp-${randomUUID()}` }));
    expect(byClient).toMatchObject({ code: 'rate_limited' });
    expect(byClient?.retryAfterSeconds).toBeGreaterThan(0);
    expect(byClient?.retryAfterSeconds).toBeLessThanOrEqual(60);

    const ip = `192.0.2.${randomUUID()}`;
    for (let i = 0; i < 5; i += 1) await limits.token.admit({ clientId: i % 2 === 0 ? undefined : `cli_${randomUUID()}`, ip });
    const byIp = await refusal(limits.token.admit({ clientId: undefined, ip }));
    expect(byIp?.code).toBe('rate_limited');
    expect(metrics.refusalCount('token', 'client')).toBe(1);
    expect(metrics.refusalCount('token', 'ip')).toBe(1);
  });

  test('50 parallel token requests from one IP are held exactly to the limit', async () => {
    const { limits } = limitsFor(store, { TOKEN_RATE_PER_IP: '10' });
    const ip = `198.51.100.${randomUUID()}`;
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => refusal(limits.token.admit({ clientId: undefined, ip }))));
    expect(outcomes.filter((error) => error === undefined)).toHaveLength(10);
    expect(outcomes.filter((error) => error?.code === 'rate_limited')).toHaveLength(40);
  });
});

describe.skipIf(!redisUp)('sign-in limiter: two instances sharing Redis', () => {
  it('share the failure count: parallel wrong passwords through both are held to one limit', async () => {
    const issuer = `https://shared-${randomUUID()}.example.test`;
    const first = limitsFor('redis', { SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '6' }, issuer).limits;
    const second = limitsFor('redis', { SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '6' }, issuer).limits;
    expect(first.shared && second.shared).toBe(true);
    const account = `shared-${randomUUID()}`;
    let checked = 0;
    const check = async () => {
      checked += 1;
      return slowCheck(null)();
    };
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => refusal((i % 2 === 0 ? first : second).signIn.attempt({ account, ip: '198.51.100.1', surface: 'agent' }, check))),
    );
    expect(checked).toBe(6);
    expect(outcomes.filter((error) => error?.code === 'rate_limited')).toHaveLength(34);
  });

  it('share the account count and the known addresses: one instance slows what the other saw fail, and spares what it saw sign in', async () => {
    const issuer = `https://shared-${randomUUID()}.example.test`;
    const first = limitsFor('redis', { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '2' }, issuer).limits;
    const second = limitsFor('redis', { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '2' }, issuer).limits;
    const account = `shared-known-${randomUUID()}`;
    await first.signIn.attempt({ account, ip: '192.0.2.70', surface: 'login_page' }, slowCheck(user, 0));
    for (let i = 0; i < 2; i += 1) await first.signIn.attempt({ account, ip: `198.51.100.${70 + i}`, surface: 'agent' }, slowCheck(null, 0));
    const known = performance.now();
    expect(await second.signIn.attempt({ account, ip: '192.0.2.70', surface: 'agent' }, slowCheck(user, 0))).toBe(user);
    expect(performance.now() - known).toBeLessThan(ACCOUNT_SLOWDOWN_MS.first);
    const unknown = performance.now();
    expect(await second.signIn.attempt({ account, ip: '192.0.2.71', surface: 'agent' }, slowCheck(user, 0))).toBe(user);
    expect(performance.now() - unknown).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.first - 20);
  });

  it('keeps deployments with different issuers apart on one Redis', async () => {
    const account = `tenant-${randomUUID()}`;
    const first = limitsFor('redis', { SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '1' }, `https://a-${randomUUID()}.example.test`).limits;
    const second = limitsFor('redis', { SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '1' }, `https://b-${randomUUID()}.example.test`).limits;
    await first.signIn.attempt({ account, ip: '192.0.2.1', surface: 'agent' }, slowCheck(null, 0));
    expect((await refusal(first.signIn.attempt({ account, ip: '192.0.2.1', surface: 'agent' }, slowCheck(user, 0))))?.code).toBe('rate_limited');
    expect(await second.signIn.attempt({ account, ip: '192.0.2.1', surface: 'agent' }, slowCheck(user, 0))).toBe(user);
  });
});

describe('sign-in limiter with REDIS_URL pointing at nothing', () => {
  it('still limits, counting in this instance', async () => {
    const config = loadConfig({ NODE_ENV: 'test', REDIS_URL: 'redis://127.0.0.1:1', SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '2' });
    const warnings: string[] = [];
    const limits = createRateLimits(config, { metrics: createMetrics(), log: { warn: (_details, message) => warnings.push(message), info: () => {} } });
    opened.push(limits);
    const account = `fallback-${randomUUID()}`;
    await limits.signIn.attempt({ account, ip: '192.0.2.1', surface: 'agent' }, slowCheck(null, 0));
    await limits.signIn.attempt({ account, ip: '192.0.2.1', surface: 'agent' }, slowCheck(null, 0));
    expect((await refusal(limits.signIn.attempt({ account, ip: '192.0.2.1', surface: 'agent' }, slowCheck(user, 0))))?.code).toBe('rate_limited');
    expect(warnings.some((message) => message.includes('Redis'))).toBe(true);
  });
});

describe('the per-account slowdown', () => {
  it('starts at the limit, doubles with each further failure and stops at 4 s, whatever the count', () => {
    expect([0, 9].map((failures) => accountSlowdownMs(failures, 10))).toEqual([0, 0]);
    expect([10, 11, 12, 13, 14, 15, 50, 1e9].map((failures) => accountSlowdownMs(failures, 10))).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000, 4000]);
    expect(accountSlowdownMs(1000, 0)).toBe(0);
    expect(ACCOUNT_SLOWDOWN_MS.max).toBeLessThan(10_000);
  });
});

describe('sign-in limiter and IPv6', () => {
  it('counts addresses of one /64 as one address', async () => {
    const { limits } = limitsFor('memory', { SIGNIN_MAX_FAILURES_PER_IP: '3' });
    for (let i = 1; i <= 3; i += 1) await limits.signIn.attempt({ account: `v6-${randomUUID()}`, ip: `2001:db8:5:6::${i}`, surface: 'agent' }, slowCheck(null, 0));
    expect((await refusal(limits.signIn.attempt({ account: `v6-${randomUUID()}`, ip: '2001:db8:5:6:ffff::9', surface: 'agent' }, slowCheck(user, 0))))?.code).toBe('rate_limited');
    expect(await limits.signIn.attempt({ account: `v6-${randomUUID()}`, ip: '2001:db8:5:7::1', surface: 'agent' }, slowCheck(user, 0))).toBe(user);
  });
});
