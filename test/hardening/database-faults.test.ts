import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES, TEST_PG_URL } from '../helpers/engines.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';

const PASSWORD = 'fault-test-password-1';

async function login(ctx: TestContext, account: string) {
  return ctx.app.inject({ method: 'POST', url: '/api/agent/auth/login', payload: { account, password: PASSWORD } });
}

function expectServiceUnavailable(response: Awaited<ReturnType<typeof login>>): void {
  expect(response.statusCode).toBe(503);
  expect(response.headers['retry-after']).toBe('5');
  expect(response.headers['cache-control']).toBe('no-store');
  const body = response.json();
  expect(body.error).toBe('service_unavailable');
  expect(typeof body.error_description).toBe('string');
}

async function waitUntilReady(ctx: TestContext, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await ctx.app.inject({ url: '/health/ready' })).statusCode === 200) return;
    await sleep(100);
  }
  throw new Error('never became ready again');
}

describe.skipIf(!TEST_ENGINES.includes('postgres'))('PostgreSQL unreachable, then back', () => {
  let ctx: TestContext;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;

  beforeAll(async () => {
    const target = new URL(TEST_PG_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    ctx = await createTestContext('postgres', {}, {
      connectThrough: (url) => {
        const through = new URL(url);
        through.hostname = '127.0.0.1';
        through.port = String(proxy.port);
        return through.toString();
      },
    });
    await ctx.services.users.createUser(systemActor, { account: 'operator', displayName: 'Operator', password: PASSWORD });
  });
  afterAll(async () => {
    await proxy.restore().catch(() => {});
    await ctx.close();
    await proxy.stop();
  });

  it('answers 503 service_unavailable with Retry-After while the database is away, and resumes by itself', async () => {
    expect((await login(ctx, 'operator')).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/health/ready' })).statusCode).toBe(200);

    await proxy.cut();

    const ready = await ctx.app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'not_ready', checks: { database: 'failing' } });
    expect((await ctx.app.inject({ url: '/health/live' })).statusCode).toBe(200);

    // Under load: every request gets the documented answer, none a 500.
    const burst = await Promise.all(Array.from({ length: 25 }, () => login(ctx, 'operator')));
    for (const response of burst) expectServiceUnavailable(response);

    await proxy.restore();
    await waitUntilReady(ctx);
    const after = await login(ctx, 'operator');
    expect(after.statusCode).toBe(200);
    expect(after.json().accessToken).toEqual(expect.any(String));
  });

  it('survives the database going away twice (the pool replaces its dead connections each time)', async () => {
    for (let round = 0; round < 2; round += 1) {
      await proxy.cut();
      expectServiceUnavailable(await login(ctx, 'operator'));
      await proxy.restore();
      await waitUntilReady(ctx);
      expect((await login(ctx, 'operator')).statusCode).toBe(200);
    }
  });
});

describe.skipIf(!TEST_ENGINES.includes('sqlite'))('SQLite locked by another process, then released', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    await ctx.services.users.createUser(systemActor, { account: 'operator', displayName: 'Operator', password: PASSWORD });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('a write that cannot get the lock answers 503 with Retry-After, and the next one after the release succeeds', async () => {
    const other = new DatabaseSync(ctx.databaseUrl.slice('sqlite:'.length));
    other.exec('PRAGMA busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    try {
      // Reads still work under WAL, so the instance stays ready; the login's session write waits out busy_timeout.
      expect((await ctx.app.inject({ url: '/health/ready' })).statusCode).toBe(200);
      expectServiceUnavailable(await login(ctx, 'operator'));
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await login(ctx, 'operator')).statusCode).toBe(200);
  }, 30_000);
});
