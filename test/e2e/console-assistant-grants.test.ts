import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { authorizeAndConnect, mcpRequest, PreRegisteredAssistant, registerAssistant, signInOverHttp } from '../mcp/assistant-client.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { DESKTOP, openWatchedPage, PHONE } from './support/browser.ts';
import { signIn } from './support/console-actions.ts';
import { ADMIN } from './support/console-server.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { useConsoleSuite } from './support/console-suite.ts';

// The administrators' "Assistant grants" page: every assistant connected to any account, and disconnecting one.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: assistant grants page for administrators (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();
  let person: { subjectId: string; account: string; password: string };
  let assistantClientId: string;
  let port = 53_000;

  /** The person connects the assistant through Sesame's pages; returns its access token for /mcp. */
  async function connectAssistant(): Promise<string> {
    const provider = new PreRegisteredAssistant(assistantClientId, `http://127.0.0.1:${(port += 1)}/callback`);
    const mcp = await authorizeAndConnect(suite.server.issuer, provider, signInOverHttp(suite.server.issuer, person));
    await mcp.close();
    return provider.tokens()!.access_token;
  }

  async function check(page: Page, name: string): Promise<void> {
    await page.evaluate(() => document.fonts.ready);
    expect(await seriousAccessibilityProblems(page), `axe on ${name}`).toEqual([]);
    expect(await page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth)), `sideways overflow on ${name}`).toBe(0);
    await saveScreenshot(page, name);
  }

  beforeAll(async () => {
    person = await suite.server.createUser('paula', 'Paula Person');
    const admin = (await suite.server.services.users.findByAccount(ADMIN.account))!;
    const adminActor: Actor = { subjectId: admin.subjectId, isAdmin: true, surface: 'cli', ip: null };
    const project = await suite.server.services.projects.createProject(adminActor, { name: 'Assistants' });
    assistantClientId = await registerAssistant(suite.server.services, adminActor, project.projectId);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    test(`an administrator sees the connected assistant and disconnects it, at ${viewport.width}x${viewport.height}`, async () => {
      const token = await connectAssistant();
      expect((await mcpRequest(suite.server.issuer, token, 'tools/list')).status).toBe(200);

      const { page, context, problems } = await openWatchedPage(suite.browser, viewport);
      await signIn(page, suite.server.consoleUrl(), ADMIN.account, ADMIN.password);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Assistant grants' }).click();
      await page.getByRole('heading', { level: 1, name: 'Assistant grants' }).waitFor();
      const row = page.getByRole('row', { name: /Claude Code/ }).filter({ hasText: person.account });
      await row.waitFor();
      expect(await row.innerText()).toMatch(/read/);
      expect(await row.innerText()).toMatch(/change/);
      await check(page, 'admin-assistant-grants');

      await page.getByRole('button', { name: `Disconnect Claude Code from ${person.account}` }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Disconnect this assistant?' });
      await dialog.waitFor();
      await check(page, 'admin-assistant-grants-disconnect-dialog');
      await dialog.getByRole('button', { name: 'Disconnect assistant' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('status').filter({ hasText: `Disconnected Claude Code from ${person.account}.` }).waitFor();
      expect(await page.getByRole('row', { name: /Claude Code/ }).count()).toBe(0);
      await page.getByText('No assistant is connected to any account.').waitFor();

      // Its token stops working at once.
      expect((await mcpRequest(suite.server.issuer, token, 'tools/list')).status).toBe(401);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test('a person who is not an administrator has no such page', async () => {
    const { page, context } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), person.account, person.password);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Assistant grants' }).count()).toBe(0);
    await page.goto(suite.server.consoleUrl('/admin/assistant-grants'));
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('heading', { level: 1, name: 'Assistant grants' }).count()).toBe(0);
    await context.close();
  });
});
