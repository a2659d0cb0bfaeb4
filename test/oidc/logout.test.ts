import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { isLoginPage, OidcUserAgent, signInThroughPages, type PageResponse } from '../helpers/oidc-user-agent.ts';

describe.each(TEST_ENGINES)('RP-initiated logout on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  async function signedIn(rp: RelyingParty) {
    const config = await discoverAs(server.issuer, rp);
    const agent = new OidcUserAgent(server.issuer);
    const request = await authorizationRequest(config, rp, 'openid');
    const callback = await signInThroughPages(agent, request.url, PERSON);
    const tokens = await redeemCode(config, request, callback.location!);
    return { config, agent, idToken: tokens.id_token! };
  }

  function confirmForm(page: PageResponse) {
    const action = /<form[^>]+action="([^"]+)"/.exec(page.body)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
    if (!action || !xsrf) throw new Error(`no logout form on ${page.url}`);
    return { action, xsrf };
  }

  it('asks for confirmation, then signs out and returns to the registered post-logout URI with state', async () => {
    const { config, agent, idToken } = await signedIn(fixture.web);
    const endSession = oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: fixture.web.postLogoutRedirectUri, state: 'bye-123' });
    expect(endSession.pathname).toBe('/session/end');

    const page = await agent.request(endSession.href);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Sign out?');
    expect(page.body).toContain('<link rel="stylesheet" href="/console/theme/tokens.css"><link rel="stylesheet" href="/console/theme/base.css">');
    expect(page.headers.get('content-security-policy')).toMatch(/form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/);
    const { action, xsrf } = confirmForm(page);

    const done = await agent.request(action, { form: { xsrf, logout: 'yes' } });
    expect(done.status).toBe(303);
    const location = new URL(done.location!);
    expect(`${location.origin}${location.pathname}`).toBe(fixture.web.postLogoutRedirectUri);
    expect(location.searchParams.get('state')).toBe('bye-123');

    // The session is gone: the next authorization asks the person to sign in again.
    const again = await authorizationRequest(config, fixture.web, 'openid');
    expect(isLoginPage(await agent.follow(again.url))).toBe(true);
  });

  it('refuses an unregistered post-logout URI with an error page and keeps the person signed in', async () => {
    const { config, agent, idToken } = await signedIn(fixture.web);
    const endSession = oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: 'http://127.0.0.1:9/elsewhere', state: 's' });
    const page = await agent.request(endSession.href);
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.body).toContain('has not registered after signing out');

    const again = await authorizationRequest(config, fixture.web, 'openid');
    const direct = await agent.follow(again.url);
    expect(direct.location?.startsWith(fixture.web.redirectUri)).toBe(true);
  });

  it('accepts client_id instead of id_token_hint, but never redirects without knowing the client', async () => {
    const { agent } = await signedIn(fixture.spa);
    const withoutClient = new URL('/session/end', server.issuer);
    withoutClient.searchParams.set('post_logout_redirect_uri', fixture.spa.postLogoutRedirectUri);
    const page = await agent.request(withoutClient.href);
    const { action, xsrf } = confirmForm(page);
    const done = await agent.follow(action, { form: { xsrf, logout: 'yes' } });
    expect(done.status).toBe(200);
    expect(done.url).toBe(`${server.issuer}/session/end/success`);
    expect(done.body).toContain('You are signed out');

    const { agent: second } = await signedIn(fixture.spa);
    const withClient = new URL('/session/end', server.issuer);
    withClient.searchParams.set('client_id', fixture.spa.clientId);
    withClient.searchParams.set('post_logout_redirect_uri', fixture.spa.postLogoutRedirectUri);
    withClient.searchParams.set('state', 'st');
    const confirm = confirmForm(await second.request(withClient.href));
    const redirected = await second.request(confirm.action, { form: { xsrf: confirm.xsrf, logout: 'yes' } });
    expect(redirected.location).toBe(`${fixture.spa.postLogoutRedirectUri}?state=st`);
  });

  it('refuses the logout confirmation without its xsrf token', async () => {
    const { agent } = await signedIn(fixture.spa);
    const { action } = confirmForm(await agent.request(new URL('/session/end', server.issuer).href));
    const forged = await agent.request(action, { form: { xsrf: 'forged', logout: 'yes' } });
    expect(forged.status).toBe(400);
    expect(forged.location).toBeNull();
  });
});
