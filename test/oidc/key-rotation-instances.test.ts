import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { manualClock } from '../../src/domain/clock.ts';
import { rotateSigningKeys, signingDelaySeconds } from '../../src/oidc/signing-keys.ts';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createStore } from '../../src/storage/store.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { freePort, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';
import { composeServer } from '../../src/startup/compose-server.ts';

const KEY_SECRET = 'key-rotation-instances-secret-0123456789-abcdef';
const COOKIE_KEY = 'key-rotation-instances-cookie-key-0123456789-abcdef';
/** The refresh interval modelled here: the default SIGNING_KEY_REFRESH_SECONDS. */
const REFRESH_SECONDS = 30;
const STEP_MS = 5_000;

interface Instance {
  url: string;
  app: FastifyInstance;
  opened: OpenedDatabase;
  fixtureView: Pick<OidcTestServer, 'services' | 'config'>;
}

/**
 * Issue 12 finding 5: two instances on one database, as behind a load balancer. A key rotated through
 * one is picked up by each at its own refresh; whichever instance answers, an ID token is signed with
 * a kid the other instance already publishes, from the rotation until both sign with the new key.
 */
describe.each(TEST_ENGINES)('signing key rotation across two instances on %s', (engine) => {
  let database: TestDatabase;
  const clock = manualClock();
  const instances: Instance[] = [];
  let issuer: string;

  async function startInstance(port: number): Promise<Instance> {
    // The real timers wait an hour: the test runs each instance's refreshes itself, on a schedule of its choosing.
    const env = { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, OIDC_ISSUER: issuer, PORT: String(port), OIDC_KEY_ENCRYPTION_SECRET: KEY_SECRET, OIDC_COOKIE_KEYS: COOKIE_KEY, SIGNING_KEY_REFRESH_SECONDS: '3600' };
    const config = loadConfig(env);
    const opened = openDatabase(config.databaseUrl);
    await migrateToLatest(opened.db);
    const { app, services } = await composeServer({ config, db: opened.db, engine, clock });
    await app.listen({ port, host: '127.0.0.1' });
    return { url: `http://127.0.0.1:${port}`, app, opened, fixtureView: { services, config } };
  }

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    const ports = [await freePort(), await freePort()];
    issuer = `http://127.0.0.1:${ports[0]!}`;
    for (const port of ports) instances.push(await startInstance(port));
  });
  afterAll(async () => {
    for (const instance of instances) {
      await instance.app.close();
      await instance.opened.close();
    }
    await database?.drop();
  });

  it('signs no ID token with a kid the other instance does not publish yet, and both sign with the new key within 2 x refresh + 60 s', { timeout: 120_000 }, async () => {
    const [one, other] = instances as [Instance, Instance];
    // The fixture needs only the services and the configuration of a server.
    const fixture = await setUpOidcFixture(one.fixtureView as OidcTestServer);
    const rp = fixture.web;
    const config = await discoverAs(issuer, rp);
    const request = await authorizationRequest(config, rp, 'openid offline_access', { prompt: 'consent' });
    const callback = await signInThroughPages(new OidcUserAgent(issuer), request.url, PERSON);
    let refreshToken = (await redeemCode(config, request, callback.location!)).refresh_token!;
    // Each instance's /token, for the same relying party.
    const { supportsPKCE: _pkce, ...metadata } = config.serverMetadata();
    const tokenEndpointOf = (instance: Instance) => {
      const at = new oidc.Configuration({ ...metadata, token_endpoint: `${instance.url}/token` }, rp.clientId, undefined, oidc.ClientSecretBasic(rp.clientSecret!));
      oidc.allowInsecureRequests(at);
      return at;
    };
    const idTokenFrom = async (instance: Instance) => {
      const tokens = await oidc.refreshTokenGrant(tokenEndpointOf(instance), refreshToken);
      refreshToken = tokens.refresh_token!;
      return tokens.id_token!;
    };
    const publishedBy = async (instance: Instance) => (await (await fetch(`${instance.url}/jwks`)).json()) as JSONWebKeySet;

    const rotatedAt = clock.now();
    const { created } = await rotateSigningKeys(createStore(one.opened.db, engine), clock, KEY_SECRET, { keyRefreshSeconds: REFRESH_SECONDS });
    const newKid = created.find((key) => key.alg === 'RS256')!.kid;
    expect(created[0]!.signsFrom).toBe(rotatedAt + signingDelaySeconds(REFRESH_SECONDS) * 1000);

    // The worst phases: the first instance refreshes just after the rotation, the other had refreshed
    // just before it, so it first sees the new key a whole interval later. Both every REFRESH_SECONDS.
    const nextRefresh = new Map<Instance, number>([[one, rotatedAt + STEP_MS], [other, rotatedAt + REFRESH_SECONDS * 1000]]);
    const published = new Map<Instance, number>();
    const signing = new Map<Instance, number>();
    const end = rotatedAt + (2 * REFRESH_SECONDS + 60) * 1000 + STEP_MS;
    for (let now = rotatedAt; now <= end; now += STEP_MS) {
      clock.set(now);
      for (const [instance, due] of nextRefresh) {
        if (now < due) continue;
        await instance.app.oidc.refreshSigningKeys();
        nextRefresh.set(instance, due + REFRESH_SECONDS * 1000);
      }
      const jwks = new Map<Instance, JSONWebKeySet>([[one, await publishedBy(one)], [other, await publishedBy(other)]]);
      for (const [instance, set] of jwks) if (!published.has(instance) && set.keys.some((key) => key.kid === newKid)) published.set(instance, now);
      for (const [signer, verifier] of [[one, other], [other, one]] as const) {
        const idToken = await idTokenFrom(signer);
        const { kid } = decodeProtectedHeader(idToken);
        const at = `${(now - rotatedAt) / 1000} s after the rotation`;
        expect(jwks.get(verifier)!.keys.map((key) => key.kid), `${signer.url} signed with ${kid} ${at}`).toContain(kid);
        await expect(jwtVerify(idToken, createLocalJWKSet(jwks.get(verifier)!), { issuer }), at).resolves.toBeDefined();
        if (kid === newKid && !signing.has(signer)) signing.set(signer, now);
      }
    }

    // Measured: every instance published the key at least 60 s before any instance signed with it,
    // and both signed with it no later than 2 x refresh + 60 s after the rotation.
    expect(published.size).toBe(2);
    expect(signing.size).toBe(2);
    const lastPublished = Math.max(...published.values());
    const firstSigned = Math.min(...signing.values());
    expect(lastPublished - rotatedAt).toBeLessThanOrEqual(REFRESH_SECONDS * 1000);
    expect(firstSigned - lastPublished).toBeGreaterThanOrEqual(60_000);
    expect(Math.max(...signing.values()) - rotatedAt).toBeLessThanOrEqual((2 * REFRESH_SECONDS + 60) * 1000);
  });
});
