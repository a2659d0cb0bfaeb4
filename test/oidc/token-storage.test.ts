import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import { createStore } from '../../src/storage/store.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, oauthError, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { isLoginPage, OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

/**
 * Issue 12 finding 7: a database reader (a backup, a replica) must not hold usable tokens. After a
 * code flow no column of oidc_payloads holds the code, the access or refresh token or the session
 * cookie, and each of them still works. Finding 1, storage side: everything the person holds there
 * can be revoked at once.
 */
describe.each(TEST_ENGINES)('OIDC tokens at rest on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  const storedRows = () => server.db.selectFrom('oidc_payloads').selectAll().execute();
  const cookieValue = (agent: OidcUserAgent, name: string) =>
    agent.cookieHeader(new URL('/auth', server.issuer)).split('; ').find((pair) => pair.startsWith(`${name}=`))?.slice(name.length + 1);

  async function signIn() {
    const config = await discoverAs(server.issuer, fixture.web);
    const agent = new OidcUserAgent(server.issuer);
    const request = await authorizationRequest(config, fixture.web, 'openid profile offline_access', { prompt: 'consent' });
    const callback = await signInThroughPages(agent, request.url, PERSON);
    const code = new URL(callback.location!).searchParams.get('code')!;
    const tokens = await redeemCode(config, request, callback.location!);
    return { config, agent, code, tokens };
  }

  it('keeps the code, the access and refresh tokens and the session cookie out of every column; each still works', async () => {
    const { config, agent, code, tokens } = await signIn();
    const session = cookieValue(agent, 'sesame_session')!;
    const secrets = { code, access: tokens.access_token, refresh: tokens.refresh_token!, session };
    for (const value of Object.values(secrets)) expect(value).toEqual(expect.any(String));

    const rows = await storedRows();
    const kinds = new Set(rows.map((row) => row.kind));
    for (const kind of ['AuthorizationCode', 'AccessToken', 'RefreshToken', 'Session', 'Grant']) expect(kinds).toContain(kind);
    const stored = JSON.stringify(rows);
    for (const [name, value] of Object.entries(secrets)) expect(stored.includes(value), name).toBe(false);
    // Their digests are what the rows are keyed by.
    const ids = new Set(rows.map((row) => row.id));
    for (const value of Object.values(secrets)) expect(ids).toContain(sha256Hex(value));

    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId);
    expect(userinfo.sub).toBe(fixture.person.subjectId);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(JSON.stringify(await storedRows())).not.toContain(refreshed.refresh_token!);
    // The session cookie still signs the person in: single sign-on skips the login page.
    const again = await authorizationRequest(config, fixture.web, 'openid profile');
    const sso = await agent.follow(again.url);
    expect(sso.location?.startsWith(fixture.web.redirectUri)).toBe(true);
  });

  it('notes whose each artifact is, and revoking everything of the person ends their tokens and their session', async () => {
    const { config, agent, tokens } = await signIn();
    const owned = (await storedRows()).filter((row) => row.account_id === fixture.person.subjectId).map((row) => row.kind);
    for (const kind of ['AccessToken', 'RefreshToken', 'Session', 'Grant', 'AuthorizationCode']) expect(owned).toContain(kind);

    const store = createStore(server.db, engine);
    expect(await store.transaction((repos) => repos.oidcPayloads.revokeAllForAccount(fixture.person.subjectId))).toBeGreaterThanOrEqual(5);

    await expect(oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).rejects.toThrow();
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    const again = await authorizationRequest(config, fixture.web, 'openid profile');
    expect(isLoginPage(await agent.follow(again.url))).toBe(true);
  });
});
