import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, oauthError, redeemCode } from '../helpers/oidc-relying-party.ts';
import { createConsoleClient } from '../api/helpers/api-clients.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { isConsentPage, isLoginPage, OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

/** My account against real relying parties: consents are OIDC grants, and a password change ends them. */
describe.each(TEST_ENGINES)('my consents and OIDC sessions on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let password: string = PERSON.password;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  async function signIn(agent = new OidcUserAgent(server.issuer)) {
    const config = await discoverAs(server.issuer, fixture.web);
    const request = await authorizationRequest(config, fixture.web, 'openid profile offline_access', { prompt: 'consent' });
    const callback = await signInThroughPages(agent, request.url, { account: PERSON.account, password });
    const tokens = await redeemCode(config, request, callback.location!);
    return { config, agent, tokens };
  }

  /** An Agent API session of the person, as a script would hold it. */
  async function agentSession() {
    const login = await server.app.inject({ method: 'POST', url: '/api/agent/auth/login', payload: { account: PERSON.account, password } });
    expect(login.statusCode).toBe(200);
    const token = login.json().accessToken as string;
    return async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => {
      const response = await server.app.inject({ method, url: `/api/agent${path}`, headers: { authorization: `Bearer ${token}` }, ...(body !== undefined ? { payload: body as object } : {}) });
      return { status: response.statusCode, body: response.body ? response.json() : undefined };
    };
  }

  it('lists the application I allowed and withdraws it: its tokens die and its next sign-in asks again', async () => {
    const { config, agent, tokens } = await signIn();
    const api = await agentSession();
    const consents = await api('GET', '/account/consents');
    expect(consents.status).toBe(200);
    expect(consents.body.consents).toHaveLength(1);
    const [consent] = consents.body.consents;
    expect(consent).toMatchObject({ clientId: fixture.web.clientId, clientType: 'web', displayName: 'Imported web app', grantedAt: expect.any(String), lastUsedAt: expect.any(String) });
    expect(consent.scopes).toEqual(expect.arrayContaining(['openid', 'profile', 'offline_access']));

    const sessions = (await api('GET', '/account/sessions')).body.sessions as Array<{ kind: string }>;
    expect(sessions.map((s) => s.kind).sort()).toEqual(['agent', 'oidc']);

    expect((await api('DELETE', '/account/consents/unknown-grant')).status).toBe(404);
    expect((await api('DELETE', `/account/consents/${consent.grantId}`)).status).toBe(204);
    expect((await api('GET', '/account/consents')).body.consents).toEqual([]);
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    await expect(oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).rejects.toThrow();
    // Still signed in at Sesame, but the application must ask for consent again.
    const again = await authorizationRequest(config, fixture.web, 'openid profile');
    expect(isConsentPage(await agent.follow(again.url))).toBe(true);
  });

  it('ends an OIDC session by its id: the browser must sign in again', async () => {
    const { config, agent } = await signIn();
    const api = await agentSession();
    const oidcSessions = ((await api('GET', '/account/sessions')).body.sessions as Array<{ sessionId: string; kind: string }>).filter((s) => s.kind === 'oidc');
    expect(oidcSessions.length).toBeGreaterThanOrEqual(1);
    for (const session of oidcSessions) expect((await api('DELETE', `/account/sessions/${session.sessionId}`)).status).toBe(204);
    const again = await authorizationRequest(config, fixture.web, 'openid profile');
    expect(isLoginPage(await agent.follow(again.url))).toBe(true);
  });

  it('a password change made in the console (the person\'s alone) ends the relying party\'s refresh token but keeps the session that made it', async () => {
    const { config, tokens } = await signIn();
    const browser = createConsoleClient(server.app);
    expect((await browser.login(PERSON.account, password)).status).toBe(200);
    const other = await agentSession();
    expect((await browser.call('POST', '/account/password', { currentPassword: password, newPassword: 'a fresh passphrase for alice' })).status).toBe(204);
    password = 'a fresh passphrase for alice';
    expect(await oauthError(oidc.refreshTokenGrant(config, tokens.refresh_token!))).toBe('invalid_grant');
    expect((await browser.call('GET', '/account/sessions')).status).toBe(200);
    expect((await other('GET', '/account/sessions')).status).toBe(401);
    expect((await browser.call('GET', '/account/consents')).body.consents).toEqual([]);
  });
});
