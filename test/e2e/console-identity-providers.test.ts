import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { DESKTOP, openWatchedPage, PHONE } from './support/browser.ts';
import { signIn } from './support/console-actions.ts';
import { ADMIN } from './support/console-server.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { useConsoleSuite } from './support/console-suite.ts';

const BIND_PASSWORD = 'directory bind password typed once';

// The administrators' Identity providers page: add, change and remove, secrets write-only, at a desktop and a
// phone size, axe-clean, with screenshots; hidden from everyone else.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: identity providers (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();
  let person: { account: string; password: string };

  beforeAll(async () => {
    person = await suite.server.createUser('piper', 'Piper Person');
  }, 120_000);

  const check = async (page: Page, name: string) => {
    expect(await seriousAccessibilityProblems(page), `axe on ${name}`).toEqual([]);
    expect(await page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth)), `sideways overflow on ${name}`).toBe(0);
    await saveScreenshot(page, name);
  };

  for (const viewport of [DESKTOP, PHONE]) {
    test(`an administrator adds, changes and removes providers at ${viewport.width}x${viewport.height}`, async () => {
      const { page, context, problems, apiBodies } = await openWatchedPage(suite.browser, viewport);
      const suffix = viewport === DESKTOP ? 'desk' : 'phone';
      await signIn(page, suite.server.consoleUrl(), ADMIN.account, ADMIN.password);
      if (viewport === DESKTOP) await page.getByRole('link', { name: 'Identity providers' }).click();
      else await page.goto(suite.server.consoleUrl('/admin/identity-providers'));
      await page.getByRole('heading', { level: 1, name: 'Identity providers' }).waitFor();
      await check(page, 'admin-identity-providers');

      await page.getByRole('button', { name: 'Add identity provider' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add identity provider' });
      await dialog.getByLabel('Issuer URL').fill('http://127.0.0.1:9/nothing-listens-here');
      await dialog.getByLabel('Name', { exact: true }).fill(`campus-${suffix}`);
      await dialog.getByLabel('Display name', { exact: true }).fill('Campus login');
      await dialog.getByLabel('Client id at the provider').fill('sesame');
      await dialog.getByRole('button', { name: 'Add provider' }).click();
      await dialog.getByText(/discovery failed/).waitFor();
      await check(page, 'admin-identity-providers-add-oidc-error');

      await dialog.getByLabel('Type', { exact: true }).selectOption('ldap');
      await dialog.getByLabel('Directory URL').fill('ldaps://ldap.example.edu');
      await dialog.getByLabel('Bind DN').fill('cn=sesame,dc=example,dc=edu');
      await dialog.getByLabel('Bind password').fill(BIND_PASSWORD);
      await dialog.getByLabel('User search base').fill('ou=people,dc=example,dc=edu');
      await dialog.getByLabel('Name', { exact: true }).fill(`directory-${suffix}`);
      await dialog.getByLabel('Display name', { exact: true }).fill('Campus directory');
      await dialog.getByRole('button', { name: 'Add provider' }).click();
      await page.getByRole('status').getByText('Added Campus directory.').waitFor();
      const row = page.getByRole('row', { name: new RegExp(`directory-${suffix}`) });
      await row.waitFor();
      expect(await row.textContent()).toContain('secret stored');
      await check(page, 'admin-identity-providers-list');

      await page.getByRole('button', { name: 'Change Campus directory' }).first().click();
      const edit = page.getByRole('dialog', { name: 'Change Campus directory' });
      expect(await edit.getByLabel('Bind password').inputValue()).toBe('');
      await edit.getByText('Leave empty to keep the stored one.').waitFor();
      await check(page, 'admin-identity-providers-change');
      await edit.getByLabel('Display name', { exact: true }).fill(`Directory ${suffix}`);
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').getByText(`Saved Directory ${suffix}.`).waitFor();
      const stored = await suite.server.services.identityProviders.listProviders({ subjectId: null, isAdmin: true, surface: 'cli', ip: null });
      expect(stored.find((p) => p.name === `directory-${suffix}`)).toMatchObject({ displayName: `Directory ${suffix}`, version: 2, hasBindPassword: true });

      await page.getByRole('button', { name: `Remove Directory ${suffix}` }).click();
      await page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Remove this identity provider?' })).getByRole('button', { name: 'Remove provider' }).click();
      await page.getByRole('status').getByText(`Removed Directory ${suffix}.`).waitFor();
      expect(await page.getByRole('row', { name: new RegExp(`directory-${suffix}`) }).count()).toBe(0);

      expect(apiBodies.join('\n')).not.toContain(BIND_PASSWORD);
      expect(problems).toEqual([]);
      await context.close();
    }, 90_000);
  }

  test('a person who is not an administrator sees neither the link nor the page', async () => {
    const { page, context } = await openWatchedPage(suite.browser, DESKTOP);
    await signIn(page, suite.server.consoleUrl(), person.account, person.password);
    expect(await page.getByRole('link', { name: 'Identity providers' }).count()).toBe(0);
    await page.goto(suite.server.consoleUrl('/admin/identity-providers'));
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('heading', { level: 1, name: 'Identity providers' }).count()).toBe(0);
    await context.close();
  });
});
