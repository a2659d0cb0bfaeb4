import { beforeAll, describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { openWatchedPage } from './support/browser.ts';
import { signIn, signInHere } from './support/console-actions.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { consoleActor } from './support/seed.ts';
import { useConsoleSuite } from './support/console-suite.ts';

// A stale version is explained, not hidden; an expired session returns the person to where they were.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: version conflicts and expired sessions (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();
  let owner: { subjectId: string; account: string; password: string };

  beforeAll(async () => {
    owner = await suite.server.createUser('olivia', 'Olivia Owner');
  });

  async function projectWithWebClient(name: string) {
    const project = await suite.server.services.projects.createProject(consoleActor(owner.subjectId), { name });
    const { client } = await suite.server.services.clients.registerClient(consoleActor(owner.subjectId), project.projectId, {
      clientType: 'web',
      displayName: `${name} web`,
      redirectUris: ['https://app.example/callback'],
      scopeWhitelist: ['openid', 'profile'],
    });
    return { project, client, clientPath: `/projects/${project.projectId}/clients/${client.clientId}` };
  }

  test('an edit that meets a change made in a second browser shows what changed and is reapplied on the fresh version', async () => {
    const { project, client, clientPath } = await projectWithWebClient('Conflicts');
    const first = await openWatchedPage(suite.browser);
    const second = await openWatchedPage(suite.browser);
    await signIn(first.page, suite.server.consoleUrl(), owner.account, owner.password);
    await signIn(second.page, suite.server.consoleUrl(), owner.account, owner.password);

    // The first person starts editing the redirect URIs.
    await first.page.goto(suite.server.consoleUrl(clientPath));
    await first.page.getByRole('button', { name: 'Edit configuration' }).click();
    await first.page.getByLabel('Redirect URIs', { exact: true }).fill('https://app.example/first-callback');

    // Meanwhile the second changes them and saves.
    await second.page.goto(suite.server.consoleUrl(clientPath));
    await second.page.getByRole('button', { name: 'Edit configuration' }).click();
    await second.page.getByLabel('Redirect URIs', { exact: true }).fill('https://app.example/second-callback');
    await second.page.getByRole('button', { name: 'Save configuration' }).click();
    await second.page.getByText('https://app.example/second-callback').waitFor();

    // The first saves: 409 version_conflict, explained with what changed, the draft kept.
    const refused = first.page.waitForResponse((r) => r.url().endsWith('/revision') && r.request().method() === 'PUT');
    await first.page.getByRole('button', { name: 'Save configuration' }).click();
    expect((await refused).status()).toBe(409);
    const notice = first.page.getByRole('alert').filter({ hasText: 'Someone else changed this client while you were editing' });
    await notice.waitFor();
    const changedRow = notice.getByRole('row', { name: /Redirect URIs/ });
    expect(await changedRow.getByRole('cell').allTextContents()).toEqual(['https://app.example/callback', 'https://app.example/second-callback']);
    // The draft is merged onto the latest list: the colleague's URI stays, the one both replaced stays gone, mine is added.
    expect(await first.page.getByLabel('Redirect URIs', { exact: true }).inputValue()).toBe('https://app.example/second-callback\nhttps://app.example/first-callback');
    expect(await seriousAccessibilityProblems(first.page)).toEqual([]);
    await saveScreenshot(first.page, 'conflict-notice');

    // Reapplied on the fresh version: both people's URIs, as a third version.
    // The notice's own clash line names the first callback too, so wait for the save, then for the read-only view.
    const reapplied = first.page.waitForResponse((r) => r.url().endsWith('/revision') && r.request().method() === 'PUT');
    await notice.getByRole('button', { name: 'Apply my changes to the latest version' }).click();
    expect((await reapplied).status()).toBe(200);
    await first.page.getByText('https://app.example/first-callback', { exact: true }).waitFor();
    expect(await notice.count()).toBe(0);
    const stored = await suite.server.services.clients.getClient(systemActor, project.projectId, client.clientId);
    expect(stored.redirectUris).toEqual(['https://app.example/second-callback', 'https://app.example/first-callback']);
    expect(stored.clientVersion).toBe(client.clientVersion + 2);

    expect([...first.problems, ...second.problems]).toEqual([]);
    await first.context.close();
    await second.context.close();
  }, 60_000);

  test('a stale project rename can be discarded in favour of the latest version', async () => {
    const { project } = await projectWithWebClient('Renames');
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), owner.account, owner.password);
    await page.goto(suite.server.consoleUrl(`/projects/${project.projectId}/settings`));
    await page.getByRole('button', { name: 'Edit name and description' }).click();
    await page.getByLabel('Name').fill('Renames by me');

    await suite.server.services.projects.updateProject(consoleActor(owner.subjectId), project.projectId, { expectedProjectVersion: project.version, name: 'Renames by someone else' });

    await page.getByRole('button', { name: 'Save' }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'Someone else changed this project' });
    await notice.waitFor();
    expect(await notice.getByRole('row', { name: /Name/ }).getByRole('cell').allTextContents()).toEqual(['Renames', 'Renames by someone else']);
    await notice.getByRole('button', { name: 'Discard my changes' }).click();
    expect(await page.getByLabel('Name').inputValue()).toBe('Renames by someone else');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('heading', { level: 1, name: 'Renames by someone else' }).waitFor();
    expect((await suite.server.services.projects.getProject(systemActor, project.projectId)).name).toBe('Renames by someone else');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test('a member change on a stale project version is retried on the latest one', async () => {
    const { project } = await projectWithWebClient('Members race');
    const amir = await suite.server.createUser('amir', 'Amir Added');
    const bea = await suite.server.createUser('bea', 'Bea Meanwhile');
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), owner.account, owner.password);
    await page.goto(suite.server.consoleUrl(`/projects/${project.projectId}/members`));
    await page.getByRole('row', { name: /Olivia Owner/ }).waitFor();

    await suite.server.services.members.addMember(consoleActor(owner.subjectId), project.projectId, { subjectId: bea.subjectId, role: 'viewer', expectedProjectVersion: project.version });

    const form = page.getByRole('form', { name: 'Add a member' });
    await form.getByLabel('Account').fill(amir.account);
    await form.getByRole('button', { name: 'Add member' }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'Someone else changed this project' });
    await notice.waitFor();
    expect(await notice.getByRole('row', { name: /Members/ }).textContent()).toContain('bea (viewer)');
    await page.getByRole('row', { name: /Bea Meanwhile/ }).waitFor();
    await notice.getByRole('button', { name: `Try again: add ${amir.account} as maintainer` }).click();
    await page.getByRole('row', { name: /Amir Added/ }).waitFor();
    const members = await suite.server.services.members.listMembers(systemActor, project.projectId);
    expect(members.map((m) => `${m.account}:${m.role}`).sort()).toEqual(['amir:maintainer', 'bea:viewer', 'olivia:owner']);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test('an expired session goes back to sign-in and then to where the person was', async () => {
    const { project } = await projectWithWebClient('Expiry');
    const { page, context, problems } = await openWatchedPage(suite.browser);

    // A deep link while signed out: sign in first, then the page asked for.
    await page.goto(suite.server.consoleUrl(`/projects/${project.projectId}/members`));
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await signInHere(page, owner.account, owner.password);
    await page.waitForURL(suite.server.consoleUrl(`/projects/${project.projectId}/members`));
    await page.getByRole('row', { name: /Olivia Owner/ }).waitFor();

    // The session ends (a day later); the next request sends the person to sign in, and back.
    suite.server.clock.advance(86_400_000 + 1000);
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Audit log' }).click();
    await page.waitForURL(/\/console\/sign-in\?next=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get('next') ?? '')).toBe(`/projects/${project.projectId}/audit`);
    await page.getByText('Your session has ended.').waitFor();
    await signInHere(page, owner.account, owner.password);
    await page.waitForURL(suite.server.consoleUrl(`/projects/${project.projectId}/audit`));
    await page.getByRole('heading', { level: 2, name: 'Audit log' }).waitFor();
    await page.getByRole('table', { name: /Audit log of Expiry/ }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
