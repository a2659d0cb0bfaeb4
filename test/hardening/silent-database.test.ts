import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor, type Actor } from '../../src/domain/actor.ts';
import { DATABASE_ANSWER_BOUND_SECONDS } from '../../src/storage/database-timeouts.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES, TEST_PG_URL } from '../helpers/engines.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';

const PASSWORD = 'silent-test-password-1';
const BOUND_MS = DATABASE_ANSWER_BOUND_SECONDS * 1000;

type Kind = 'api' | 'protocol-json' | 'protocol-html' | 'ready';

interface Timed {
  kind: Kind;
  label: string;
  status: number;
  retryAfter: string | undefined;
  error: string | undefined;
  body: string;
  ms: number;
}

/** The requests of a busy instance: Agent API reads and logins, /auth, /token, readiness probes. */
async function fixture(ctx: TestContext) {
  const admin = await ctx.services.users.createUser(systemActor, { account: 'operator', displayName: 'Operator', password: PASSWORD, isAdmin: true });
  const actor: Actor = { subjectId: admin.subjectId, isAdmin: true, surface: 'cli', ip: null };
  const project = await ctx.services.projects.createProject(actor, { name: 'Silent database' });
  const redirectUri = 'https://rp.example.test/callback';
  const { client, secret } = await ctx.services.clients.registerClient(actor, project.projectId, { clientType: 'web', displayName: 'RP', redirectUris: [redirectUri], scopeWhitelist: ['openid'] });
  // Logins rotate over several people: parallel attempts on one account and address wait for each other in the sign-in limiter.
  const accounts = Array.from({ length: 8 }, (_, i) => `person-${i}`);
  for (const account of accounts) await ctx.services.users.createUser(actor, { account, displayName: account, password: PASSWORD });
  let logins = 0;
  const nextAccount = () => accounts[(logins += 1) % accounts.length]!;
  const login = await ctx.app.inject({ method: 'POST', url: '/api/agent/auth/login', payload: { account: 'operator', password: PASSWORD } });
  const bearer = `Bearer ${login.json().accessToken as string}`;
  const basic = `Basic ${Buffer.from(`${client.clientId}:${secret!.value}`).toString('base64')}`;
  const authQuery = new URLSearchParams({ client_id: client.clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' });

  const requests: Record<string, { kind: Kind; send: () => Promise<Response> }> = {
    'agent read': { kind: 'api', send: () => ctx.app.inject({ url: '/api/agent/projects', headers: { authorization: bearer } }) },
    'agent login': { kind: 'api', send: () => ctx.app.inject({ method: 'POST', url: '/api/agent/auth/login', payload: { account: nextAccount(), password: PASSWORD } }) },
    '/token': {
      kind: 'protocol-json',
      send: () => ctx.app.inject({ method: 'POST', url: '/token', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, payload: `grant_type=authorization_code&code=nope&redirect_uri=${encodeURIComponent(redirectUri)}&code_verifier=${'v'.repeat(43)}` }),
    },
    '/auth': { kind: 'protocol-html', send: () => ctx.app.inject({ url: `/auth?${authQuery}`, headers: { accept: 'text/html' } }) },
    '/health/ready': { kind: 'ready', send: () => ctx.app.inject({ url: '/health/ready' }) },
  };

  async function timed(label: string): Promise<Timed> {
    const { kind, send } = requests[label]!;
    const started = performance.now();
    const response = await send();
    const ms = performance.now() - started;
    let error: string | undefined;
    if (kind === 'protocol-html') error = /<code>([a-z_]+)<\/code>/.exec(response.body)?.[1];
    else error = (response.json() as { error?: string }).error;
    const retryAfter = response.headers['retry-after'];
    return { kind, label, status: response.statusCode, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined, error, body: response.body.slice(0, 200), ms };
  }

  /** `rounds` waves of every request kind, `perKind` of each at once. */
  async function load(rounds: number, perKind: number): Promise<Timed[]> {
    const all: Timed[] = [];
    for (let round = 0; round < rounds; round += 1) {
      all.push(...(await Promise.all(Object.keys(requests).flatMap((label) => Array.from({ length: perKind }, () => timed(label))))));
    }
    return all;
  }

  return { timed, load, labels: Object.keys(requests) };
}

function expectAllUnavailableWithinBound(answers: Timed[]): void {
  for (const answer of answers) {
    const what = `${answer.label}: ${answer.status} after ${Math.round(answer.ms)} ms ${answer.body}`;
    expect(answer.ms, what).toBeLessThanOrEqual(BOUND_MS);
    expect(answer.status, what).toBe(503);
    expect(answer.retryAfter, what).toBe('5');
    if (answer.kind === 'api') expect(answer.error, what).toBe('service_unavailable');
    if (answer.kind === 'protocol-json' || answer.kind === 'protocol-html') expect(answer.error, what).toBe('temporarily_unavailable');
  }
}

async function expectServingAgain(timed: (label: string) => Promise<Timed>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await timed('/health/ready')).status !== 200) {
    if (Date.now() > deadline) throw new Error('never became ready again');
    await sleep(100);
  }
  expect((await timed('agent read')).status).toBe(200);
  expect((await timed('agent login')).status).toBe(200);
  expect((await timed('/token')).error).toBe('invalid_grant');
  expect((await timed('/auth')).status).toBe(303);
}

