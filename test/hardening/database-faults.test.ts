import { DatabaseSync } from 'node:sqlite';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor, type Actor } from '../../src/domain/actor.ts';
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

interface WebClient {
  clientId: string;
  secret: string;
  redirectUri: string;
}

async function registerWebClient(ctx: TestContext): Promise<WebClient> {
  const admin = await ctx.services.users.createUser(systemActor, { account: `rp-owner-${Math.random().toString(36).slice(2)}`, displayName: 'Owner', password: PASSWORD, isAdmin: true });
  const actor: Actor = { subjectId: admin.subjectId, isAdmin: true, surface: 'cli', ip: null };
  const project = await ctx.services.projects.createProject(actor, { name: 'Fault tests' });
  const redirectUri = 'https://rp.example.test/callback';
  const { client, secret } = await ctx.services.clients.registerClient(actor, project.projectId, { clientType: 'web', displayName: 'Fault RP', redirectUris: [redirectUri], scopeWhitelist: ['openid'] });
  return { clientId: client.clientId, secret: secret!.value, redirectUri };
}

function authorize(ctx: TestContext, client: WebClient) {
  const query = new URLSearchParams({
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    response_type: 'code',
    scope: 'openid',
    state: 'fault-state',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  return ctx.app.inject({ method: 'GET', url: `/auth?${query}`, headers: { accept: 'text/html' } });
}

function token(ctx: TestContext, client: WebClient, body = 'grant_type=authorization_code&code=not-a-code&redirect_uri=https%3A%2F%2Frp.example.test%2Fcallback&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk') {
  return ctx.app.inject({
    method: 'POST',
    url: '/token',
    headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: body,
  });
}

/** The protocol side's answer while the database is away: 503, Retry-After, temporarily_unavailable, never server_error. */
function expectProtocolUnavailable(response: Awaited<ReturnType<typeof login>>, kind: 'json' | 'html'): void {
  expect(response.statusCode, response.body).toBe(503);
  expect(response.headers['retry-after']).toBe('5');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers.location).toBeUndefined();
  if (kind === 'json') {
    expect(response.json()).toMatchObject({ error: 'temporarily_unavailable', error_description: expect.any(String) });
  } else {
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('temporarily_unavailable');
    expect(response.body).not.toContain('server_error');
  }
}

function logCollector() {
  let text = '';
  const stream = new Writable({ write: (chunk, _encoding, done) => ((text += String(chunk)), done()) });
  return { stream, lines: () => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string; path?: string }) };
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
  let client: WebClient;
  const logs = logCollector();

  beforeAll(async () => {
    const target = new URL(TEST_PG_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    ctx = await createTestContext('postgres', { LOG_LEVEL: 'warn' }, {
      logStream: logs.stream,
      connectThrough: (url) => {
        const through = new URL(url);
        through.hostname = '127.0.0.1';
        through.port = String(proxy.port);
        return through.toString();
      },
    });
    await ctx.services.users.createUser(systemActor, { account: 'operator', displayName: 'Operator', password: PASSWORD });
    client = await registerWebClient(ctx);
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

  it('the protocol endpoints answer 503 temporarily_unavailable with Retry-After, not 500 server_error, and log the database as the cause', async () => {
    expect((await token(ctx, client)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await authorize(ctx, client)).statusCode).toBe(303);

    await proxy.cut();
    const answers = await Promise.all([token(ctx, client), authorize(ctx, client), token(ctx, client), authorize(ctx, client)]);
    expectProtocolUnavailable(answers[0], 'json');
    expectProtocolUnavailable(answers[1], 'html');
    expectProtocolUnavailable(answers[2], 'json');
    expectProtocolUnavailable(answers[3], 'html');
    const lines = logs.lines();
    expect(lines.filter((line) => line.msg === 'database unavailable' && line.path === '/token').length).toBeGreaterThanOrEqual(2);
    expect(lines.filter((line) => line.msg === 'database unavailable' && line.path === '/auth').length).toBeGreaterThanOrEqual(2);
    expect(lines.filter((line) => line.msg === 'oidc-provider server error')).toHaveLength(0);

    await proxy.restore();
    await waitUntilReady(ctx);
    expect((await token(ctx, client)).json()).toMatchObject({ error: 'invalid_grant' });
    expect((await authorize(ctx, client)).statusCode).toBe(303);
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
  const logs = logCollector();
  beforeAll(async () => {
    ctx = await createTestContext('sqlite', { LOG_LEVEL: 'warn' }, { logStream: logs.stream });
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

describe.skipIf(!TEST_ENGINES.includes('sqlite'))('SQLite locked: the protocol side', () => {
  let ctx: TestContext;
  let client: WebClient;
  const logs = logCollector();
  beforeAll(async () => {
    ctx = await createTestContext('sqlite', { LOG_LEVEL: 'warn' }, { logStream: logs.stream });
    client = await registerWebClient(ctx);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('/auth, which must store its interaction, answers 503 temporarily_unavailable while the file is locked, and works after', async () => {
    const other = new DatabaseSync(ctx.databaseUrl.slice('sqlite:'.length));
    other.exec('PRAGMA busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    try {
      expectProtocolUnavailable(await authorize(ctx, client), 'html');
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(logs.lines().some((line) => line.msg === 'database unavailable' && line.path === '/auth')).toBe(true);
    expect((await authorize(ctx, client)).statusCode).toBe(303);
  }, 30_000);
});
