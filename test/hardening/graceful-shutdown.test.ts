import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { createTestDatabase, TEST_ENGINES } from '../helpers/engines.ts';
import { ADMIN, agentOver, killAllSesame, startSesame } from '../helpers/sesame-process.ts';

/** Enough password logins (argon2id each) that they are still running when SIGTERM arrives. */
const CONCURRENT_LOGINS = 24;

interface Outcome {
  status: number;
  body: string;
  /** When the whole response had arrived (performance.now()). */
  doneAt: number;
}

/** One login on its own connection; resolves once the request is fully sent, with the eventual answer. */
function sendLogin(url: string): { sent: Promise<void>; answer: Promise<Outcome> } {
  let markSent!: () => void;
  const sent = new Promise<void>((resolve) => (markSent = resolve));
  const answer = new Promise<Outcome>((resolve, reject) => {
    const payload = JSON.stringify({ account: ADMIN.account, password: ADMIN.password });
    const req = request(`${url}/api/agent/auth/login`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, doneAt: performance.now() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.on('finish', markSent);
    req.end(payload);
  });
  return { sent, answer };
}

afterAll(() => killAllSesame());

/**
 * SIGTERM while password logins are in flight: src/main.ts closes the app, which stops taking new
 * connections but lets every request it is already handling finish with its normal answer; then
 * the process exits 0. Each login's session is in the database afterwards. (A request still unread
 * in the kernel when the signal comes is not being handled yet and is cut off: take an instance out
 * of the load balancer, via /health/ready or the orchestrator, before stopping it.)
 */
describe.each(TEST_ENGINES)('graceful shutdown of a Sesame process on %s', (engine) => {
  it('finishes every request started before SIGTERM, then exits 0', { timeout: 120_000 }, async () => {
    const database = await createTestDatabase(engine);
    try {
      // Debug logging makes the server log each request as it starts handling it: that, not the client having
      // sent it (it may still wait, unread, in the kernel), is "started before SIGTERM".
      const sesame = await startSesame({ databaseUrl: database.url, env: { LOG_LEVEL: 'debug', SHUTDOWN_GRACE_SECONDS: '1' } });
      const logins = Array.from({ length: CONCURRENT_LOGINS }, () => sendLogin(sesame.url));
      await Promise.all(logins.map((login) => login.sent));
      const started = () => sesame.output().split('\n').filter((line) => line.includes('"msg":"incoming request"') && line.includes('"url":"/api/agent/auth/login"')).length;
      const deadline = Date.now() + 20_000;
      while (started() < CONCURRENT_LOGINS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
      expect(started(), sesame.output()).toBe(CONCURRENT_LOGINS);
      const terminatedAt = performance.now();
      sesame.signal('SIGTERM');

      const outcomes = await Promise.all(logins.map((login) => login.answer));
      const exit = await sesame.exited;

      for (const outcome of outcomes) {
        expect(outcome.status, outcome.body).toBe(200);
        expect(JSON.parse(outcome.body)).toMatchObject({ tokenType: 'Bearer', expiresIn: 86400, user: { account: ADMIN.account } });
      }
      // The point of the test: answers that came after the signal, so requests really were in flight.
      expect(outcomes.filter((outcome) => outcome.doneAt > terminatedAt).length, 'every login finished before SIGTERM; the test proved nothing').toBeGreaterThan(0);
      expect(exit, sesame.output()).toEqual({ code: 0, signal: null });
      expect(sesame.output()).toContain('SIGTERM received, finishing in-flight requests');

      // Each answered login is a stored session: the writes finished too, not only the replies.
      const opened = openDatabase(database.url);
      try {
        for (const outcome of outcomes) {
          const digest = sha256Hex(JSON.parse(outcome.body).accessToken as string);
          expect(await opened.db.selectFrom('sessions').select('kind').where('token_digest', '=', digest).executeTakeFirst()).toEqual({ kind: 'agent' });
        }
      } finally {
        await opened.close();
      }
      // And it took no new connection after the signal.
      await expect(fetch(`${sesame.url}/health/live`)).rejects.toThrow();
    } finally {
      await killAllSesame();
      await database.drop();
    }
  });
});

/**
 * The grace before that: a load balancer only notices an instance is leaving through /health/ready, so on
 * SIGTERM readiness turns 503 at once while every other request is still served; only after the grace does
 * the instance stop taking connections, and then it exits 0.
 */
describe('readiness during the shutdown grace', () => {
  it('answers /health/ready 503 and still serves requests until the grace is over, then exits 0', { timeout: 90_000 }, async () => {
    const database = await createTestDatabase(TEST_ENGINES[0] ?? 'sqlite');
    try {
      const graceSeconds = 4;
      const sesame = await startSesame({ databaseUrl: database.url, env: { SHUTDOWN_GRACE_SECONDS: String(graceSeconds) } });
      expect((await fetch(`${sesame.url}/health/ready`)).status).toBe(200);
      const terminatedAt = performance.now();
      sesame.signal('SIGTERM');
      await expect.poll(() => sesame.output(), { timeout: 5_000, interval: 20 }).toContain('SIGTERM received');

      const ready = await fetch(`${sesame.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toEqual(expect.any(String));
      expect(await ready.json()).toMatchObject({ status: 'not_ready', checks: { database: 'ok', running: 'failing' } });
      expect((await fetch(`${sesame.url}/health/live`)).status).toBe(200);
      // Real work still gets done: a password login (a write) and an authenticated read.
      const agent = agentOver(sesame.url);
      await agent.login();
      expect((await agent.call('GET', '/projects')).status).toBe(200);
      expect(performance.now() - terminatedAt).toBeLessThan(graceSeconds * 1000);

      const exit = await sesame.exited;
      expect(exit, sesame.output()).toEqual({ code: 0, signal: null });
      expect(performance.now() - terminatedAt).toBeGreaterThanOrEqual(graceSeconds * 1000 - 50);
    } finally {
      await killAllSesame();
      await database.drop();
    }
  });
});