describe.skipIf(!TEST_ENGINES.includes('postgres'))('PostgreSQL goes silent (packets dropped) under load, then comes back', () => {
  let ctx: TestContext;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let requests: Awaited<ReturnType<typeof fixture>>;

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
    requests = await fixture(ctx);
  });
  afterAll(async () => {
    await proxy.restore().catch(() => {});
    await ctx.close();
    await proxy.stop();
  });

  it(`answers every request 503 with Retry-After within ${DATABASE_ANSWER_BOUND_SECONDS} s, and serves again without a restart`, { timeout: 60_000 }, async () => {
    for (const answer of await requests.load(1, 2)) expect(answer.status, answer.label).toBeLessThan(500);

    proxy.silence();
    // The pool's connections are open and now unanswered; then new ones hang in their handshake.
    expectAllUnavailableWithinBound(await requests.load(3, 6));
    expect((await ctx.app.inject({ url: '/health/live' })).statusCode).toBe(200);

    await proxy.restore();
    await expectServingAgain(requests.timed);

    // And once more: the instance recovers each time.
    proxy.silence();
    expectAllUnavailableWithinBound(await requests.load(1, 4));
    await proxy.restore();
    await expectServingAgain(requests.timed);
  });
});

describe.skipIf(!TEST_ENGINES.includes('sqlite'))('SQLite locked by another process under load, then released', () => {
  let ctx: TestContext;
  let requests: Awaited<ReturnType<typeof fixture>>;

  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
    requests = await fixture(ctx);
  });
  afterAll(() => ctx.close());

  it(`waits for the lock off the event loop: writers answer 503 within ${DATABASE_ANSWER_BOUND_SECONDS} s, reads and probes are served meanwhile`, { timeout: 60_000 }, async () => {
    const other = new DatabaseSync(ctx.databaseUrl.slice('sqlite:'.length));
    other.exec('PRAGMA busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    try {
      const writers = Promise.all(Array.from({ length: 12 }, () => requests.timed('agent login')).concat(Array.from({ length: 6 }, () => requests.timed('/auth'))));
      // While they wait for the lock the process answers at once: the wait does not block the event loop.
      await sleep(200);
      const started = performance.now();
      expect((await ctx.app.inject({ url: '/health/live' })).statusCode).toBe(200);
      expect(performance.now() - started).toBeLessThan(250);
      expectAllUnavailableWithinBound(await writers);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await expectServingAgain(requests.timed);
  });
});
