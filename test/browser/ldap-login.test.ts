import type { Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAccessibilityProblems } from '../e2e/support/axe.ts';
import { saveScreenshot } from '../e2e/support/screenshots.ts';
import { PERSON } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { PEOPLE_DN, SERVICE_BIND, SLAPD_AVAILABLE, startTestDirectory, type TestDirectory } from '../helpers/slapd.ts';
import { useSignInSuite } from '../helpers/sign-in-suite.ts';

const ADA = { uid: 'ada', cn: 'Ada Lovelace', mail: 'ada@example.org', password: 'analytical-engine-1843' };

/** A directory person signs in with the system Chromium from the keyboard; with the directory stopped, the page says so. */
describe.skipIf(!SLAPD_AVAILABLE)('signing in through an LDAP directory with the system Chromium', () => {
  const suite = useSignInSuite({ engine: 'sqlite', relyingParty: { displayName: 'Directory test app', scopes: ['openid', 'profile', 'email'] } });
  let directory: TestDirectory;

  beforeAll(async () => {
    directory = await startTestDirectory();
    await directory.addPerson(ADA);
    await suite.server.services.identityProviders.addProvider(suite.fixture.adminActor, {
      type: 'ldap',
      name: 'example-ldap',
      displayName: 'Example directory',
      provisioning: 'create',
      ldap: { url: directory.url, bindDn: SERVICE_BIND.dn, bindPassword: SERVICE_BIND.password, userSearchBase: PEOPLE_DN },
    });
  });

  afterAll(async () => {
    await directory?.close();
  });

  it('signs a directory person in to the relying party from the keyboard, and shows a clear, accessible page while the directory is down', async () => {
    const context = await suite.browser.newContext();
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const config = await discoverAs(suite.server.issuer, suite.rp);

    await directory.stop();
    try {
      await page.goto((await authorizationRequest(config, suite.rp, 'openid profile')).url);
      await page.getByLabel('Account').fill(ADA.uid);
      await page.getByLabel('Password').fill(ADA.password);
      // The sign-in form's answer, not the passkey autofill's request for options, which the page may send at any time.
      const signInAnswer = (response: Response) => response.request().method() === 'POST' && /\/interaction\/[^/]+\/login$/.test(new URL(response.url()).pathname);
      const [answer] = await Promise.all([page.waitForResponse(signInAnswer), page.getByLabel('Password').press('Enter')]);
      expect(answer.status()).toBe(503);
      expect(Number(answer.headers()['retry-after'])).toBeGreaterThan(0);
      const alert = page.getByRole('alert');
      expect(await alert.textContent()).toContain('directory');
      expect(await page.getByLabel('Account').inputValue()).toBe(ADA.uid);
      expect(await seriousAccessibilityProblems(page)).toEqual([]);
      await saveScreenshot(page, 'login-directory-unavailable');

      // A local account signs in meanwhile.
      await page.getByLabel('Account').fill(PERSON.account);
      await page.getByLabel('Password').fill(PERSON.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
    } finally {
      await directory.start();
    }

    await context.close();
    // A browser of its own: the first one holds the local person's session now.
    const second = await suite.browser.newContext();
    second.setDefaultTimeout(15_000);
    const fresh = await second.newPage();
    const request = await authorizationRequest(config, suite.rp, 'openid profile email');
    await fresh.goto(request.url);
    await fresh.getByLabel('Account').fill(ADA.uid);
    await fresh.getByLabel('Password').fill(ADA.password);
    await fresh.getByLabel('Password').press('Enter');
    await fresh.getByRole('heading', { name: 'Allow access?' }).waitFor();
    await fresh.getByRole('button', { name: 'Allow' }).click();
    await fresh.waitForURL((url) => url.href.startsWith(suite.rp.redirectUri), { timeout: 10_000 });
    const tokens = await redeemCode(config, request, fresh.url());
    expect(tokens.claims()!.sub).toBe((await suite.server.services.users.findByAccount('ada'))!.subjectId);
    await second.close();
  });
});
