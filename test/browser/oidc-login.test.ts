import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from '../e2e/support/axe.ts';
import { PERSON } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { useSignInSuite } from '../helpers/sign-in-suite.ts';

describe('signing in with the system Chromium', () => {
  const suite = useSignInSuite({ engine: 'sqlite', relyingParty: { displayName: 'Browser test app', scopes: ['openid', 'profile', 'email'] } });

  it('signs in through the login and consent pages, lands on the redirect URI, and signs out again', async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    const policyViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy|form-action/i.test(message.text())) policyViolations.push(message.text());
    });
    const stylesheetResponses: { path: string; status: number; type: string }[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === suite.server.issuer && url.pathname.endsWith('.css')) {
        stylesheetResponses.push({ path: url.pathname, status: response.status(), type: response.headers()['content-type'] ?? '' });
      }
    });

    const config = await discoverAs(suite.server.issuer, suite.rp);
    const request = await authorizationRequest(config, suite.rp, 'openid profile email');
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
    await page.waitForURL((url) => url.href.startsWith(suite.rp.redirectUri), { timeout: 10_000 });
    expect(await page.getByRole('heading').textContent()).toBe('Relying party at /callback');
    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe(request.state);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));

    const tokens = await redeemCode(config, request, callback.href);
    expect(tokens.claims()!.sub).toBe(suite.fixture.person.subjectId);
    expect((await oidc.fetchUserInfo(config, tokens.access_token, suite.fixture.person.subjectId)).email).toBe('alice@example.edu');

    // RP-initiated logout: the confirmation form's POST ends in a redirect to the application.
    const endSession = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: suite.rp.postLogoutRedirectUri, state: 'after-logout' });
    await page.goto(endSession.href);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.href.startsWith(suite.rp.postLogoutRedirectUri), { timeout: 10_000 });
    expect(new URL(page.url()).searchParams.get('state')).toBe('after-logout');

    expect(policyViolations).toEqual([]);
    await context.close();
  });
});
