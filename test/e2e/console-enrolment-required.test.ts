import { generate } from 'otplib';
import { describe, expect, test } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { openWatchedPage } from './support/browser.ts';
import { signInHere } from './support/console-actions.ts';
import { useConsoleSuite } from './support/console-suite.ts';

// The second-factor policy at the console's door (DESIGN 13): a person it requires to add a factor, who has
// none, signs in and is taken straight to My account's second-factor section; the session may only enrol.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: a sign-in that must enrol a second factor first (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();

  test('goes straight to Second factors, stays there until a new sign-in with the added factor, then opens the console', async () => {
    const { server, browser } = suite;
    const person = await server.createUser('enid', 'Enid Enrol');
    const { version } = await server.services.settings.getSettings(cliActor);
    const everyone = await server.services.settings.updateSettings(cliActor, { mfaRequired: 'everyone', expectedSettingsVersion: version });
    try {
      const { page, problems } = await openWatchedPage(browser);
      await page.goto(server.consoleUrl('/projects'));
      await page.waitForURL(/\/console\/sign-in/);
      await signInHere(page, person.account, person.password);
      await page.waitForURL((url) => url.pathname === '/console/account/security');
      await page.getByText('Your organisation requires a second factor before you can use the console.').waitFor();
      expect(await seriousAccessibilityProblems(page)).toEqual([]);

      // Any other page leads back here: the session may only enrol.
      await page.goto(server.consoleUrl('/projects'));
      await page.waitForURL((url) => url.pathname === '/console/account/security');

      await page.getByRole('button', { name: 'Add an authenticator app' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add an authenticator app' });
      await dialog.getByLabel('Name').fill('Phone');
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
      const secret = await dialog.getByLabel('Secret').inputValue();
      await dialog.getByLabel('Code from the app').fill(await generate({ secret, epoch: Math.floor(server.clock.now() / 1000) }));
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('alertdialog', { name: 'Your recovery codes' }).waitFor();
      await page.getByRole('button', { name: 'I have saved the codes' }).click();
      await page.getByText('Your second factor is added. Sign out and sign in again with it to use the console.').waitFor();
      expect(await seriousAccessibilityProblems(page)).toEqual([]);

      // A new sign-in with the code has every right the person has.
      server.clock.advance(30_000);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/console\/sign-in/);
      await page.getByLabel('Account').fill(person.account);
      await page.getByLabel('Password').fill(person.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel(/code/i).first().fill(await generate({ secret, epoch: Math.floor(server.clock.now() / 1000) }));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
      expect(problems).toEqual([]);
      await page.context().close();
    } finally {
      await server.services.settings.updateSettings(cliActor, { mfaRequired: 'none', expectedSettingsVersion: everyone.version });
    }
  }, 90_000);
});
