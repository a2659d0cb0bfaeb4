import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptPrivateJwk } from '../../src/oidc/private-key-encryption.ts';
import { ensureSigningKeys, listSigningKeys, rotateSigningKeys, signingDelaySeconds } from '../../src/oidc/signing-keys.ts';
import { RETIRED_KEY_PUBLICATION_SECONDS } from '../../src/oidc/token-lifetimes.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

const KEY_SECRET = 'test-key-encryption-secret-0123456789-abcdefghij';

describe.each(TEST_ENGINES)('signing keys on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let store: Store;
  beforeAll(async () => {
    server = await startOidcTestServer(engine, { OIDC_KEY_ENCRYPTION_SECRET: KEY_SECRET });
    fixture = await setUpOidcFixture(server);
    store = createStore(server.db, engine);
  });
  afterAll(() => server.close());

  const jwks = async () => (await (await fetch(`${server.issuer}/jwks`)).json()) as JSONWebKeySet;

  async function idToken(): Promise<string> {
    const config = await discoverAs(server.issuer, fixture.spa);
    const request = await authorizationRequest(config, fixture.spa, 'openid');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    return (await redeemCode(config, request, callback.location!)).id_token!;
  }

  it('creates one RS256 and one ES256 key on first start, private parts encrypted at rest', async () => {
    const rows = await server.db.selectFrom('signing_keys').selectAll().execute();
    expect(rows.map((r) => r.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const row of rows) {
      expect(row.status).toBe('active');
      expect(row.private_jwk_encrypted).toMatch(/^v1\./);
      expect(row.private_jwk_encrypted).not.toContain('"d"');
      expect(JSON.parse(row.public_jwk)).not.toHaveProperty('d');
      expect(decryptPrivateJwk(row.private_jwk_encrypted, row.kid, KEY_SECRET)).toHaveProperty('d');
      expect(() => decryptPrivateJwk(row.private_jwk_encrypted, row.kid, 'another-secret-of-enough-length-0123456789')).toThrow(/OIDC_KEY_ENCRYPTION_SECRET/);
      expect(() => decryptPrivateJwk(row.private_jwk_encrypted, 'another-kid', KEY_SECRET)).toThrow();
    }
    expect(await ensureSigningKeys(store, server.clock, KEY_SECRET)).toEqual([]);
  });

  it('rotation publishes new keys with new kids at once and signs with them only after the refresh interval plus 60 s; old keys stay published until their tokens expire', async () => {
    const before = await idToken();
    const oldKid = decodeProtectedHeader(before).kid!;

    const rotatedAt = server.clock.now();
    const { created, retired } = await rotateSigningKeys(store, server.clock, KEY_SECRET, { keyRefreshSeconds: server.config.signingKeyRefreshSeconds });
    expect(created.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(retired.map((k) => k.kid)).toContain(oldKid);
    expect(created.map((k) => k.kid)).not.toContain(oldKid);
    const signsFrom = rotatedAt + signingDelaySeconds(30) * 1000;
    expect(signingDelaySeconds(30)).toBe(90);
    for (const key of created) expect(key.signsFrom).toBe(signsFrom);
    for (const key of retired) expect(key.retiredAt).toBe(signsFrom);
    const audit = await server.db.selectFrom('audit_log').select('action').where('action', '=', 'signing_key.rotate').execute();
    expect(audit).toHaveLength(1);

    // Published at the next refresh, but the old key goes on signing.
    expect(await server.app.oidc.refreshSigningKeys()).toBe(true);
    expect(await server.app.oidc.refreshSigningKeys()).toBe(false);
    const published = await jwks();
    expect(published.keys.map((k) => k.kid).sort()).toEqual([...created, ...retired].map((k) => k.kid).sort());
    expect(decodeProtectedHeader(await idToken()).kid).toBe(oldKid);
    server.clock.set(signsFrom - 1);
    expect(await server.app.oidc.refreshSigningKeys()).toBe(false);
    expect(decodeProtectedHeader(await idToken()).kid).toBe(oldKid);

    // From signsFrom on, the next refresh switches to the new key; the published set is unchanged.
    server.clock.set(signsFrom);
    expect(await server.app.oidc.refreshSigningKeys()).toBe(true);
    expect((await jwks()).keys.map((k) => k.kid).sort()).toEqual(published.keys.map((k) => k.kid).sort());
    const after = await idToken();
    const newRsKid = created.find((k) => k.alg === 'RS256')!.kid;
    expect(decodeProtectedHeader(after).kid).toBe(newRsKid);
    // A token signed before the rotation still verifies against what is published.
    const keySet = createLocalJWKSet(published);
    await expect(jwtVerify(before, keySet, { issuer: server.issuer, currentDate: new Date(server.clock.now()) })).resolves.toBeDefined();

    const listed = await listSigningKeys(store);
    const oldInfo = listed.find((k) => k.kid === oldKid)!;
    expect(oldInfo.status).toBe('retired');
    expect(oldInfo.publishedUntil).toBe(oldInfo.retiredAt! + RETIRED_KEY_PUBLICATION_SECONDS * 1000);

    // Time moves on past the last moment a token signed with the old keys could be valid.
    server.clock.set(oldInfo.publishedUntil! + 1000);
    expect(await server.app.oidc.refreshSigningKeys()).toBe(true);
    expect((await jwks()).keys.map((k) => k.kid).sort()).toEqual(created.map((k) => k.kid).sort());
  });

  it('keeps the rotated keys after a restart', async () => {
    const kids = (await jwks()).keys.map((k) => k.kid).sort();
    await server.restart();
    expect((await jwks()).keys.map((k) => k.kid).sort()).toEqual(kids);
  });
});
