import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { openWatchedPage, PHONE } from './support/browser.ts';
import { signIn } from './support/console-actions.ts';
import { useConsoleSuite } from './support/console-suite.ts';
import { ADMIN } from './support/console-server.ts';
import { focused, tabTo } from './support/keyboard.ts';
import { saveScreenshot } from './support/screenshots.ts';

/** Runs of two or more English words a person reads on the page (code and the language menu are data). */
const englishOn = (page: Page) =>
  page.evaluate(() => {
    const skipped = 'code, pre, noscript, script, style, select, .language-switcher';
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent && !parent.closest(skipped) && parent.checkVisibility()) texts.push(node.textContent ?? '');
    }
    for (const element of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      if (!element.closest(skipped)) texts.push(...['aria-label', 'title', 'placeholder'].map((name) => element.getAttribute(name) ?? ''));
    }
    const words = texts.join('\n').replace(/OpenID Connect|Agent API/g, '');
    return [...(words.match(/(?<![\w.])[A-Za-z]{2,}(?:[ ,:;()]+[A-Za-z]{2,})+(?!\w|\.\w)/g) ?? []), ...(words.match(/\bconsole\.[a-z][\w.]+/g) ?? [])];
  });

// The administrators' Groups page: add, edit and remove groups and their members, by keyboard, axe-clean, in both
// languages; a person's groups on their row of the Users page; hidden from everyone else.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: groups (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();

  test('an administrator adds a group with the keyboard, edits it, adds and removes members by search, and removes it', async () => {
    const pat = await suite.server.createUser('pat', 'Pat Person');
    await suite.server.createUser('quinn', 'Quinn');
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), ADMIN.account, ADMIN.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('heading', { level: 1, name: 'Groups' }).waitFor();
    await page.getByText('No groups yet.').waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // By keyboard: the button, the dialog's first field, Tab to the next, Enter submits; focus returns to the opener.
    await page.getByRole('button', { name: 'Add group' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Add a group' }).waitFor();
    expect(await focused(page)).toBe('input:Name');
    await page.keyboard.type('Not A Slug');
    await tabTo(page, 'input:Display name');
    await page.keyboard.type('Staff');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a group' });
    await dialog.getByText(/must be a slug/).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await dialog.getByLabel('Name', { exact: true }).fill('staff');
    await dialog.getByLabel('Name', { exact: true }).press('Enter');
    await page.getByRole('status').getByText('Group Staff added.').waitFor();
    expect(await focused(page)).toBe('button:Add group');
    const row = page.getByRole('row', { name: /staff/ });
    await row.waitFor();
    await saveScreenshot(page, 'admin-groups-list');

    // A taken name is refused beside the field.
    await page.getByRole('button', { name: 'Add group' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('staff');
    await dialog.getByLabel('Display name').fill('Again');
    await dialog.getByRole('button', { name: 'Add group' }).click();
    await dialog.getByText('already taken').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Edit Staff' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Staff' });
    await edit.getByLabel('Display name').fill('All staff');
    await edit.getByLabel('Description (optional)').fill('Everyone employed');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Group All staff saved.').waitFor();
    expect(await row.textContent()).toContain('Everyone employed');

    // Members: search finds people to add; the members list shows who manages each membership.
    await page.getByRole('button', { name: 'Members of All staff' }).click();
    const members = page.getByRole('dialog', { name: 'Members of All staff' });
    await members.getByText('No members yet.').waitFor();
    await members.getByLabel('Search people').fill('pat');
    await members.getByRole('button', { name: 'Add pat to the group' }).click();
    await members.getByRole('status').getByText('pat is now a member.').waitFor();
    const memberRow = members.getByRole('row', { name: /Pat Person/ });
    await memberRow.waitFor();
    expect(await memberRow.textContent()).toContain('Administrators');
    expect(await members.getByRole('button', { name: 'Add pat to the group' }).count()).toBe(0);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await saveScreenshot(page, 'admin-groups-members');
    expect((await suite.server.services.groups.listMembers(systemActor, 'staff')).map((member) => member.account)).toEqual(['pat']);
    await members.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('cell', { name: '1', exact: true }).waitFor();

    // The person's groups on their row of the Users page.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('row', { name: /Pat Person/ }).getByText('Groups: staff').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
    await page.getByRole('button', { name: 'Members of All staff' }).click();
    await members.getByRole('button', { name: 'Remove pat from the group' }).click();
    await members.getByText('No members yet.').waitFor();
    await members.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Remove All staff' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove this group?' });
    await confirm.getByRole('button', { name: 'Remove group' }).click();
    await page.getByRole('status').getByText('Group All staff removed.').waitFor();
    expect(await suite.server.services.groups.listGroups(systemActor)).toEqual([]);
    expect(pat.account).toBe('pat');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('the client form registers a client with the groups scope and the claims in the ID token', async () => {
    const admin = (await suite.server.services.users.findByAccount(ADMIN.account))!;
    const project = await suite.server.services.projects.createProject({ ...systemActor, subjectId: admin.subjectId }, { name: 'Claims app' });
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), ADMIN.account, ADMIN.password);
    await page.goto(suite.server.consoleUrl(`/projects/${encodeURIComponent(project.projectId)}/clients/new`));
    await page.getByRole('heading', { name: 'Register a client' }).waitFor();
    await page.getByRole('radio', { name: /Single-page app/ }).check();
    await page.getByLabel('Display name').fill('Claims spa');
    await page.getByLabel('Redirect URIs', { exact: true }).fill('https://spa.example.com/callback');
    await page.getByRole('checkbox', { name: /^groups/ }).check();
    const claims = page.getByRole('checkbox', { name: 'Put the claims in the ID token' });
    expect(await claims.isChecked()).toBe(false);
    await claims.check();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    const registration = page.waitForResponse((r) => r.url().endsWith(`/projects/${project.projectId}/clients`) && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Register client' }).click();
    expect((await registration).status()).toBe(201);
    const [client] = await suite.server.services.clients.listClients(systemActor, project.projectId);
    expect(client).toMatchObject({ clientType: 'spa', claimsInIdToken: true, scopeWhitelist: ['openid', 'profile', 'email', 'groups'] });
    await page.getByText('yes: the ID token carries the profile, email and groups claims').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  test('the page, its dialogs and the client form speak Chinese; a person who is no administrator has no Groups page', async () => {
    const admin = (await suite.server.services.users.findByAccount(ADMIN.account))!;
    await suite.server.services.groups.addGroup(systemActor, { name: 'library', displayName: '图书馆员', description: '借阅系统的管理员' });
    await suite.server.services.groups.putMember(systemActor, 'library', admin.subjectId);
    const { page, context, problems } = await openWatchedPage(suite.browser, PHONE);
    await context.addCookies([{ name: 'sesame_lang', value: 'zh-CN', url: suite.server.issuer }]);
    await page.goto(suite.server.consoleUrl('/admin/groups'));
    await page.getByLabel('账号').fill(ADMIN.account);
    await page.getByLabel('密码').fill(ADMIN.password);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: '群组' }).waitFor();
    await page.getByRole('row', { name: /图书馆员/ }).waitFor();
    expect(await englishOn(page)).toEqual([]);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await saveScreenshot(page, 'admin-groups-zh-CN');

    await page.getByRole('button', { name: '添加群组' }).click();
    await page.getByRole('dialog', { name: '添加群组' }).waitFor();
    expect(await englishOn(page)).toEqual([]);
    await page.getByRole('button', { name: '取消' }).click();
    await page.getByRole('button', { name: '图书馆员 的成员' }).click();
    const members = page.getByRole('dialog', { name: '图书馆员 的成员' });
    await members.getByRole('row', { name: new RegExp(ADMIN.account) }).waitFor();
    expect(await englishOn(page)).toEqual([]);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await members.getByRole('button', { name: '关闭' }).click();

    // The client form's switch, in Chinese.
    const project = await suite.server.services.projects.createProject({ ...systemActor, subjectId: admin.subjectId }, { name: '图书馆' });
    await page.goto(suite.server.consoleUrl(`/projects/${encodeURIComponent(project.projectId)}/clients/new`));
    await page.getByLabel('在 ID 令牌中包含声明').waitFor();
    expect(await page.getByLabel('在 ID 令牌中包含声明').isChecked()).toBe(false);
    await page.getByText('groups：此人所在群组的名称').waitFor();

    // Someone who is no administrator: no link, and the address shows the not-found page.
    const person = await suite.server.createUser('noadmin', 'Noadmin');
    const other = await openWatchedPage(suite.browser);
    await signIn(other.page, suite.server.consoleUrl(), person.account, person.password);
    expect(await other.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).count()).toBe(0);
    await other.page.goto(suite.server.consoleUrl('/admin/groups'));
    await other.page.getByRole('heading', { level: 1 }).waitFor();
    expect(await other.page.getByRole('heading', { level: 1, name: 'Groups' }).count()).toBe(0);
    await other.context.close();
    expect(problems).toEqual([]);
    await context.close();
  });
});
