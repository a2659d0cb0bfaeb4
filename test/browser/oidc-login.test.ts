import { readFileSync } from 'node:fs';
import * as oidc from 'openid-client';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON, setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { startRelyingPartyPages, type RelyingPartyPages } from '../helpers/relying-party-pages.ts';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const axeSource = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** Serious accessibility problems axe-core finds on the page (run through the DevTools protocol, not as a page script). */
async function seriousAccessibilityProblems(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const results = (await page.evaluate(() => (window as unknown as { axe: { run(): Promise<unknown> } }).axe.run())) as {
    violations: { id: string; impact: string | null }[];
  };
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
}

describe('signing in with the system Chromium', () => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let browser: Browser;
  let relyingParty: RelyingPartyPages;
  let rp: RelyingParty;

  beforeAll(async () => {
    server = await startOidcTestServer('sqlite');
    fixture = await setUpOidcFixture(server);

    // The relying party: a tiny server on 127.0.0.1 that shows what it received.
    relyingParty = await startRelyingPartyPages();
    const { origin } = relyingParty;
    const { client, secret } = await server.services.clients.registerClient(fixture.adminActor, fixture.projectId, {
      clientType: 'web',
      displayName: 'Browser test app',
      redirectUris: [`${origin}/callback`],
      postLogoutRedirectUris: [`${origin}/signed-out`],
      scopeWhitelist: ['openid', 'profile', 'email'],
    });
    rp = { clientId: client.clientId, clientSecret: secret!.value, redirectUri: `${origin}/callback`, postLogoutRedirectUri: `${origin}/signed-out` };

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await relyingParty?.close();
    await server?.close();
  });

  it('signs in through the login and consent pages, lands on the redirect URI, and signs out again', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const policyViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy|form-action/i.test(message.text())) policyViolations.push(message.text());
    });
    const stylesheetResponses: { path: string; status: number; type: string }[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === server.issuer && url.pathname.endsWith('.css')) {
        stylesheetResponses.push({ path: url.pathname, status: response.status(), type: response.headers()['content-type'] ?? '' });
      }
    });

    const config = await discoverAs(server.issuer, rp);
    const request = await authorizationRequest(config, rp, 'openid profile email');
    await page.goto(request.url);

    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // One look for pages and console: the console's theme applies, loaded under the page's policy.
    const sheets = await page.evaluate(() => [...document.styleSheets].map((sheet) => ({ path: new URL(sheet.href ?? '').pathname, rules: sheet.cssRules.length })));
    expect(sheets.map((sheet) => sheet.path)).toEqual(['/console/theme/tokens.css', '/console/theme/base.css', '/assets/sesame.css']);
    for (const sheet of sheets) expect(sheet.rules, sheet.path).toBeGreaterThan(0);
    const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
    expect(await signIn.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe('rgb(59, 79, 216)');
    expect(stylesheetResponses.map((response) => response.path).sort()).toEqual(['/assets/sesame.css', '/console/theme/base.css', '/console/theme/tokens.css']);
    for (const response of stylesheetResponses) {
      expect(response.status, response.path).toBe(200);
      expect(response.type, response.path).toMatch(/^text\/css/);
    }
    await page.getByLabel('Account').fill(PERSON.account);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Wrong account or password.');

    await page.getByLabel('Password').fill(PERSON.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
    expect(await page.textContent('body')).toContain('Browser test app');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(rp.redirectUri), { timeout: 10_000 });
    expect(await page.getByRole('heading').textContent()).toBe('Relying party at /callback');
    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe(request.state);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));

    const tokens = await redeemCode(config, request, callback.href);
    expect(tokens.claims()!.sub).toBe(fixture.person.subjectId);
    expect((await oidc.fetchUserInfo(config, tokens.access_token, fixture.person.subjectId)).email).toBe('alice@example.edu');

    // RP-initiated logout: the confirmation form's POST ends in a redirect to the application.
    const endSession = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: rp.postLogoutRedirectUri, state: 'after-logout' });
    await page.goto(endSession.href);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.href.startsWith(rp.postLogoutRedirectUri), { timeout: 10_000 });
    expect(new URL(page.url()).searchParams.get('state')).toBe('after-logout');

    expect(policyViolations).toEqual([]);
    await context.close();
  });
});
