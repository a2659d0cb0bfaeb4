import { beforeAll, describe, expect, test } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { openWatchedPage } from './support/browser.ts';
import { signIn } from './support/console-actions.ts';
import { consoleActor } from './support/seed.ts';
import { useConsoleSuite } from './support/console-suite.ts';

// The console's API client (openapi-fetch middleware) renews a stale CSRF token once and resends the write.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: a write with a stale CSRF token is resent with the current one (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();
  let owner: { subjectId: string; account: string; password: string };

  beforeAll(async () => {
    owner = await suite.server.createUser('olivia', 'Olivia Owner');
  });

  test('a session renewed behind the page (another tab signed in again) does not lose the edit', async () => {
    const project = await suite.server.services.projects.createProject(consoleActor(owner.subjectId), { name: 'Renewed' });
    const { client } = await suite.server.services.clients.registerClient(consoleActor(owner.subjectId), project.projectId, {
      clientType: 'web',
      displayName: 'Renewed web',
      redirectUris: ['https://app.example/callback'],
      scopeWhitelist: ['openid'],
    });
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), owner.account, owner.password);
    await page.goto(suite.server.consoleUrl(`/projects/${project.projectId}/clients/${client.clientId}`));
    await page.getByRole('button', { name: 'Edit details' }).click();
    await page.getByLabel('Display name').fill('Renewed web, renamed');

    // Another tab of the same browser signs out and in again: a new session cookie, so the page's CSRF token is stale.
    const api = `${suite.server.issuer}/api/management`;
    const csrfToken = async () => ((await (await context.request.get(`${api}/auth/context`)).json()) as { csrfToken: string }).csrfToken;
    expect((await context.request.post(`${api}/auth/logout`, { headers: { 'x-csrf-token': await csrfToken() } })).status()).toBe(204);
    const login = await context.request.post(`${api}/auth/login`, { headers: { 'x-csrf-token': await csrfToken() }, data: { account: owner.account, password: owner.password } });
    expect(login.status()).toBe(200);

    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'PATCH') statuses.push(response.status());
    });
    await page.getByRole('button', { name: 'Save details' }).click();
    await page.getByRole('heading', { name: 'Renewed web, renamed' }).waitFor();
    expect(statuses).toEqual([403, 200]);
    expect((await suite.server.services.clients.getClient(systemActor, project.projectId, client.clientId)).displayName).toBe('Renewed web, renamed');
    expect(new URL(page.url()).pathname).toBe(`/console/projects/${project.projectId}/clients/${client.clientId}`);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
