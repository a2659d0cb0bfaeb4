import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { DESKTOP, openWatchedPage, PHONE } from './support/browser.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { useConsoleSuite } from './support/console-suite.ts';

const helperSource = readFileSync(join(dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');

// The console's sign-in page with a passkey (Chromium's virtual authenticator): signs in, and refuses a removed passkey.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: signing in with a passkey (SQLite, Chromium)', () => {
  const suite = useConsoleSuite({ issuerHost: 'localhost' });

  test('adds a passkey through the operations, signs in to the console with it alone, and not once it is removed', async () => {
    const person = await suite.server.createUser('pia', 'Pia Passkey');
    const { page, context, problems } = await openWatchedPage(suite.browser);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await page.goto(suite.server.consoleUrl('/'));
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();

    // The helper is evaluated through the DevTools protocol: the console bundles its own copy for its button.
    await page.evaluate(helperSource);
    // Adding a passkey is the person's alone, in a console session of their browser (DESIGN.md section 14);
    // that session signs out again, so the passkey alone signs in below.
    const added = await page.evaluate(async (credentials) => {
      const json = { 'content-type': 'application/json' };
      const context = await (await fetch('/api/management/auth/context')).json();
      const login = await (await fetch('/api/management/auth/login', { method: 'POST', headers: { ...json, 'x-csrf-token': context.csrfToken }, body: JSON.stringify(credentials) })).json();
      const auth = { 'x-csrf-token': login.csrfToken as string };
      const optionsJSON = await (await fetch('/api/management/account/factors/passkeys/options', { method: 'POST', headers: auth })).json();
      const helper = (window as unknown as { SimpleWebAuthnBrowser: { startRegistration(input: { optionsJSON: unknown }): Promise<unknown> } }).SimpleWebAuthnBrowser;
      const response = await helper.startRegistration({ optionsJSON });
      const answer = await fetch('/api/management/account/factors/passkeys', { method: 'POST', headers: { ...json, ...auth }, body: JSON.stringify({ name: 'Laptop', response }) });
      await fetch('/api/management/auth/logout', { method: 'POST', headers: auth });
      return { status: answer.status, body: await answer.json() };
    }, { account: person.account, password: person.password });
    expect(added.status).toBe(201);

    await page.reload();
    const button = page.getByRole('button', { name: 'Use a passkey' });
    await button.waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await saveScreenshot(page, 'console-sign-in-with-passkey');
    }
    await page.setViewportSize(DESKTOP);
    await button.click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    const me = await page.evaluate(async () => (await (await fetch('/api/management/auth/me')).json()) as { user: { account: string } });
    expect(me.user.account).toBe(person.account);

    const removed = await page.evaluate(
      async ({ factorId, currentPassword }) => {
        const { csrfToken } = await (await fetch('/api/management/auth/context')).json();
        return (await fetch(`/api/management/account/factors/${factorId}`, { method: 'DELETE', headers: { 'x-csrf-token': csrfToken, 'content-type': 'application/json' }, body: JSON.stringify({ currentPassword }) })).status;
      },
      { factorId: added.body.factor.factorId as string, currentPassword: person.password },
    );
    expect(removed).toBe(204);
    await context.clearCookies();
    await page.goto(suite.server.consoleUrl('/sign-in'));
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('Your passkey did not sign you in');
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    expect(problems).toEqual([]);
    await context.close();
  });
});
