import { describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { openWatchedPage } from './support/browser.ts';
import { useConsoleSuite } from './support/console-suite.ts';
import { focused, tabTo } from './support/keyboard.ts';

// Everything works from the keyboard; focus goes where the content changed and comes back from dialogs.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: keyboard and focus (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();

  test('sign in, create a project and register a client with the keyboard alone', async () => {
    const user = await suite.server.createUser('kim', 'Kim Keys');
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await page.goto(suite.server.consoleUrl());
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();

    await tabTo(page, 'input:Account');
    await page.keyboard.type(user.account);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('input:Password');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await expect.poll(() => focused(page)).toBe('h1:Projects');

    // The skip link leads past the navigation.
    await page.keyboard.press('Shift+Tab');
    await tabTo(page, 'a:Skip to content');
    await page.keyboard.press('Enter');
    await tabTo(page, 'button:New project', 3);

    // A dialog takes focus to its first field, keeps it inside, and Escape gives it back to the opener.
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('input:Name');
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('button:New project');

    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('input:Name');
    await page.keyboard.type('Keyboard project');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Keyboard project' }).waitFor();
    await expect.poll(() => focused(page)).toBe('h2:Clients');

    await tabTo(page, 'a:Register client');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('h2:Register a client');
    // The client type is a radio group: arrow keys choose, and the form follows the choice.
    await tabTo(page, 'input:');
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: /Single-page/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /Require PKCE/ }).isDisabled()).toBe(true);
    await tabTo(page, 'input:Display name');
    await page.keyboard.type('Keyboard app');
    await tabTo(page, 'textarea:Redirect URIs');
    await page.keyboard.type('https://keys.example/callback');
    await tabTo(page, 'button:Register client');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Keyboard app' }).waitFor();
    await expect.poll(() => focused(page)).toBe('h2:Keyboard app');

    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
