import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { launchBrowser, openWatchedPage, PHONE } from './support/browser.ts';
import { signInHere } from './support/console-actions.ts';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { saveScreenshot } from './support/screenshots.ts';

// The console in English and Simplified Chinese: it follows the browser until the person picks a
// language, which it saves on their account (PUT /account/locale) and applies at once.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: languages (SQLite, Chromium)', () => {
  let server: ConsoleServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startConsoleServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const htmlLang = (page: import('playwright-core').Page) => page.evaluate(() => document.documentElement.lang);

  test('a Chinese browser gets the sign-in page in Chinese; a picked language is saved and comes back after reloading', async () => {
    const user = await server.createUser('lin', 'Lin');
    const { page, context, problems } = await openWatchedPage(browser);
    await context.setExtraHTTPHeaders({ 'accept-language': 'zh-CN' });
    await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['zh-CN', 'zh'], configurable: true }));
    await page.goto(server.consoleUrl());
    await page.getByRole('heading', { name: '登录控制台' }).waitFor();
    expect(await htmlLang(page)).toBe('zh-CN');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await saveScreenshot(page, 'console-zh-CN-sign-in');

    // The sign-in page's own switcher: English at once, remembered in this browser.
    await page.getByLabel('语言').selectOption('en');
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    expect(await htmlLang(page)).toBe('en');
    await signInHere(page, user.account, user.password);
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();

    // Chosen in the shell: the navigation speaks Chinese, and the choice is saved on the account.
    await page.getByLabel('Language').selectOption('zh-CN');
    await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '项目' }).waitFor();
    await page.getByRole('heading', { level: 1, name: '项目' }).waitFor();
    expect(await page.getByRole('button', { name: '新建项目' }).isVisible()).toBe(true);
    expect(await htmlLang(page)).toBe('zh-CN');
    await expect.poll(async () => (await server.services.users.getUser(user.subjectId))?.locale).toBe('zh-CN');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await saveScreenshot(page, 'console-zh-CN-projects');
    await page.setViewportSize(PHONE);
    await saveScreenshot(page, 'console-zh-CN-projects');

    // Without the browser's cookie and with an English browser, the saved language still decides.
    await context.clearCookies({ name: 'sesame_lang' });
    await context.setExtraHTTPHeaders({ 'accept-language': 'en' });
    await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['en-US', 'en'], configurable: true }));
    await page.reload();
    await page.getByRole('button', { name: '退出登录' }).waitFor();
    expect(await htmlLang(page)).toBe('zh-CN');
    expect(problems).toEqual([]);
    await context.close();
  });
});
