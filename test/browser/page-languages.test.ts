import { request } from 'node:http';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent } from '../helpers/oidc-user-agent.ts';
import { seriousAccessibilityProblems } from '../e2e/support/axe.ts';
import { DESKTOP, launchBrowser, PHONE } from '../e2e/support/browser.ts';
import { saveScreenshot } from '../e2e/support/screenshots.ts';

/**
 * DESIGN section 12 in a real browser: the login and consent pages speak Chinese for `ui_locales=zh-CN`
 * and, separately, for `Accept-Language: zh-CN`; `*`, another language or no header give English.
 * Each page passes axe in both languages, and is pictured at desktop and phone sizes.
 */
describe('sign-in pages in English and Simplified Chinese (Chromium)', () => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let browser: Browser;

  beforeAll(async () => {
    server = await startOidcTestServer('sqlite');
    fixture = await setUpOidcFixture(server);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const authUrl = async (extra: Record<string, string> = {}) => (await authorizationRequest(await discoverAs(server.issuer, fixture.web), fixture.web, 'openid profile email', extra)).url;

  async function openLogin(options: BrowserContextOptions, extra: Record<string, string> = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: DESKTOP, ...options });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(await authUrl(extra));
    return page;
  }

  const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

  /** Axe in this language, and a picture at both sizes. */
  async function checkAndPicture(page: Page, name: string) {
    expect(await seriousAccessibilityProblems(page), name).toEqual([]);
    await saveScreenshot(page, name);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name} fits a phone`).toBe(true);
    await saveScreenshot(page, name);
    await page.setViewportSize(DESKTOP);
  }

  async function expectChineseLoginThenConsent(page: Page, name: string) {
    expect(await htmlLang(page)).toBe('zh-CN');
    await page.getByRole('heading', { name: '登录' }).waitFor();
    expect(await page.title()).toBe('登录 · Sesame');
    await checkAndPicture(page, `${name}-login`);

    await page.getByLabel('账号').fill(PERSON.account);
    await page.getByLabel('密码').fill('not the password');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('账号或密码错误。请检查后重试。');
    expect(await htmlLang(page)).toBe('zh-CN');

    await page.getByLabel('密码').fill(PERSON.password);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('heading', { name: '是否允许访问？' }).waitFor();
    expect(await htmlLang(page)).toBe('zh-CN');
    const body = (await page.textContent('body')) ?? '';
    expect(body).toContain('查看你的电子邮箱地址及其是否已验证');
    expect(body).toContain('Imported web app');
    expect(await page.getByRole('button', { name: '允许' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: '拒绝' }).isVisible()).toBe(true);
    await checkAndPicture(page, `${name}-consent`);
    await page.context().close();
  }

  it('speaks Chinese for ui_locales=zh-CN to an English browser', async () => {
    const page = await openLogin({ locale: 'en-US' }, { ui_locales: 'zh-CN' });
    await expectChineseLoginThenConsent(page, 'oidc-zh-CN-ui-locales');
  });

  it('speaks Chinese for Accept-Language: zh-CN without ui_locales', async () => {
    const page = await openLogin({ locale: 'zh-CN', extraHTTPHeaders: { 'accept-language': 'zh-CN,zh;q=0.9' } });
    await expectChineseLoginThenConsent(page, 'oidc-zh-CN-accept-language');
  });

  it('speaks English for Accept-Language * or fr, and the English pages pass axe too', async () => {
    for (const header of ['*', 'fr-FR,fr;q=0.9']) {
      const page = await openLogin({ locale: 'en-US', extraHTTPHeaders: { 'accept-language': header } });
      expect(await htmlLang(page), header).toBe('en');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      if (header === '*') {
        await checkAndPicture(page, 'oidc-en-login');
        await page.getByLabel('Account').fill(PERSON.account);
        await page.getByLabel('Password').fill(PERSON.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
        expect(await htmlLang(page)).toBe('en');
        await checkAndPicture(page, 'oidc-en-consent');
      }
      await page.context().close();
    }
  });

  it('speaks English when no Accept-Language is sent at all', async () => {
    // fetch adds `Accept-Language: *` on its own; node:http sends only what it is given.
    const agent = new OidcUserAgent(server.issuer);
    const login = await agent.follow(await authUrl());
    expect(login.body).toContain('<html lang="en">');
    const url = new URL(login.url);
    const bare = await new Promise<{ status: number; body: string; headers: string[] }>((resolve, reject) => {
      request(url, { headers: { cookie: agent.cookieHeader(url) } }, (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.rawHeaders }));
      }).on('error', reject).end();
    });
    expect(bare.headers.map((h) => h.toLowerCase())).not.toContain('accept-language');
    expect(bare.status).toBe(200);
    expect(bare.body).toContain('<html lang="en">');
    expect(bare.body).toContain('<h1 id="page-title">Sign in</h1>');
  });

  it('switches language from the keyboard with the switcher, and keeps the choice through a failed sign-in', async () => {
    const page = await openLogin({ locale: 'en-US' });
    expect(await htmlLang(page)).toBe('en');
    const switcher = page.getByRole('navigation', { name: 'Language' });
    const chinese = switcher.getByRole('link', { name: '简体中文' });
    await chinese.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: '登录' }).waitFor();
    expect(await htmlLang(page)).toBe('zh-CN');
    expect(await page.getByRole('navigation', { name: '语言' }).getByRole('link', { name: '简体中文' }).getAttribute('aria-current')).toBe('true');

    await page.getByLabel('账号').fill(PERSON.account);
    await page.getByLabel('密码').fill('still not the password');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('alert').waitFor();
    expect(await htmlLang(page)).toBe('zh-CN');

    // Back to English the same way; the choice outranks the browser's Accept-Language.
    await page.getByRole('navigation', { name: '语言' }).getByRole('link', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await htmlLang(page)).toBe('en');
    await page.context().close();
  });
});
