import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { ACCOUNT_SLOWDOWN_MS } from '../../src/rate-limit/sign-in-limiter.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { redisReachable, TEST_REDIS_URL } from './helpers/redis.ts';

const PASSWORD = 'limits-test-password-1';
const redisUp = await redisReachable();

async function agentLogin(ctx: TestContext, account: string, password: string, remoteAddress = '127.0.0.1') {
  return ctx.app.inject({ method: 'POST', url: '/api/agent/auth/login', payload: { account, password }, remoteAddress });
}

describe.each(TEST_ENGINES)('sign-in limits on the APIs on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { SIGNIN_MAX_FAILURES_PER_ACCOUNT: '5', SIGNIN_MAX_FAILURES_PER_IP: '40', SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '0' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('50 parallel wrong passwords for one account from 50 addresses are all answered 401; the right password from a new address is slowed, not refused', async () => {
    await ctx.services.users.createUser(systemActor, { account: 'target', displayName: 'Target', password: PASSWORD });
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => agentLogin(ctx, 'target', `wrong-password-${i}`, `198.51.100.${i + 1}`)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(401));
    for (const response of responses) expect(response.headers['cache-control']).toBe('no-store');
    // Anyone can send wrong passwords for anyone's account: the account's count slows, it does not lock.
    const started = performance.now();
    const right = await agentLogin(ctx, 'target', PASSWORD, '198.51.100.200');
    expect(right.statusCode).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.max - 50);

    const metrics = (await ctx.app.inject({ url: '/metrics' })).body;
    expect(metrics).toContain('sesame_sign_in_attempts_total{surface="agent",outcome="failure"} 50');
    expect(metrics).not.toMatch(/sesame_sign_in_attempts_total\{surface="agent",outcome="rate_limited"\} [1-9]/);
    expect(metrics).not.toMatch(/sesame_rate_limit_refusals_total\{operation="sign_in",limit="account"\} [1-9]/);
  });

  it('an unknown account is slowed like a known one, with the same answers', async () => {
    const responses = [];
    for (let i = 0; i < 6; i += 1) {
      const started = performance.now();
      const response = await agentLogin(ctx, `nobody-${engine}`, 'wrong-password', `203.0.113.${i + 1}`);
      responses.push({ status: response.statusCode, error: response.json().error, ms: performance.now() - started });
    }
    expect(responses.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(responses[0]?.error).toBe('invalid_credentials');
    expect(responses[5]?.ms).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.first - 20);
  });

  it('correct sign-ins are never throttled, many and in parallel', async () => {
    await ctx.services.users.createUser(systemActor, { account: 'busy', displayName: 'Busy', password: PASSWORD });
    for (let round = 0; round < 3; round += 1) {
      const responses = await Promise.all(Array.from({ length: 20 }, () => agentLogin(ctx, 'busy', PASSWORD)));
      expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    }
  });

  it('a success does not reset the per-IP failure count', async () => {
    const ip = '192.0.2.77';
    for (let i = 0; i < 39; i += 1) expect((await agentLogin(ctx, `spray-${i}`, 'wrong-password', ip)).statusCode).toBe(401);
    expect((await agentLogin(ctx, 'busy', PASSWORD, ip)).statusCode).toBe(200);
    expect((await agentLogin(ctx, 'spray-last', 'wrong-password', ip)).statusCode).toBe(401);
    const refused = await agentLogin(ctx, 'busy', PASSWORD, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it('the management login counts toward the same account and is slowed the same way', async () => {
    const context = await ctx.app.inject({ url: '/api/management/auth/context' });
    const csrf = context.json().csrfToken as string;
    const cookie = (context.headers['set-cookie'] as string | string[] | undefined) ?? [];
    const cookieHeader = (Array.isArray(cookie) ? cookie : [cookie]).map((c) => c.split(';')[0]).join('; ');
    const attempts = [];
    for (let i = 0; i < 6; i += 1) {
      const started = performance.now();
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/management/auth/login',
        headers: { 'x-csrf-token': csrf, cookie: cookieHeader },
        payload: { account: 'console-target', password: 'wrong-password' },
        remoteAddress: `203.0.113.${100 + i}`,
      });
      attempts.push({ status: response.statusCode, ms: performance.now() - started });
    }
    expect(attempts.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(attempts[5]?.ms).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.first - 20);
  });
});

describe.skipIf(!redisUp)('sign-in limits across two instances sharing Redis and one database', () => {
  let first: TestContext;
  let second: TestContext;
  beforeAll(async () => {
    const engine = TEST_ENGINES.includes('postgres') ? 'postgres' : 'sqlite';
    // A per-run issuer keeps these counters apart from other runs on the same Redis.
    const env = { REDIS_URL: TEST_REDIS_URL, OIDC_ISSUER: `http://localhost:3000/${randomUUID()}`, SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '6' };
    first = await createTestContext(engine, env);
    second = await createTestContext(engine, env, { connectThrough: () => first.databaseUrl });
    await first.services.users.createUser(systemActor, { account: 'shared', displayName: 'Shared', password: PASSWORD });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('parallel wrong passwords through both instances are held to one limit', async () => {
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => agentLogin(i % 2 === 0 ? first : second, 'shared', `wrong-${i}`, '198.51.100.1')));
    expect(responses.filter((r) => r.statusCode === 401)).toHaveLength(6);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(34);
  });

  it('a user created through one instance signs in through the other at once', async () => {
    await first.services.users.createUser(systemActor, { account: 'fresh', displayName: 'Fresh', password: PASSWORD });
    expect((await agentLogin(second, 'fresh', PASSWORD)).statusCode).toBe(200);
  });
});
