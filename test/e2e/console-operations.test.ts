import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { CATALOGUES, interpolate, type MessageKey, type MessageParams } from '../../src/i18n/catalogues.ts';
import type { Locale } from '../../src/i18n/locales.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { DESKTOP, openWatchedPage, PHONE } from './support/browser.ts';
import { ADMIN } from './support/console-server.ts';
import { useConsoleSuite } from './support/console-suite.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { consoleActor } from './support/seed.ts';

// What the management API does, done from the console: deleting a client and an archived project, ending a
// client's tokens, the second-factor policy, the administrators' audit trail with its filters, resetting a
// person's factors, editing a person, and finding people by search and page. At a desktop size in English and at
// a phone size in Chinese; each destructive action asks first, by keyboard, and axe finds nothing serious.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: the operations of the management API (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();

  for (const [viewport, locale] of [
    [DESKTOP, 'en'],
    [PHONE, 'zh-CN'],
  ] as const) {
    test(`an administrator does every operation at ${viewport.width}x${viewport.height} in ${locale}`, async () => {
      const { server } = suite;
      const m = (key: MessageKey, params?: MessageParams) => interpolate(CATALOGUES[locale as Locale][key], params);
      const tag = viewport === DESKTOP ? 'desk' : 'phone';
      const admin = (await server.services.users.findByAccount(ADMIN.account))!;
      const owner = consoleActor(admin.subjectId);

      // Twenty-five people who share a word, one second apart: two pages of the search, newest first.
      const crowd: string[] = [];
      for (let i = 0; i < 25; i++) {
        server.clock.advance(1000);
        crowd.push((await server.createUser(`crowd-${tag}-${String(i).padStart(2, '0')}`, `Crowd ${tag} ${i}`)).account);
      }
      const pat = await server.createUser(`pat-${tag}`, `Pat ${tag}`);
      const project = await server.services.projects.createProject(owner, { name: `Ops ${tag}` });
      const { client } = await server.services.clients.registerClient(owner, project.projectId, {
        clientType: 'web',
        displayName: `Ops web ${tag}`,
        redirectUris: ['https://ops.example/callback'],
        scopeWhitelist: ['openid', 'profile'],
      });
      const doomed = await server.services.projects.createProject(owner, { name: `Doomed ${tag}` });
      await server.services.projects.updateProject(owner, doomed.projectId, { expectedProjectVersion: doomed.version, status: 'archived' });

      const { page, context, problems } = await openWatchedPage(suite.browser, viewport);
      await context.addCookies([{ name: 'sesame_lang', value: locale, url: server.issuer }]);
      await page.goto(server.consoleUrl());
      await page.getByLabel(m('console.signIn.account')).fill(ADMIN.account);
      await page.getByLabel(m('console.signIn.password')).fill(ADMIN.password);
      await page.getByRole('button', { name: m('console.signIn.submit'), exact: true }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));
      const checked = async (name: string) => {
        expect(await seriousAccessibilityProblems(page), `axe on ${name}`).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `sideways overflow on ${name}`).toBeLessThanOrEqual(0);
        await saveScreenshot(page, `operations-${locale}-${name}`);
      };
      const mainNav = () => page.getByRole('navigation', { name: m('console.nav.label') });
      /** A confirm dialog takes the focus (on Cancel, the safe choice); Tab reaches the action and Enter runs it. */
      const confirmByKeyboard = async (dialog: Locator, action: string) => {
        await dialog.waitFor();
        await expect.poll(() => dialog.getByRole('button', { name: m('console.common.cancel') }).evaluate((button) => button === document.activeElement)).toBe(true);
        await page.keyboard.press('Tab');
        expect(await dialog.getByRole('button', { name: action }).evaluate((button) => button === document.activeElement)).toBe(true);
        await page.keyboard.press('Enter');
        await dialog.waitFor({ state: 'detached' });
      };

      // People: search, then page through the matches, newest first.
      await mainNav().getByRole('link', { name: m('console.nav.users') }).click();
      await page.getByRole('heading', { level: 1, name: m('console.users.title') }).waitFor();
      await page.getByLabel(m('console.users.search')).fill(`CROWD-${tag}`);
      await page.getByRole('button', { name: m('console.users.searchSubmit'), exact: true }).click();
      const newestFirst = [...crowd].reverse();
      await page.getByRole('row', { name: new RegExp(`Crowd ${tag} 24\\b`) }).waitFor();
      await expect.poll(() => accountsShown(page)).toEqual(newestFirst.slice(0, 20));
      await checked('people-search');
      await page.getByRole('navigation', { name: m('console.users.pages') }).getByRole('button', { name: m('console.users.older') }).click();
      await expect.poll(() => accountsShown(page)).toEqual(newestFirst.slice(20));
      expect(await page.getByRole('navigation', { name: m('console.users.pages') }).getByRole('button', { name: m('console.users.older') }).isDisabled()).toBe(true);
      await page.getByRole('navigation', { name: m('console.users.pages') }).getByRole('button', { name: m('console.users.newer') }).click();
      await expect.poll(() => accountsShown(page)).toEqual(newestFirst.slice(0, 20));

      // Edit a person: name, email, verified, admin.
      await page.getByLabel(m('console.users.search')).fill(pat.account);
      await page.getByRole('button', { name: m('console.users.searchSubmit'), exact: true }).click();
      await expect.poll(() => accountsShown(page)).toEqual([pat.account]);
      await page.getByRole('button', { name: m('console.users.editLabel', { account: pat.account }) }).click();
      const edit = page.getByRole('dialog', { name: m('console.editUser.title', { account: pat.account }) });
      await edit.waitFor();
      await checked('edit-person');
      await edit.getByLabel(m('console.createUser.displayName')).fill(`Patricia ${tag}`);
      await edit.getByLabel(m('console.users.email'), { exact: true }).fill(`pat-${tag}@ops.example`);
      await edit.getByLabel(m('console.editUser.verified')).check();
      await edit.getByLabel(m('console.createUser.admin')).check();
      await edit.getByRole('button', { name: m('console.editUser.save') }).click();
      await page.getByText(m('console.users.saved', { account: pat.account })).waitFor();
      expect(await server.services.users.findByAccount(pat.account)).toMatchObject({ displayName: `Patricia ${tag}`, email: `pat-${tag}@ops.example`, emailVerified: true, isAdmin: true });

      // Reset the person's second factors: asked first, by keyboard; their sessions end.
      await page.getByRole('button', { name: m('console.users.resetFactorsLabel', { account: pat.account }) }).click();
      const reset = page.getByRole('alertdialog', { name: m('console.users.resetFactorsTitle') });
      await reset.waitFor();
      await checked('reset-factors-dialog');
      await confirmByKeyboard(reset, m('console.users.resetFactors'));
      await page.getByText(m('console.users.factorsReset', { account: pat.account })).waitFor();
      // Focus is back on the control that opened the dialog.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(m('console.users.resetFactorsLabel', { account: pat.account }));

      // The client: end its tokens, then delete it.
      await page.goto(server.consoleUrl(`/projects/${project.projectId}/clients/${client.clientId}`));
      await page.getByRole('heading', { level: 2, name: client.displayName }).waitFor();
      await page.getByRole('button', { name: m('console.clientDanger.revoke') }).click();
      await checked('client-end-tokens-dialog');
      await confirmByKeyboard(page.getByRole('alertdialog', { name: m('console.clientDanger.revokeTitle') }), m('console.clientDanger.revoke'));
      await page.getByText(m('console.clientDanger.revoked', { count: 0 })).waitFor();
      const afterRevoke = await server.services.clients.getClient(systemActor, project.projectId, client.clientId);
      expect(afterRevoke.clientVersion).toBe(client.clientVersion + 1);
      await page.getByRole('button', { name: m('console.clientDanger.delete') }).click();
      await checked('client-delete-dialog');
      await confirmByKeyboard(page.getByRole('alertdialog', { name: m('console.clientDanger.deleteTitle') }), m('console.clientDanger.delete'));
      await page.waitForURL((url) => url.pathname.endsWith(`/projects/${project.projectId}/clients`));
      await expect(server.services.clients.getClient(systemActor, project.projectId, client.clientId)).rejects.toMatchObject({ code: 'not_found' });

      // The archived project: deleted from its settings.
      await page.goto(server.consoleUrl(`/projects/${doomed.projectId}/settings`));
      await page.getByRole('button', { name: m('console.settings.delete') }).click();
      await checked('project-delete-dialog');
      await confirmByKeyboard(page.getByRole('alertdialog', { name: m('console.settings.deleteConfirmTitle') }), m('console.settings.delete'));
      await page.getByRole('heading', { level: 1, name: m('console.projects.title') }).waitFor();
      await expect(server.services.projects.getProject(systemActor, doomed.projectId)).rejects.toMatchObject({ code: 'not_found' });

      // The second-factor policy.
      await mainNav().getByRole('link', { name: m('console.nav.settings') }).click();
      await page.getByRole('heading', { level: 1, name: m('console.policy.title') }).waitFor();
      await page.getByRole('radio', { name: new RegExp(`^${m('console.policy.admins')}`) }).check();
      await checked('security-policy');
      await page.getByRole('button', { name: m('console.policy.save') }).click();
      await page.getByText(m('console.policy.saved')).waitFor();
      const policy = await server.services.settings.getSettings(systemActor);
      expect(policy.mfaRequired).toBe('admins');
      // Back to nobody, so the next sign-in of this suite needs no factor.
      await page.getByRole('radio', { name: new RegExp(`^${m('console.policy.none')}`) }).check();
      await page.getByRole('button', { name: m('console.policy.save') }).click();
      await expect.poll(async () => (await server.services.settings.getSettings(systemActor)).mfaRequired).toBe('none');

      // The administrators' audit trail, in the page's language, filtered by action and then by person.
      await mainNav().getByRole('link', { name: m('console.nav.auditLog') }).click();
      await page.getByRole('heading', { level: 1, name: m('console.adminAudit.title') }).waitFor();
      await page.getByRole('table', { name: m('console.adminAudit.caption', { page: 1 }) }).waitFor();
      await page.getByLabel(m('console.audit.filterAction')).selectOption('user.factors_reset');
      await page.getByRole('button', { name: m('console.audit.apply') }).click();
      const rows = page.getByRole('table', { name: m('console.adminAudit.caption', { page: 1 }) }).locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(viewport === DESKTOP ? 1 : 2);
      const actions = await rows.locator(`td:nth-child(3)`).allInnerTexts();
      expect(new Set(actions)).toEqual(new Set([m('console.auditAction.user.factors_reset' as MessageKey)]));
      // The target is named, not a UUID; the actor by name and account.
      expect(await rows.first().innerText()).toContain(`Patricia ${tag}`);
      expect(await rows.first().innerText()).not.toContain(pat.subjectId);
      await checked('admin-audit-filtered');
      await page.getByLabel(m('console.audit.filterAction')).selectOption('');
      await page.getByLabel(m('console.audit.filterPerson')).selectOption(admin.subjectId);
      await page.getByRole('button', { name: m('console.audit.apply') }).click();
      await expect.poll(async () => new Set(await rows.locator('td:nth-child(2) .block').allInnerTexts())).toEqual(new Set([`${admin.displayName} (${admin.account})`]));
      await expect.poll(async () => (await rows.locator('td:nth-child(3)').allInnerTexts()).includes(m('console.auditAction.settings.update' as MessageKey))).toBe(true);

      expect(problems).toEqual([]);
      await context.close();
    }, 180_000);
  }

  test('both people added a redirect URI, one of them on a phone in Chinese: the save after the conflict keeps both', async () => {
    const { server } = suite;
    const admin = (await server.services.users.findByAccount(ADMIN.account))!;
    const colleague = await server.createUser('cora-colleague', 'Cora Colleague');
    const owner = consoleActor(admin.subjectId);
    const project = await server.services.projects.createProject(owner, { name: 'Both added' });
    await server.services.members.addMember(owner, project.projectId, { subjectId: colleague.subjectId, role: 'maintainer', expectedProjectVersion: project.version });
    const { client } = await server.services.clients.registerClient(owner, project.projectId, {
      clientType: 'web',
      displayName: 'Both web',
      redirectUris: ['https://both.example/callback'],
      scopeWhitelist: ['openid', 'profile'],
    });
    const clientPath = `/projects/${project.projectId}/clients/${client.clientId}`;
    const zh = (key: MessageKey) => CATALOGUES['zh-CN'][key];

    const a = await openWatchedPage(suite.browser, PHONE);
    await a.context.addCookies([{ name: 'sesame_lang', value: 'zh-CN', url: server.issuer }]);
    await a.page.goto(server.consoleUrl());
    await a.page.getByLabel(zh('console.signIn.account')).fill(ADMIN.account);
    await a.page.getByLabel(zh('console.signIn.password')).fill(ADMIN.password);
    await a.page.getByRole('button', { name: zh('console.signIn.submit'), exact: true }).click();
    await a.page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));
    const b = await openWatchedPage(suite.browser, DESKTOP);
    await b.page.goto(server.consoleUrl());
    await b.page.getByLabel('Account').fill(colleague.account);
    await b.page.getByLabel('Password').fill(colleague.password);
    await b.page.getByRole('button', { name: 'Sign in' }).click();
    await b.page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));

    await a.page.goto(server.consoleUrl(clientPath));
    await a.page.getByRole('button', { name: zh('console.clientConfig.edit') }).click();
    await a.page.getByLabel(zh('console.clientConfig.redirectUris'), { exact: true }).fill('https://both.example/callback\nhttps://both.example/mine');
    await b.page.goto(server.consoleUrl(clientPath));
    await b.page.getByRole('button', { name: 'Edit configuration' }).click();
    await b.page.getByLabel('Redirect URIs', { exact: true }).fill('https://both.example/callback\nhttps://both.example/theirs');
    await b.page.getByRole('button', { name: 'Save configuration' }).click();
    await b.page.getByText('https://both.example/theirs').waitFor();

    const refused = a.page.waitForResponse((r) => r.url().endsWith('/revision') && r.request().method() === 'PUT');
    await a.page.getByRole('button', { name: zh('console.clientConfig.save') }).click();
    expect((await refused).status()).toBe(409);
    const apply = a.page.getByRole('button', { name: zh('console.conflict.reapply') });
    await apply.waitFor();
    expect(await a.page.getByLabel(zh('console.clientConfig.redirectUris'), { exact: true }).inputValue()).toBe('https://both.example/callback\nhttps://both.example/theirs\nhttps://both.example/mine');
    expect(await seriousAccessibilityProblems(a.page)).toEqual([]);
    await saveScreenshot(a.page, 'operations-zh-CN-both-added-conflict');
    const saved = a.page.waitForResponse((r) => r.url().endsWith('/revision') && r.request().method() === 'PUT');
    await apply.click();
    expect((await saved).status()).toBe(200);
    const stored = await server.services.clients.getClient(systemActor, project.projectId, client.clientId);
    expect(stored.redirectUris).toEqual(['https://both.example/callback', 'https://both.example/theirs', 'https://both.example/mine']);
    expect([...a.problems, ...b.problems]).toEqual([]);
    await a.context.close();
    await b.context.close();
  }, 90_000);

  test('adding a member: an administrator gets suggestions from the people search, someone else only the exact lookup', async () => {
    const { server } = suite;
    const admin = (await server.services.users.findByAccount(ADMIN.account))!;
    const olga = await server.createUser('olga-owner', 'Olga Owner');
    await server.createUser('zelda-zebra', 'Zelda Zebra');
    const ownProject = await server.services.projects.createProject(consoleActor(olga.subjectId), { name: 'Olga’s' });
    const adminProject = await server.services.projects.createProject(consoleActor(admin.subjectId), { name: 'Admin’s' });

    const { page, context, problems } = await openWatchedPage(suite.browser);
    const accountField = () => page.getByRole('form', { name: 'Add a member' }).getByLabel('Account');
    const typeInto = async (text: string) => {
      await accountField().fill(text);
      await page.waitForTimeout(600);
    };
    const suggestions = () => page.locator('datalist option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));

    await page.goto(server.consoleUrl());
    await page.getByLabel('Account').fill(ADMIN.account);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));
    await page.goto(server.consoleUrl(`/projects/${adminProject.projectId}/members`));
    await typeInto('ZEBR');
    await expect.poll(suggestions).toEqual(['zelda-zebra']);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await accountField().fill('zelda-zebra');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('row', { name: /Zelda Zebra/ }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in/);
    await page.getByLabel('Account').fill(olga.account);
    await page.getByLabel('Password').fill(olga.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/console/sign-in'));
    const searches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/admin/users')) searches.push(request.url());
    });
    await page.goto(server.consoleUrl(`/projects/${ownProject.projectId}/members`));
    await typeInto('ZEBR');
    expect(await page.locator('datalist').count()).toBe(0);
    expect(searches).toEqual([]);
    await page.getByRole('button', { name: 'Add member' }).click();
    // The exact lookup: a part of a name finds nobody.
    await page.getByText('No active account is named “ZEBR”. Account names must match exactly.').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});

/** The account names of the rows the people table shows, top to bottom. */
async function accountsShown(page: Page): Promise<string[]> {
  return page.locator('table tbody th .block').allInnerTexts();
}
