import { describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { openWatchedPage, PHONE } from './support/browser.ts';
import { useConsoleSuite } from './support/console-suite.ts';
import { signInHere } from './support/console-actions.ts';
import { ADMIN } from './support/console-server.ts';
import { consoleActor } from './support/seed.ts';
import { saveScreenshot } from './support/screenshots.ts';

// The console in English and Simplified Chinese: it follows the browser until the person picks a
// language, which it saves on their account (PUT /account/locale) and applies at once.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: languages (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();

  const htmlLang = (page: import('playwright-core').Page) => page.evaluate(() => document.documentElement.lang);

  test('a Chinese browser gets the sign-in page in Chinese; a picked language is saved and comes back after reloading', async () => {
    const user = await suite.server.createUser('lin', 'Lin');
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await context.setExtraHTTPHeaders({ 'accept-language': 'zh-CN' });
    await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['zh-CN', 'zh'], configurable: true }));
    await page.goto(suite.server.consoleUrl());
    await page.getByRole('heading', { name: '登录控制台' }).waitFor();
    expect(await htmlLang(page)).toBe('zh-CN');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await saveScreenshot(page, 'console-zh-CN-sign-in');

    // The sign-in page's own switcher: English at once, remembered in this suite.browser.
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
    await expect.poll(async () => (await suite.server.services.users.getUser(user.subjectId))?.locale).toBe('zh-CN');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await saveScreenshot(page, 'console-zh-CN-projects');
    await page.setViewportSize(PHONE);
    await saveScreenshot(page, 'console-zh-CN-projects');

    // Without the browser's cookie and with an English suite.browser, the saved language still decides.
    await context.clearCookies({ name: 'sesame_lang' });
    await context.setExtraHTTPHeaders({ 'accept-language': 'en' });
    await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['en-US', 'en'], configurable: true }));
    await page.reload();
    await page.getByRole('button', { name: '退出登录' }).waitFor();
    expect(await htmlLang(page)).toBe('zh-CN');
    expect(problems).toEqual([]);
    await context.close();
  });

  /**
   * English left on the page (or a part of it): runs of two or more English words in what a person reads, and raw
   * catalogue keys. Code, field values, the language menu and the audit log's recorded values are data, and so are
   * host names like example.edu; names of protocols and products, never translated, are allowed.
   */
  const englishOn = (page: import('playwright-core').Page, within = 'body') =>
    page.evaluate((within) => {
      const skipped = 'code, pre, noscript, script, style, select, .language-switcher, .change-list';
      const texts: string[] = [];
      const root = document.querySelector(within) ?? document.body;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (parent && !parent.closest(skipped) && parent.checkVisibility()) texts.push(node.textContent ?? '');
      }
      for (const element of root.querySelectorAll('[aria-label], [title], [placeholder]')) {
        if (!element.closest(skipped)) texts.push(...['aria-label', 'title', 'placeholder'].map((name) => element.getAttribute(name) ?? ''));
      }
      const words = texts.join('\n').replace(/OpenID Connect( Core)?|Agent API|HTTP Basic|Claude Code|VS Code|(Google|Microsoft) Authenticator/g, '');
      return [...(words.match(/(?<![\w.])[A-Za-z]{2,}(?:[ ,:;()]+[A-Za-z]{2,})+(?!\w|\.\w)/g) ?? []), ...(words.match(/\bconsole\.[a-z][\w.]+/g) ?? [])];
    }, within);

  test('an administrator walks the console in Chinese: no English left on the admin pages, their dialogs and a project', async () => {
    const admin = (await suite.server.services.users.findByAccount(ADMIN.account))!;
    const member = await suite.server.createUser('mei', 'Mei');
    const owner = consoleActor(admin.subjectId);
    const project = await suite.server.services.projects.createProject(owner, { name: '图书馆', description: '借阅系统' });
    const { client } = await suite.server.services.clients.registerClient(owner, project.projectId, {
      clientType: 'web',
      displayName: '借阅后台',
      redirectUris: ['https://library.example/callback'],
      scopeWhitelist: ['openid', 'profile', 'offline_access'],
    });
    await suite.server.services.members.addMember(owner, project.projectId, { subjectId: member.subjectId, role: 'maintainer', expectedProjectVersion: project.version });

    const { page, context, problems } = await openWatchedPage(suite.browser);
    await context.addCookies([{ name: 'sesame_lang', value: 'zh-CN', url: suite.server.issuer }]);
    await page.goto(suite.server.consoleUrl());
    await page.getByRole('heading', { name: '登录控制台' }).waitFor();
    await page.getByLabel('账号').fill(ADMIN.account);
    await page.getByLabel('密码').fill(ADMIN.password);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: '项目' }).waitFor();

    const visit = async (path: string, heading: string, level: 1 | 2 = 1) => {
      await page.goto(suite.server.consoleUrl(path));
      await page.getByRole('heading', { level, name: heading }).first().waitFor();
      await page.waitForLoadState('networkidle');
    };
    const leftOn: Record<string, string[]> = {};
    const check = async (name: string, within?: string) => {
      const english = await englishOn(page, within);
      if (english.length > 0) leftOn[name] = english;
    };

    await visit('/admin/users', '用户');
    await check('users');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await saveScreenshot(page, 'console-zh-CN-users');
    await page.getByRole('button', { name: '新建用户' }).click();
    await page.getByRole('dialog', { name: '新建用户' }).waitFor();
    await check('new user dialog');
    await page.getByRole('button', { name: '取消' }).click();
    await page.getByRole('button', { name: `重置密码：${member.account}` }).click();
    await page.getByRole('dialog').waitFor();
    await check('reset password dialog');
    await page.getByRole('button', { name: '取消' }).click();

    await page.getByRole('button', { name: `编辑 ${member.account}` }).click();
    await page.getByRole('dialog', { name: `编辑 ${member.account}` }).waitFor();
    await check('edit person dialog');
    await page.getByRole('dialog').getByRole('button', { name: '取消' }).click();
    await page.getByRole('button', { name: `重置第二验证因素：${member.account}` }).click();
    await page.getByRole('alertdialog').waitFor();
    await check('reset factors dialog');
    await page.getByRole('button', { name: '取消' }).click();
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await page.getByLabel('按账号、姓名或邮箱查找用户').fill('mei');
    await page.getByRole('button', { name: '搜索', exact: true }).click();
    await page.getByRole('navigation', { name: '用户列表分页' }).waitFor();
    await check('people search');

    await visit('/admin/settings', '安全策略');
    await check('security policy');
    await visit('/admin/audit', '审计日志');
    await page.getByRole('table', { name: '管理员审计日志，第 1 页' }).waitFor();
    await check('administrators\' audit log');
    await saveScreenshot(page, 'console-zh-CN-admin-audit');

    await visit('/admin/assistant-grants', '助手授权');
    await check('assistant grants');
    await visit('/admin/identity-providers', '身份提供方');
    await check('identity providers');
    await page.getByRole('button', { name: '添加身份提供方' }).click();
    const dialog = page.getByRole('dialog', { name: '添加身份提供方' });
    await dialog.waitFor();
    await check('identity provider dialog (OpenID Connect)');
    await dialog.getByLabel('类型').selectOption('ldap');
    await dialog.getByLabel('目录 URL').waitFor();
    await check('identity provider dialog (LDAP)');
    await dialog.getByRole('button', { name: '取消' }).click();

    const base = `/projects/${encodeURIComponent(project.projectId)}`;
    await visit(`${base}/clients/${encodeURIComponent(client.clientId)}`, '借阅后台', 2);
    await page.getByRole('heading', { name: '用此客户端让用户登录' }).waitFor();
    await check('client');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: '终止全部令牌' }).click();
    await page.getByRole('alertdialog').waitFor();
    await check('end tokens dialog');
    await page.getByRole('button', { name: '取消' }).click();
    await page.getByRole('button', { name: '删除客户端' }).click();
    await page.getByRole('alertdialog').waitFor();
    await check('delete client dialog');
    await page.getByRole('button', { name: '取消' }).click();
    await saveScreenshot(page, 'console-zh-CN-client');

    for (const [section, name] of [['clients', '客户端'], ['members', '成员'], ['audit', '审计日志'], ['settings', '设置']] as const) {
      await visit(`${base}/${section}`, '图书馆');
      await page.getByRole('heading', { level: 2, name }).waitFor();
      await check(section);
    }

    await visit(`${base}/clients/new`, '图书馆');
    await page.getByRole('heading', { level: 2, name: '注册客户端' }).waitFor();
    await check('register client');

    // My account, every section.
    for (const [path, name] of [['/account', '密码和邮箱'], ['/account/sessions', '会话'], ['/account/applications', '应用和助手'], ['/account/security', '第二重验证'], ['/account/identities', '已关联的身份']] as const) {
      await visit(path, '我的账户');
      await page.getByRole('heading', { level: 2, name }).first().waitFor();
      await check(path);
    }
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.goto(suite.server.consoleUrl('/account/security'));
    await page.getByRole('button', { name: '添加身份验证器应用' }).click();
    await page.getByRole('dialog', { name: '添加身份验证器应用' }).waitFor();
    await check('add authenticator dialog');

    expect(leftOn).toEqual({});
    expect(problems).toEqual([]);
    await context.close();
  });
});
