import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { openWatchedPage, type WatchedPage } from './support/browser.ts';
import { signIn } from './support/console-actions.ts';
import { consoleActor } from './support/seed.ts';
import { useConsoleSuite } from './support/console-suite.ts';

// Two people edit one client's OIDC configuration at once: the one who saves second meets a version
// conflict, and applying their edit must write only what they changed, never revert the other's work.
// The stored result is what matters here, so this suite runs on both engines.
describe.each(TEST_ENGINES)('console: a conflicting edit is merged, not replayed (%s, Chromium)', (engine) => {
  const suite = useConsoleSuite({ engine });
  let olivia: { subjectId: string; account: string; password: string };
  let max: { subjectId: string; account: string; password: string };

  beforeAll(async () => {
    olivia = await suite.server.createUser('olivia', 'Olivia Owner');
    max = await suite.server.createUser('max', 'Max Maintainer');
  });

  /** A web client in a project where Olivia owns and Max maintains, and each of them on its page, editing its configuration. */
  async function bothEditing(name: string) {
    const owner = consoleActor(olivia.subjectId);
    const project = await suite.server.services.projects.createProject(owner, { name });
    await suite.server.services.members.addMember(owner, project.projectId, { subjectId: max.subjectId, role: 'maintainer', expectedProjectVersion: project.version });
    const { client } = await suite.server.services.clients.registerClient(owner, project.projectId, {
      clientType: 'web',
      displayName: `${name} web`,
      redirectUris: ['https://app.example/callback'],
      scopeWhitelist: ['openid', 'profile'],
      requirePkce: true,
    });
    const clientPath = `/projects/${project.projectId}/clients/${client.clientId}`;
    const a = await openWatchedPage(suite.browser);
    const b = await openWatchedPage(suite.browser);
    for (const [person, watched] of [[olivia, a], [max, b]] as const) {
      await signIn(watched.page, suite.server.consoleUrl(), person.account, person.password);
      await watched.page.goto(suite.server.consoleUrl(clientPath));
      await watched.page.getByRole('button', { name: 'Edit configuration' }).click();
    }
    const stored = () => suite.server.services.clients.getClient(systemActor, project.projectId, client.clientId);
    return { client, a, b, stored };
  }

  const redirectUris = (page: Page) => page.getByLabel('Redirect URIs', { exact: true });
  const scope = (page: Page, name: string) => page.getByRole('checkbox', { name: new RegExp(`^${name}\\b`) });
  const pkce = (page: Page) => page.getByRole('checkbox', { name: 'Require PKCE (S256)' });

  async function saveAndMeetConflict(page: Page) {
    const refused = page.waitForResponse((r) => r.url().endsWith('/revision') && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    expect((await refused).status()).toBe(409);
    const notice = page.getByRole('alert').filter({ hasText: 'Someone else changed this client while you were editing' });
    await notice.waitFor();
    return notice;
  }

  async function saveAsB(b: WatchedPage, uri: string) {
    await b.page.getByRole('button', { name: 'Save configuration' }).click();
    await b.page.getByText(uri).waitFor();
  }

  async function closeAll(...pages: WatchedPage[]) {
    expect(pages.flatMap((watched) => watched.problems)).toEqual([]);
    for (const watched of pages) await watched.context.close();
  }

  test("applying after a conflict keeps the colleague's new redirect URI and scope and adds only my change", async () => {
    const { client, a, b, stored } = await bothEditing('Merge');

    // B adds a redirect URI and the email scope, and saves first.
    await redirectUris(b.page).fill('https://app.example/callback\nhttps://app.example/second');
    await scope(b.page, 'email').check();
    await saveAsB(b, 'https://app.example/second');

    // A, still on the version B replaced, changes only PKCE and saves: 409.
    await pkce(a.page).uncheck();
    const notice = await saveAndMeetConflict(a.page);
    expect(await notice.getByRole('row', { name: /Redirect URIs/ }).getByRole('cell').allTextContents()).toEqual([
      'https://app.example/callback',
      'https://app.example/callback, https://app.example/second',
    ]);
    expect(await notice.getByRole('row', { name: /Scopes/ }).getByRole('cell').allTextContents()).toEqual(['openid, profile', 'openid, profile, email']);
    // Nothing both changed; the form now shows B's fields with A's one change on top.
    expect(await notice.getByText('You both changed').count()).toBe(0);
    expect(await redirectUris(a.page).inputValue()).toBe('https://app.example/callback\nhttps://app.example/second');
    expect(await scope(a.page, 'email').isChecked()).toBe(true);
    expect(await pkce(a.page).isChecked()).toBe(false);
    expect(await seriousAccessibilityProblems(a.page)).toEqual([]);

    const saved = a.page.waitForResponse((r) => r.url().endsWith('/revision') && r.request().method() === 'PUT');
    await notice.getByRole('button', { name: 'Apply my changes to the latest version' }).click();
    expect((await saved).status()).toBe(200);
    await a.page.getByText('optional (S256 when used)').waitFor();
    expect(await notice.count()).toBe(0);

    const result = await stored();
    expect(result.redirectUris).toEqual(['https://app.example/callback', 'https://app.example/second']);
    expect(result.scopeWhitelist).toEqual(['openid', 'profile', 'email']);
    expect(result.requirePkce).toBe(false);
    expect(result.clientVersion).toBe(client.clientVersion + 2);
    await closeAll(a, b);
  }, 90_000);

  test('when both added a redirect URI and changed the scopes, the save keeps both people\'s additions and brings back nothing either removed', async () => {
    const { client, a, b, stored } = await bothEditing('Both');

    // B replaces the callback with a second URI and adds the email scope; A meanwhile adds a third URI, ticks student and unticks profile.
    await redirectUris(b.page).fill('https://app.example/second');
    await scope(b.page, 'email').check();
    await saveAsB(b, 'https://app.example/second');
    await redirectUris(a.page).fill('https://app.example/callback\nhttps://app.example/third');
    await scope(a.page, 'student').check();
    await scope(a.page, 'profile').uncheck();
    const notice = await saveAndMeetConflict(a.page);

    // No clash to settle: the form holds B's list with A's edits applied to it.
    expect(await notice.getByText('You both changed').count()).toBe(0);
    expect(await redirectUris(a.page).inputValue()).toBe('https://app.example/second\nhttps://app.example/third');
    expect(await scope(a.page, 'email').isChecked()).toBe(true);
    expect(await scope(a.page, 'student').isChecked()).toBe(true);
    expect(await scope(a.page, 'profile').isChecked()).toBe(false);
    // Nothing was written behind the person's back.
    const meanwhile = await stored();
    expect(meanwhile.redirectUris).toEqual(['https://app.example/second']);
    expect(meanwhile.clientVersion).toBe(client.clientVersion + 1);
    expect(await seriousAccessibilityProblems(a.page)).toEqual([]);

    const saved = a.page.waitForResponse((r) => r.url().endsWith('/revision') && r.request().method() === 'PUT');
    await notice.getByRole('button', { name: 'Apply my changes to the latest version' }).click();
    expect((await saved).status()).toBe(200);
    await notice.waitFor({ state: 'detached' });
    await a.page.getByRole('button', { name: 'Edit configuration' }).waitFor();
    const result = await stored();
    expect(result.redirectUris).toEqual(['https://app.example/second', 'https://app.example/third']);
    expect(result.scopeWhitelist).toEqual(['openid', 'email', 'student']);
    expect(result.requirePkce).toBe(true);
    expect(result.clientVersion).toBe(client.clientVersion + 2);
    await closeAll(a, b);
  }, 90_000);
});
