import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, oauthError, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, isLoginPage, OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';

describe.each(TEST_ENGINES)('rate limits on the protocol side on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  // Alice is locked out by the first test; token tests sign in as this person.
  const person = { account: 'token-tester', password: 'token-tester-password-1' };
  beforeAll(async () => {
    server = await startOidcTestServer(engine, { SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '2', TOKEN_RATE_PER_CLIENT: '1', TOKEN_RATE_PER_IP: '1000' });
    fixture = await setUpOidcFixture(server);
    await server.services.users.createUser(fixture.adminActor, { account: person.account, displayName: 'Token tester', password: person.password });
  });
  afterAll(() => server.close());

  it('the login page refuses after too many wrong passwords with a clear 429 page, Retry-After and strict headers', async () => {
    const config = await discoverAs(server.issuer, fixture.web);
    const request = await authorizationRequest(config, fixture.web, 'openid');
    const agent = new OidcUserAgent(server.issuer);
    let page = await agent.follow(request.url);
    expect(isLoginPage(page)).toBe(true);
    const action = /action="(\/interaction\/[^"]+\/login)"/.exec(page.body)![1]!;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      page = await agent.follow(action, { form: { csrf: csrfTokenOf(page), account: PERSON.account, password: `wrong-${i}` } });
      statuses.push(page.status);
    }
    expect(statuses).toEqual([401, 401, 429]);
    expect(page.body).toContain('Too many failed sign-in attempts');
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(page.headers.get('cache-control')).toBe('no-store');
    // Still refused with the right password from here: the count is per account and address.
    page = await agent.follow(action, { form: { csrf: csrfTokenOf(page), account: PERSON.account, password: PERSON.password } });
    expect(page.status).toBe(429);

    const metrics = await (await fetch(`${server.issuer}/metrics`)).text();
    expect(metrics).toContain('sesame_sign_in_attempts_total{surface="login_page",outcome="failure"} 2');
    expect(metrics).toContain('sesame_sign_in_attempts_total{surface="login_page",outcome="rate_limited"} 2');
  });

  it('a client that used up its token allowance gets 429 slow_down with Retry-After; issuance is counted by grant type', async () => {
    const rp = await fixture.register({ clientType: 'web', scopes: ['openid'] });
    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, 'openid');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, person);
    const tokens = await redeemCode(config, request, callback.location!);
    expect(tokens.access_token).toEqual(expect.any(String));

    const second = await authorizationRequest(config, rp, 'openid');
    const secondCallback = await signInThroughPages(new OidcUserAgent(server.issuer), second.url, person);
    expect(await oauthError(redeemCode(config, second, secondCallback.location!))).toBe('slow_down');

    const raw = await fetch(`${server.issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${encodeURIComponent(rp.clientId)}:${encodeURIComponent(rp.clientSecret!)}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=x&redirect_uri=x',
    });
    expect(raw.status).toBe(429);
    expect(await raw.json()).toMatchObject({ error: 'slow_down' });
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(raw.headers.get('cache-control')).toBe('no-store');

    const metrics = await (await fetch(`${server.issuer}/metrics`)).text();
    expect(metrics).toMatch(/sesame_tokens_issued_total\{grant_type="authorization_code"\} [1-9]/);
    expect(metrics).toMatch(/sesame_rate_limit_refusals_total\{operation="token",limit="client"\} 2/);
  });

  it('requests naming a client without its secret do not use up that client\'s allowance', async () => {
    const rp = await fixture.register({ clientType: 'web', scopes: ['openid'] });
    for (let i = 0; i < 5; i += 1) {
      const response = await fetch(`${server.issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${rp.clientId}:not-the-secret`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=authorization_code&code=x&redirect_uri=x',
      });
      expect(response.status).toBe(401);
    }
    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, 'openid');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, person);
    expect((await redeemCode(config, request, callback.location!)).access_token).toEqual(expect.any(String));
  });
});

describe.each(TEST_ENGINES)('token requests per IP on %s', (engine) => {
  let server: OidcTestServer;
  beforeAll(async () => {
    server = await startOidcTestServer(engine, { TOKEN_RATE_PER_IP: '3' });
  });
  afterAll(() => server.close());

  it('the fourth token request from one address within the window is refused', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${server.issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code&code=x' });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 3).every((status) => status === 400 || status === 401)).toBe(true);
    expect(statuses[3]).toBe(429);
    const health = await fetch(`${server.issuer}/health/ready`);
    expect(await health.json()).toMatchObject({ status: 'ready', checks: { database: 'ok', signingKeys: 'ok' } });
  });
});
