import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, oauthError, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

const ADMIN = { account: 'reset-admin', password: 'reset-admin-password-1' };

describe.each(TEST_ENGINES)('a password reset or a disable ends everything the person holds at the OIDC side, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let adminToken: string;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    await server.services.users.createUser(fixture.adminActor, { ...ADMIN, displayName: 'Reset admin', isAdmin: true });
    adminToken = ((await (await agentCall('POST', '/auth/login', ADMIN, false)).json()) as { accessToken: string }).accessToken;
  });
  afterAll(() => server.close());

  async function agentCall(method: string, path: string, body: unknown, signedIn = true): Promise<Response> {
    return fetch(`${server.issuer}/api/agent${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(signedIn ? { authorization: `Bearer ${adminToken}` } : {}) },
      body: JSON.stringify(body),
    });
  }

  /** What a thief could hold after watching the person sign in once: their browser, an access token and a refresh token. */
  async function signedInPerson(account: string) {
    const person = { account, password: `${account}-password-1` };
    const user = await server.services.users.createUser(fixture.adminActor, { ...person, displayName: account });
    const config = await discoverAs(server.issuer, fixture.web);
    const request = await authorizationRequest(config, fixture.web, 'openid profile offline_access', { prompt: 'consent' });
    const browser = new OidcUserAgent(server.issuer);
    const callback = await signInThroughPages(browser, request.url, person);
    const tokens = await redeemCode(config, request, callback.location!);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    return { user, config, browser, accessToken: tokens.access_token, refreshToken: tokens.refresh_token! };
  }

  type Held = Awaited<ReturnType<typeof signedInPerson>>;

  /** prompt=none with the browser's sign-in cookie: the redirect back to the application, with a code or an error. */
  async function silentSignIn(held: Held): Promise<URL> {
    const request = await authorizationRequest(held.config, fixture.web, 'openid profile', { prompt: 'none' });
    const answer = await held.browser.follow(request.url);
    expect(answer.location?.startsWith(fixture.web.redirectUri), `${answer.status} ${answer.location}`).toBe(true);
    return new URL(answer.location!);
  }

  async function expectAllAlive(held: Held) {
    expect((await oidc.fetchUserInfo(held.config, held.accessToken, held.user.subjectId)).sub).toBe(held.user.subjectId);
    expect((await silentSignIn(held)).searchParams.get('code')).toEqual(expect.any(String));
  }

  async function expectAllDead(held: Held) {
    expect(await oauthError(oidc.refreshTokenGrant(held.config, held.refreshToken))).toBe('invalid_grant');
    expect(await oauthError(oidc.fetchUserInfo(held.config, held.accessToken, held.user.subjectId))).toBe('invalid_token');
    const silent = await silentSignIn(held);
    expect(silent.searchParams.get('code')).toBeNull();
    expect(silent.searchParams.get('error')).toBe('login_required');
  }

  it('after an administrator resets the password: the old refresh token, access token and sign-in cookie are all refused', async () => {
    const held = await signedInPerson('reset-victim');
    await expectAllAlive(held);
    const reset = await agentCall('POST', `/admin/users/${held.user.subjectId}/password`, { password: 'a brand new password 1' });
    expect(reset.status).toBe(204);
    await expectAllDead(held);
  });

  it('after a disable, and still after the account is enabled again', async () => {
    const held = await signedInPerson('disable-victim');
    await expectAllAlive(held);
    const disabled = await agentCall('PATCH', `/admin/users/${held.user.subjectId}`, { status: 'disabled' });
    expect(disabled.status).toBe(200);
    await expectAllDead(held);
    const enabled = await agentCall('PATCH', `/admin/users/${held.user.subjectId}`, { status: 'active' });
    expect(enabled.status).toBe(200);
    await expectAllDead(held);
  });

  it('leaves other people signed in', async () => {
    const bystander = await signedInPerson('bystander');
    const victim = await signedInPerson('other-victim');
    expect((await agentCall('POST', `/admin/users/${victim.user.subjectId}/password`, { password: 'a brand new password 2' })).status).toBe(204);
    await expectAllAlive(bystander);
    expect((await oidc.refreshTokenGrant(bystander.config, bystander.refreshToken)).access_token).toEqual(expect.any(String));
  });
});
