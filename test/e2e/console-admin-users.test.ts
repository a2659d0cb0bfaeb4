import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { openWatchedPage } from './support/browser.ts';
import { useConsoleSuite } from './support/console-suite.ts';
import { signIn } from './support/console-actions.ts';
import { ADMIN } from './support/console-server.ts';

// The administrators' page: create, disable and enable, reset password, grant and withdraw admin.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: users page for administrators (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();

  const stored = async (account: string) => {
    const user = await suite.server.services.users.findByAccount(account);
    if (!user) throw new Error(`no user ${account}`);
    return user;
  };

  /** Tries to sign in as someone else in a fresh browser context; returns whether it worked. */
  async function canSignIn(account: string, password: string): Promise<boolean> {
    const other = await openWatchedPage(suite.browser);
    try {
      await other.page.goto(suite.server.consoleUrl('/sign-in'));
      await other.page.getByLabel('Account').fill(account);
      await other.page.getByLabel('Password').fill(password);
      await other.page.getByRole('button', { name: 'Sign in' }).click();
      const outcome = await Promise.race([
        other.page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor().then(() => true),
        other.page.getByRole('alert').waitFor().then(() => false),
      ]);
      if (outcome) expect(await other.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).count()).toBe(0);
      return outcome;
    } finally {
      await other.context.close();
    }
  }

  async function confirm(page: Page, dialogName: string, button: string): Promise<void> {
    const dialog = page.getByRole('alertdialog', { name: dialogName });
    await dialog.getByRole('button', { name: button }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  test('an administrator creates a user, grants and withdraws admin, disables and enables them, and resets their password', async () => {
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), ADMIN.account, ADMIN.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();

    // Their own row offers no way to lock themselves out (editing their own name and email is fine; the admin flag is locked there).
    const ownRow = page.getByRole('row', { name: /Administrator/ });
    await ownRow.waitFor();
    expect(await ownRow.getByRole('button').allTextContents()).toEqual(['Edit', 'Reset password']);

    // Create: a too-short password is refused next to its field; then a good one.
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByLabel('Account').fill('carol');
    await dialog.getByLabel('Display name').fill('Carol New');
    await dialog.getByLabel('Email (optional)').fill('carol@example.org');
    await dialog.getByLabel('Student status').selectOption('active');
    await dialog.getByLabel('Initial password').fill('short');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    const passwordError = dialog.locator('.field-error');
    await passwordError.waitFor();
    expect(await dialog.getByLabel('Initial password').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Initial password').fill('carol-initial-pw');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    const carolRow = page.getByRole('row', { name: /Carol New/ });
    await carolRow.waitFor();
    expect((await stored('carol')).studentStatus).toBe('active');
    expect(await canSignIn('carol', 'carol-initial-pw')).toBe(true);

    // Grant and withdraw admin.
    await carolRow.getByRole('button', { name: 'Make admin: carol' }).click();
    await confirm(page, 'Make this user an administrator?', 'Make admin');
    await carolRow.getByRole('button', { name: 'Withdraw admin from carol' }).waitFor();
    expect((await stored('carol')).isAdmin).toBe(true);
    await carolRow.getByRole('button', { name: 'Withdraw admin from carol' }).click();
    await confirm(page, 'Withdraw admin rights?', 'Withdraw admin');
    await carolRow.getByRole('button', { name: 'Make admin: carol' }).waitFor();
    expect((await stored('carol')).isAdmin).toBe(false);

    // Disable: she can no longer sign in; enable again.
    await carolRow.getByRole('button', { name: 'Disable carol' }).click();
    await confirm(page, 'Disable this user?', 'Disable user');
    await carolRow.getByText('disabled').waitFor();
    expect((await stored('carol')).status).toBe('disabled');
    expect(await canSignIn('carol', 'carol-initial-pw')).toBe(false);
    await carolRow.getByRole('button', { name: 'Enable carol' }).click();
    await confirm(page, 'Enable this user?', 'Enable user');
    await carolRow.getByRole('button', { name: 'Disable carol' }).waitFor();
    expect((await stored('carol')).status).toBe('active');

    // Reset the password: the new one works, the old one does not.
    await carolRow.getByRole('button', { name: 'Reset password of carol' }).click();
    const reset = page.getByRole('dialog', { name: 'New password for carol' });
    await reset.getByLabel('New password').fill('carol-second-pw');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('Set a new password for carol').waitFor();
    expect(await canSignIn('carol', 'carol-initial-pw')).toBe(false);
    expect(await canSignIn('carol', 'carol-second-pw')).toBe(true);

    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  test('someone who is not an administrator finds no users page', async () => {
    const dave = await suite.server.createUser('dave', 'Dave Member');
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), dave.account, dave.password);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).count()).toBe(0);
    await page.goto(suite.server.consoleUrl('/admin/users'));
    await page.getByRole('heading', { level: 1, name: 'No such page' }).waitFor();
    expect(await page.evaluate(() => fetch('/api/management/admin/users').then((r) => r.status))).toBe(403);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
