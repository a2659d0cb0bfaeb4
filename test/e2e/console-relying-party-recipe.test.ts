import { describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { openWatchedPage } from './support/browser.ts';
import { useConsoleSuite } from './support/console-suite.ts';
import { openProject, signIn } from './support/console-actions.ts';
import { consoleActor } from './support/seed.ts';

// Issue 13, item 7: a client's page tells its developer how the application signs people in with it.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: the relying-party recipe on a client\'s page (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();

  test('a web client\'s page: discovery, PKCE, client_secret_basic, prompt=consent for a refresh token, ID token and userinfo claims; a spa\'s: no secret, no refresh token', async () => {
    const owner = await suite.server.createUser('rhea', 'Rhea Relying');
    const actor = consoleActor(owner.subjectId);
    const project = await suite.server.services.projects.createProject(actor, { name: 'Recipes' });
    for (const [clientType, displayName, scopeWhitelist] of [['web', 'Recipe web', ['openid', 'profile', 'offline_access']], ['spa', 'Recipe spa', ['openid', 'email']]] as const) {
      await suite.server.services.clients.registerClient(actor, project.projectId, { clientType, displayName, redirectUris: ['https://recipe.example/callback'], scopeWhitelist: [...scopeWhitelist] });
    }

    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), owner.account, owner.password);
    await openProject(page, 'Recipes');
    await page.getByRole('link', { name: 'Recipe web' }).click();
    const recipe = page.getByRole('region', { name: 'Sign people in with this client' });
    await recipe.waitFor();
    const web = await recipe.innerText();
    expect(web).toContain(`${suite.server.issuer}/.well-known/openid-configuration`);
    expect(web).toContain('code_challenge_method=S256');
    expect(web).toContain('client_secret_basic');
    expect(web).toMatch(/offline_access.*together with.*prompt=consent/);
    expect(web).toContain('no refresh token comes (OpenID Connect Core 1.0, section 11)');
    expect(web).toMatch(/ID token[\s\S]*no profile data[\s\S]*userinfo_endpoint[\s\S]*profile gives name, preferred_username/);
    expect(await recipe.locator('code', { hasText: 'prompt=consent' }).count()).toBeGreaterThan(0);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.goBack();
    await page.getByRole('link', { name: 'Recipe spa' }).click();
    await page.getByRole('heading', { level: 2, name: 'Recipe spa' }).waitFor();
    const spa = await page.getByRole('region', { name: 'Sign people in with this client' }).innerText();
    expect(spa).toContain('no secret');
    expect(spa).toContain('never gets a refresh token');
    expect(spa).not.toContain('client_secret_basic');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
