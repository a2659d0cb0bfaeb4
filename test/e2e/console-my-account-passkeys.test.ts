import type { CDPSession, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { DESKTOP, openWatchedPage, PHONE } from './support/browser.ts';
import { signInHere } from './support/console-actions.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { useConsoleSuite } from './support/console-suite.ts';

/** Chromium's WebAuthn virtual authenticator: a platform authenticator with discoverable credentials that verifies the person. */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { cdp, authenticatorId };
}

// A passkey registered from My account with @simplewebauthn/browser (bundled into the console), then used
// alone at a relying party's sign-in, and removed. WebAuthn refuses an IP address as relying-party ID, so
// this server's issuer is http://localhost:PORT.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: My account passkeys (SQLite, Chromium virtual authenticator)', () => {
  const suite = useConsoleSuite({ issuerHost: 'localhost' });
  let fixture: OidcFixture;

  beforeAll(async () => {
    fixture = await setUpOidcFixture(suite.server);
  });

  test('register a passkey from My account, sign out, sign in to a relying party with the passkey alone, remove it', async () => {
    const person = await suite.server.createUser('pia', 'Pia Passkey');
    const { page, context, problems } = await openWatchedPage(suite.browser, DESKTOP);
    await context.route(/^http:\/\/127\.0\.0\.1:9\//, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'relying party' }));
    // The virtual authenticator answers the login page's autofill (conditional) request by itself, at once;
    // this browser reports no autofill, so the "Sign in with a passkey" button is what signs in.
    await page.addInitScript(() => {
      if ('PublicKeyCredential' in window) PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    });
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    const check = async (name: string) => {
      expect(await seriousAccessibilityProblems(page), `axe on ${name}`).toEqual([]);
      await saveScreenshot(page, name);
    };

    await page.goto(suite.server.consoleUrl('/sign-in'));
    await signInHere(page, person.account, person.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My account' }).click();
    await page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Second factors' }).click();
    await page.getByText('You sign in with your password alone.').waitFor();

    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByLabel('Name').fill('Laptop');
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await check('my-account-add-passkey-dialog');
    }
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Create passkey' }).click();
    // The first factor brings the recovery codes, shown once.
    const codesDialog = page.getByRole('alertdialog', { name: 'Your recovery codes' });
    await codesDialog.waitFor();
    const recoveryCodes = await codesDialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await codesDialog.getByRole('button', { name: 'I have saved the codes' }).click();
    await codesDialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('table', { name: 'My second factors' }).getByRole('row', { name: /Laptop/ });
    await row.waitFor();
    expect(await row.getByText('passkey', { exact: true }).count()).toBe(1);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    expect(credentials[0]?.rpId).toBe('localhost');
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await check('my-account-factors-passkey');
    }
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in/);

    // The relying party: no account typed, no password; the passkey alone.
    const config = await discoverAs(suite.server.issuer, fixture.web);
    const request = await authorizationRequest(config, fixture.web, 'openid profile');
    await page.goto(request.url);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: 'Allow', exact: true }).click();
    await page.waitForURL((url) => url.href.startsWith(fixture.web.redirectUri));
    const tokens = await redeemCode(config, request, page.url());
    expect(tokens.claims()?.sub).toBe(person.subjectId);
    expect(tokens.claims()?.amr).toEqual(expect.arrayContaining(['hwk', 'mfa']));
    expect(tokens.claims()?.amr).not.toContain('pwd');
    expect(tokens.claims()?.acr).toBe('mfa');

    // Back in the console (password and a recovery code), the passkey is removed with the current password.
    await page.goto(suite.server.consoleUrl('/account/security'));
    await page.waitForURL(/\/console\/sign-in/);
    await page.getByLabel('Account').fill(person.account);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('One-time code').fill(recoveryCodes[0]!);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await row.waitFor();
    await page.getByRole('button', { name: 'Remove Laptop' }).click();
    const remove = page.getByRole('alertdialog', { name: 'Remove Laptop?' });
    await remove.getByLabel('Current password').fill(person.password);
    await remove.getByRole('button', { name: 'Remove' }).click();
    await remove.waitFor({ state: 'hidden' });
    await page.getByText('You sign in with your password alone.').waitFor();
    expect((await suite.server.services.factors.listFactors({ subjectId: person.subjectId, isAdmin: false, surface: 'console', ip: null })).factors).toEqual([]);

    // The authenticator still holds the credential, but Sesame no longer accepts it.
    const again = await authorizationRequest(config, fixture.web, 'openid profile', { prompt: 'login' });
    await page.goto(again.url);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').filter({ hasText: 'did not sign you in' }).waitFor();
    expect(page.url().startsWith(fixture.web.redirectUri)).toBe(false);

    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
