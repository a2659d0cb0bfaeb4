import { beforeAll, describe, expect, test } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { openWatchedPage } from './support/browser.ts';
import { signIn } from './support/console-actions.ts';
import { ADMIN } from './support/console-server.ts';
import { useConsoleSuite } from './support/console-suite.ts';

// The project's audit page names the assistant an entry was made through (its viaClientId), not only "via mcp".
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: the audit page names the assistant (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();
  let projectId: string;
  const documentAssistant = 'https://assistant.example.com/oauth/client.json';

  beforeAll(async () => {
    const admin = (await suite.server.services.users.findByAccount(ADMIN.account))!;
    // A change made through an assistant known by its metadata document, as /mcp records it.
    const throughAssistant: Actor = { subjectId: admin.subjectId, isAdmin: true, surface: 'mcp', ip: null, viaClientId: documentAssistant, viaClientName: 'Doc Assistant', scopes: ['sesame:read', 'sesame:write'] };
    projectId = (await suite.server.services.projects.createProject(throughAssistant, { name: 'Made by an assistant' })).projectId;
  });

  test('an entry made through an assistant shows its name', async () => {
    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), ADMIN.account, ADMIN.password);
    await page.goto(suite.server.consoleUrl(`/projects/${projectId}/audit`));
    const row = page.getByRole('row', { name: /Created the project/ });
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain('by the assistant Doc Assistant');
    await expect(row.getByText('by the assistant Doc Assistant').getAttribute('title')).resolves.toBe(documentAssistant);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
