import { randomUUID } from 'node:crypto';
import type { JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { runSesame } from '../cli/run-sesame.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { freePort } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';
import { agentOver, killAllSesame, startSesame, type SesameProcess } from '../helpers/sesame-process.ts';
import { redisReachable, TEST_REDIS_URL } from './helpers/redis.ts';

// Redis is mandatory in CI (redisReachable throws there); PostgreSQL too (createTestDatabase throws).
const redisUp = await redisReachable();
const SHARED_SECRETS = {
  OIDC_KEY_ENCRYPTION_SECRET: `multi-instance-key-secret-${randomUUID()}`,
  OIDC_COOKIE_KEYS: `multi-instance-cookie-key-${randomUUID()}`,
};
/**
 * Instances re-read the published keys every SIGNING_KEY_REFRESH_SECONDS (30 by default, the pickup time the
 * docs promise); shortened here so the test need not wait half a minute. A second covers polling and the request.
 */
const KEY_REFRESH_SECONDS = 4;
const KEY_PICKUP_LIMIT_MS = KEY_REFRESH_SECONDS * 1000 + 1_000;
const PERSON_PASSWORD = 'person-password-for-two-instances';

afterAll(() => killAllSesame());

/**
 * Two `node src/main.ts` processes on one PostgreSQL database and one Redis, serving one issuer,
 * as docs/operations.md describes: what one is told, the other knows within 1 s (its read cache is told
 * through PostgreSQL's LISTEN/NOTIFY).
 */
describe.skipIf(!redisUp || !TEST_ENGINES.includes('postgres'))('two Sesame processes on one PostgreSQL and one Redis', () => {
  let database: TestDatabase;
  let one: SesameProcess;
  let other: SesameProcess;
  let issuer: string;
  let opened: OpenedDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const ports = [await freePort(), await freePort()];
    // One issuer for both, as behind a load balancer; here it is the second instance's address.
    issuer = `http://127.0.0.1:${ports[1]!}`;
    const env = { ...SHARED_SECRETS, OIDC_ISSUER: issuer, REDIS_URL: TEST_REDIS_URL, SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '4', SIGNING_KEY_REFRESH_SECONDS: String(KEY_REFRESH_SECONDS) };
    one = await startSesame({ databaseUrl: database.url, port: ports[0]!, env });
    other = await startSesame({ databaseUrl: database.url, port: ports[1]!, env });
    opened = openDatabase(database.url);
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
    await killAllSesame();
    await database?.drop();
  });

  /** /auth on an instance for a spa client: 303 into the sign-in pages when accepted, an error page when refused. */
  async function authorize(instance: SesameProcess, clientId: string, redirectUri: string) {
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 'state-1',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const response = await fetch(`${instance.url}/auth?${query}`, { redirect: 'manual' });
    return { status: response.status, location: response.headers.get('location') };
  }

  /** The bound docs/operations.md states for a change to reach every instance's read cache. */
  const CACHE_BOUND_MS = 1_000;
  /** /auth on `instance` until it answers `status`, failing when it does not within the bound. */
  async function authorizeUntil(status: number, instance: SesameProcess, clientId: string, redirectUri: string) {
    const start = performance.now();
    for (;;) {
      const answer = await authorize(instance, clientId, redirectUri);
      if (answer.status === status || performance.now() - start > CACHE_BOUND_MS) return answer;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('a client registered, revised, disabled and re-enabled through one instance is live on the other within 1 s', { timeout: 60_000 }, async () => {
    const admin = agentOver(one.url);
    await admin.login();
    const project = (await admin.call('POST', '/projects', { name: 'Two instances' })).body.project.projectId as string;
    const person = await admin.call('POST', '/admin/users', { account: `person-${randomUUID().slice(0, 8)}`, displayName: 'Person', password: PERSON_PASSWORD });
    expect(person.status, person.text).toBe(201);

    const registered = await admin.call('POST', `/projects/${project}/clients`, {
      clientType: 'spa',
      displayName: 'Shared RP',
      redirectUris: ['http://127.0.0.1:9/rp/cb'],
      postLogoutRedirectUris: [],
      scopeWhitelist: ['openid', 'profile'],
    });
    expect(registered.status, registered.text).toBe(201);
    const clientId = registered.body.client.clientId as string;
    const rp = { clientId, redirectUri: 'http://127.0.0.1:9/rp/cb', postLogoutRedirectUri: 'http://127.0.0.1:9/rp/bye' };

    // The other instance knows the new client at once: a whole sign-in there, and openid-client redeems the
    // code it issued at the first instance's /token.
    const discovered = await discoverAs(issuer, rp);
    const request = await authorizationRequest(discovered, rp, 'openid profile');
    const callback = await signInThroughPages(new OidcUserAgent(other.url), request.url, { account: person.body.user.account, password: PERSON_PASSWORD });
    expect(callback.location?.startsWith(`${rp.redirectUri}?`), `${callback.status} ${callback.location} ${callback.body.slice(0, 300)}`).toBe(true);
    const { supportsPKCE: _method, ...metadata } = discovered.serverMetadata();
    const atFirst = new oidc.Configuration({ ...metadata, token_endpoint: `${one.url}/token` }, rp.clientId, undefined, oidc.None());
    oidc.allowInsecureRequests(atFirst);
    const tokens = await redeemCode(atFirst, request, callback.location!);
    expect(tokens.claims()?.sub).toBe(person.body.user.subjectId);

    // New redirect URIs through the first: the second refuses the old one and accepts the new one within the bound.
    let version = registered.body.client.clientVersion as number;
    const revised = await admin.call('PUT', `/projects/${project}/clients/${clientId}/revision`, { clientVersion: version, redirectUris: ['http://127.0.0.1:9/rp/new'], scopeWhitelist: ['openid', 'profile'] });
    expect(revised.status, revised.text).toBe(200);
    version = revised.body.client.clientVersion;
    const old = await authorizeUntil(400, other, clientId, 'http://127.0.0.1:9/rp/cb');
    expect(old.status).toBe(400);
    expect(old.location).toBeNull();
    const fresh = await authorize(other, clientId, 'http://127.0.0.1:9/rp/new');
    expect(fresh.status).toBe(303);
    expect(fresh.location).toMatch(/^\/interaction\//);

    // Disabled through the first: refused by the second within the bound.
    const disabled = await admin.call('PATCH', `/projects/${project}/clients/${clientId}`, { clientVersion: version, status: 'disabled' });
    expect(disabled.status, disabled.text).toBe(200);
    expect((await authorizeUntil(400, other, clientId, 'http://127.0.0.1:9/rp/new')).status).toBe(400);

    // And the other way round: re-enabled through the second, accepted by the first within the bound.
    const secondAdmin = agentOver(other.url);
    await secondAdmin.login();
    const enabled = await secondAdmin.call('PATCH', `/projects/${project}/clients/${clientId}`, { clientVersion: disabled.body.client.clientVersion, status: 'active' });
    expect(enabled.status, enabled.text).toBe(200);
    expect((await authorizeUntil(303, one, clientId, 'http://127.0.0.1:9/rp/new')).status).toBe(303);
  });

  it('sign-in failures through one instance count on the other (one limit in Redis)', { timeout: 60_000 }, async () => {
    const admin = agentOver(one.url);
    await admin.login();
    // A fresh account per run: earlier runs' counters in the same Redis stay out of it.
    const account = `shared-${randomUUID().slice(0, 8)}`;
    expect((await admin.call('POST', '/admin/users', { account, displayName: 'Shared', password: PERSON_PASSWORD })).status).toBe(201);

    const attempts = await Promise.all(Array.from({ length: 20 }, (_, i) => agentOver(i % 2 === 0 ? one.url : other.url).call('POST', '/auth/login', { account, password: `wrong-${i}` })));
    expect(attempts.filter((a) => a.status === 401)).toHaveLength(4);
    const refused = attempts.filter((a) => a.status === 429);
    expect(refused).toHaveLength(16);
    for (const response of refused) {
      expect(response.body.error).toBe('rate_limited');
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Both instances hold the account at this address now, the right password included.
    for (const instance of [one, other]) expect((await agentOver(instance.url).call('POST', '/auth/login', { account, password: PERSON_PASSWORD })).status).toBe(429);
  });

  it('a key rotated with `sesame keys rotate` is served by both instances\' /jwks within the refresh interval (30 s by default)', { timeout: 90_000 }, async () => {
    expect(loadConfig({}).signingKeyRefreshSeconds).toBe(30);
    const kidsOf = async (instance: SesameProcess) => ((await (await fetch(`${instance.url}/jwks`)).json()) as JSONWebKeySet).keys.map((key) => key.kid!);
    const before = await kidsOf(one);
    expect(await kidsOf(other)).toEqual(before);

    const rotation = await runSesame(['keys', 'rotate'], { databaseUrl: database.url, env: SHARED_SECRETS });
    expect(rotation.code, rotation.stderr).toBe(0);
    const rotatedAt = performance.now();
    const created = (JSON.parse(rotation.stdout) as { created: { kid: string }[] }).created.map((key) => key.kid);
    expect(created).toHaveLength(2);

    const pickedUpAfter = await Promise.all(
      [one, other].map(async (instance) => {
        while (performance.now() - rotatedAt < KEY_PICKUP_LIMIT_MS + 5_000) {
          const kids = await kidsOf(instance);
          if (created.every((kid) => kids.includes(kid))) {
            // The retired keys stay published beside the new ones.
            expect(before.every((kid) => kids.includes(kid))).toBe(true);
            return performance.now() - rotatedAt;
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        return Infinity;
      }),
    );
    for (const elapsed of pickedUpAfter) expect(elapsed).toBeLessThanOrEqual(KEY_PICKUP_LIMIT_MS);
  });

  it('both instances prune expired artifacts as they write, without failing each other', { timeout: 90_000 }, async () => {
    const expiredAt = Date.now() - 60_000;
    for (let start = 0; start < 3000; start += 500) {
      await opened.db
        .insertInto('oidc_payloads')
        .values(Array.from({ length: 500 }, (_, i) => ({ kind: 'AuthorizationCode', id: `expired-${start + i}`, payload: '{}', grant_id: null, uid: null, expires_at: expiredAt, consumed_at: null })))
        .execute();
    }
    const admin = agentOver(one.url);
    await admin.login();
    const project = (await admin.call('POST', '/projects', { name: 'Pruning' })).body.project.projectId as string;
    const clientId = (
      await admin.call('POST', `/projects/${project}/clients`, { clientType: 'spa', displayName: 'Busy RP', redirectUris: ['http://127.0.0.1:9/busy/cb'], scopeWhitelist: ['openid'] })
    ).body.client.clientId as string;

    // Every accepted /auth stores an interaction: a write, and every 500th write of an instance prunes.
    const busy = async (instance: SesameProcess) => {
      for (let round = 0; round < 60; round += 1) {
        const answers = await Promise.all(Array.from({ length: 10 }, () => authorize(instance, clientId, 'http://127.0.0.1:9/busy/cb')));
        for (const answer of answers) expect(answer.status).toBe(303);
      }
    };
    await Promise.all([busy(one), busy(other)]);

    const expiredLeft = async () => Number((await opened.db.selectFrom('oidc_payloads').select((eb) => eb.fn.countAll().as('n')).where('id', 'like', 'expired-%').executeTakeFirstOrThrow()).n);
    const deadline = Date.now() + 10_000;
    while ((await expiredLeft()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await expiredLeft()).toBe(0);
    for (const instance of [one, other]) expect((await fetch(`${instance.url}/health/ready`)).status).toBe(200);
  });
});
