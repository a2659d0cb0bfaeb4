import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, isConsentPage, isLoginPage, OidcUserAgent, type PageResponse } from '../helpers/oidc-user-agent.ts';

describe.each(TEST_ENGINES)('login, consent and error pages on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(() => server.close());

  async function openLoginPage(rp = fixture.spa) {
    const agent = new OidcUserAgent(server.issuer);
    const config = await discoverAs(server.issuer, rp);
    const page = await agent.follow((await authorizationRequest(config, rp, 'openid profile')).url);
    expect(isLoginPage(page)).toBe(true);
    const action = /action="(\/interaction\/[^"]+\/login)"/.exec(page.body)![1]!;
    return { agent, page, action };
  }

  /** `passkeyScripts`: the page has passkey buttons, whose two scripts come from this origin as files (never inline). */
  function expectStrictPage(page: PageResponse, { passkeyScripts = false } = {}) {
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/form-action 'self' http:\/\/127\.0\.0\.1:9(;|$)/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    if (passkeyScripts) {
      expect(csp).toMatch(/; script-src 'self'; connect-src 'self'$/);
      expect([...page.body.matchAll(/<script[^>]*>/g)].map((match) => match[0])).toEqual([
        '<script src="/assets/simplewebauthn-browser.js" defer>',
        '<script src="/assets/passkey.js" defer>',
      ]);
      expect(page.body.replace(/<script src="\/assets\/[a-z-]+\.js" defer><\/script>/g, '')).not.toMatch(/<script|\son\w+=|https?:\/\/(?!127\.0\.0\.1)/i);
    } else {
      expect(csp).not.toMatch(/script-src/);
      expect(page.body).not.toMatch(/<script|\son\w+=|https?:\/\/(?!127\.0\.0\.1)/i);
    }
    expectSharedTheme(page);
  }

  /** One look for pages and console: the console's theme first, then the pages' own rules, and its favicon. */
  function expectSharedTheme(page: PageResponse) {
    const stylesheets = [...page.body.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((match) => match[1]);
    expect(stylesheets).toEqual(['/console/theme/tokens.css', '/console/theme/base.css', '/assets/sesame.css']);
    expect(page.body).toContain('<link rel="icon" type="image/svg+xml" href="/console/theme/favicon.svg">');
  }

  it('renders a login form with labelled account and password inputs, a CSRF token and a strict policy', async () => {
    const { page } = await openLoginPage();
    expectStrictPage(page, { passkeyScripts: true });
    expect(page.body).toMatch(/<label for="account">Account<\/label>/);
    expect(page.body).toMatch(/<input id="account" name="account" type="text" autocomplete="username webauthn"/);
    expect(page.body).toMatch(/<label for="password">Password<\/label>/);
    expect(page.body).toMatch(/<input id="password" name="password" type="password" autocomplete="current-password"/);
    expect(csrfTokenOf(page)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(page.body).toContain('<html lang="en">');

  });

  it('serves the shared theme and the pages’ own rules as CSS, and the favicon as SVG', async () => {
    for (const path of ['/console/theme/tokens.css', '/console/theme/base.css', '/assets/sesame.css']) {
      const css = await fetch(`${server.issuer}${path}`);
      expect(css.status, path).toBe(200);
      expect(css.headers.get('content-type'), path).toMatch(/^text\/css/);
      expect(css.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const icon = await fetch(`${server.issuer}/console/theme/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);

    // The pages' stylesheet no longer carries a copy of the theme: the tokens come from tokens.css alone.
    const own = await (await fetch(`${server.issuer}/assets/sesame.css`)).text();
    const tokens = await (await fetch(`${server.issuer}/console/theme/tokens.css`)).text();
    expect(tokens).toContain('--color-accent:');
    expect(own).not.toMatch(/--[a-z-]+\s*:/);
    expect(own).not.toMatch(/^(body|\.auth-card|\.button|\.alert|\.field)\s*\{/m);
  });

  it('says "Wrong account or password" alike for a wrong password, an unknown account and a disabled account', async () => {
    const bodies: string[] = [];
    const disabled = await server.services.users.createUser(fixture.adminActor, { account: 'bob', displayName: 'Bob', password: 'bob-password-1' });
    await server.services.users.updateUser(fixture.adminActor, disabled.subjectId, { status: 'disabled' });
    for (const [account, password] of [[PERSON.account, 'wrong-password'], ['nobody-here', PERSON.password], ['bob', 'bob-password-1']] as const) {
      const { agent, page, action } = await openLoginPage();
      const failed = await agent.request(action, { form: { csrf: csrfTokenOf(page), account, password } });
      expect(failed.status).toBe(401);
      expect(failed.body).toContain('Wrong account or password.');
      expect(failed.body).toContain(`value="${account}"`);
      expect(failed.body).not.toContain(password);
      expect(failed.body).toMatch(/action="\/interaction\/[^"]+\/login"/);
      expectStrictPage(failed, { passkeyScripts: true });
      // The interaction's id differs between attempts: in the form actions and the language switcher's links.
      bodies.push(failed.body.replace(/value="[^"]*"/g, '').replace(/\/interaction\/[^/"?]+[/?]/g, ''));
    }
    expect(new Set(bodies).size).toBe(1);
  });

  it('refuses a login form posted without the page’s CSRF token, or with another page’s', async () => {
    const { agent, action } = await openLoginPage();
    const other = await openLoginPage();
    for (const csrf of [undefined, csrfTokenOf(other.page)]) {
      const form: Record<string, string> = { account: PERSON.account, password: PERSON.password };
      if (csrf) form.csrf = csrf;
      const refused = await agent.request(action, { form });
      expect(refused.status).toBe(403);
      expect(refused.location).toBeNull();
    }
    expect(agent.hasCookie('sesame_session')).toBe(false);
  });

  it('escapes what it shows: a client name with markup appears as text', async () => {
    const project = await server.services.projects.createProject(fixture.adminActor, { name: 'Escaping' });
    const { client } = await server.services.clients.registerClient(fixture.adminActor, project.projectId, {
      clientType: 'spa',
      displayName: '<img src=x onerror=alert(1)> "Tom & Jerry"',
      redirectUris: ['http://127.0.0.1:9/escape/callback'],
      scopeWhitelist: ['openid', 'profile'],
    });
    const { page } = await openLoginPage({ clientId: client.clientId, redirectUri: 'http://127.0.0.1:9/escape/callback', postLogoutRedirectUri: '' });
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;Tom &amp; Jerry&quot;');
    expect(page.body).not.toContain('<img');
  });

  it('shows the consent page with what the client asks for, and refuses a consent posted at the login step', async () => {
    const rp = await fixture.register({ clientType: 'spa' });
    const { agent, page, action } = await openLoginPage(rp);
    const uid = /\/interaction\/([^/]+)\/login/.exec(action)![1]!;
    const early = await agent.request(`/interaction/${uid}/confirm`, { form: { csrf: csrfTokenOf(page) } });
    expect(early.status).toBe(400);

    const consent = await agent.follow(action, { form: { csrf: csrfTokenOf(page), account: PERSON.account, password: PERSON.password } });
    expect(isConsentPage(consent)).toBe(true);
    expectStrictPage(consent);
    expect(consent.body).toContain('See your name and account name');
    expect(consent.body).toContain('Know who you are');
    expect(consent.body).not.toContain('email address');
    expect(consent.body).toContain('Signed in as Alice Example (alice)');
  });

  it('shows an expiry page for an interaction the browser does not hold', async () => {
    const page = await new OidcUserAgent(server.issuer).request('/interaction/not-a-real-one');
    expect(page.status).toBe(400);
    expect(page.body).toContain('This sign-in page has expired');
    expectSharedTheme(page);
    const post = await new OidcUserAgent(server.issuer).request('/interaction/not-a-real-one/login', { form: { account: 'a', password: 'b', csrf: 'c' } });
    expect(post.status).toBe(400);
  });
});
