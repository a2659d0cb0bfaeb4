import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { DESKTOP, openWatchedPage, PHONE } from './support/browser.ts';
import { openTab, signInHere } from './support/console-actions.ts';
import { ADMIN } from './support/console-server.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { seedProject } from './support/seed.ts';
import { useConsoleSuite } from './support/console-suite.ts';

// Every page and dialog of the console, at a desktop and a phone size: axe-core finds no serious or
// critical violation, nothing overflows sideways, and a screenshot of each is left for people to look at.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: accessibility and layout of every page (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();
  let owner: { subjectId: string; account: string; password: string };
  let seeded: Awaited<ReturnType<typeof seedProject>>;

  beforeAll(async () => {
    owner = await suite.server.createUser('olivia', 'Olivia Owner');
    const maintainer = await suite.server.createUser('mateo', 'Mateo Maintainer');
    seeded = await seedProject(suite.server, owner.subjectId, maintainer.subjectId);
  });

  for (const viewport of [DESKTOP, PHONE]) {
    test(`every page at ${viewport.width}x${viewport.height}`, async () => {
      const { page, context, problems } = await openWatchedPage(suite.browser, viewport);
      const checked: string[] = [];
      const check = async (name: string) => {
        await page.evaluate(() => document.fonts.ready);
        expect(await seriousAccessibilityProblems(page), `axe on ${name}`).toEqual([]);
        expect(await horizontalOverflow(page), `sideways overflow on ${name}`).toBe(0);
        await saveScreenshot(page, name);
        checked.push(name);
      };
      const projectPath = `/projects/${seeded.project.projectId}`;

      await page.goto(suite.server.consoleUrl());
      await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      await check('sign-in');
      await page.getByLabel('Account').fill(owner.account);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      await check('sign-in-error');
      await signInHere(page, owner.account, owner.password);

      await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
      await page.getByRole('link', { name: 'Storefront' }).waitFor();
      await check('projects');
      await page.getByRole('button', { name: 'New project' }).click();
      await page.getByRole('dialog', { name: 'New project' }).getByRole('button', { name: 'Create project' }).click();
      await page.getByText('A project needs a name.').waitFor();
      await check('projects-new-project-dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' }).catch(() => undefined);
      await page.getByRole('dialog', { name: 'New project' }).waitFor({ state: 'hidden' });

      await page.getByRole('link', { name: 'Storefront' }).click();
      await page.getByRole('link', { name: 'Storefront admin' }).waitFor();
      await check('project-clients');

      await page.getByRole('link', { name: 'Register client' }).click();
      await page.getByRole('heading', { name: 'Register a client' }).waitFor();
      await page.getByLabel('Redirect URIs', { exact: true }).fill('http://shop.example/cb#frag');
      await page.getByRole('button', { name: 'Register client' }).click();
      await page.getByText('A client needs a display name; people see it on the consent page.').waitFor();
      await check('register-client-with-errors');

      await page.goto(suite.server.consoleUrl(`${projectPath}/clients/${seeded.web.clientId}`));
      await page.getByRole('heading', { level: 2, name: 'Storefront admin' }).waitFor();
      await page.getByRole('table', { name: /Secrets of/ }).waitFor();
      await check('client-web');
      await page.getByRole('button', { name: 'Edit configuration' }).click();
      await check('client-web-editing');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const rotateDialog = page.getByRole('alertdialog', { name: 'Rotate the client secret' });
      // No grace: the old secret is revoked at once, so the next viewport's run can rotate again.
      await rotateDialog.getByLabel('Grace period for the current secret').selectOption('0');
      await rotateDialog.getByText('refused as soon as you rotate').waitFor();
      await check('client-rotate-dialog');
      await page.getByRole('alertdialog', { name: 'Rotate the client secret' }).getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('alertdialog', { name: 'New client secret' }).waitFor();
      await check('client-new-secret-dialog');
      await page.getByRole('button', { name: 'I have stored the secret' }).click();
      await page.getByRole('alertdialog', { name: 'New client secret' }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'End all tokens' }).click();
      await page.getByRole('alertdialog', { name: 'End every token of this client?' }).waitFor();
      await check('client-end-tokens-dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Delete client' }).click();
      await page.getByRole('alertdialog', { name: 'Delete this client?' }).waitFor();
      await check('client-delete-dialog');
      await page.keyboard.press('Escape');

      await page.goto(suite.server.consoleUrl(`${projectPath}/clients/${seeded.spa.clientId}`));
      await page.getByRole('heading', { level: 2, name: 'Storefront app' }).waitFor();
      await check('client-spa');

      await openTab(page, 'Members');
      await page.getByRole('row', { name: /Mateo Maintainer/ }).waitFor();
      await check('members');
      await page.getByRole('button', { name: 'Make owner: mateo' }).click();
      await page.getByRole('alertdialog', { name: 'Transfer ownership?' }).waitFor();
      await check('members-transfer-dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Change role of mateo' }).click();
      await page.getByRole('dialog', { name: /Role of/ }).waitFor();
      await check('members-role-dialog');
      await page.keyboard.press('Escape');

      await openTab(page, 'Audit log');
      await page.getByRole('table', { name: /page 1$/ }).waitFor();
      await check('audit');
      const firstPageTimes = await auditTimes(page);
      expect(firstPageTimes).toHaveLength(20);
      expect([...firstPageTimes].sort().reverse()).toEqual(firstPageTimes);
      await page.getByRole('button', { name: 'Older' }).click();
      await page.getByRole('table', { name: /page 2$/ }).waitFor();
      await page.waitForFunction((newest) => {
        const first = document.querySelector('table time');
        return first !== null && first.getAttribute('datetime') !== newest;
      }, firstPageTimes[0]);
      const secondPageTimes = await auditTimes(page);
      expect(secondPageTimes.length).toBeGreaterThan(0);
      expect(secondPageTimes.every((time) => time < (firstPageTimes.at(-1) ?? ''))).toBe(true);
      await check('audit-page-2');

      await openTab(page, 'Settings');
      await check('settings');
      await page.getByRole('button', { name: 'Archive project' }).click();
      await page.getByRole('alertdialog', { name: 'Archive this project?' }).waitFor();
      await check('settings-archive-dialog');
      await page.keyboard.press('Escape');

      await page.goto(suite.server.consoleUrl('/projects/prj_doesnotexist'));
      await page.getByRole('heading', { name: 'No such project' }).waitFor();
      await check('not-found');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/console\/sign-in/);
      await signInHere(page, ADMIN.account, ADMIN.password);
      await page.getByRole('link', { name: 'Users' }).click();
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await page.getByRole('row', { name: /Olivia Owner/ }).waitFor();
      await check('admin-users');
      await page.getByRole('button', { name: 'New user' }).click();
      await page.getByRole('dialog', { name: 'New user' }).waitFor();
      await check('admin-new-user-dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Edit olivia' }).click();
      await page.getByRole('dialog', { name: 'Edit olivia' }).waitFor();
      await check('admin-edit-user-dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Reset second factors of olivia' }).click();
      await page.getByRole('alertdialog', { name: 'Reset this person\'s second factors?' }).waitFor();
      await check('admin-reset-factors-dialog');
      await page.keyboard.press('Escape');
      // The page behind a modal dialog takes no typing until the dialog is gone.
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      await page.getByLabel('Find people by account, name or email').fill('OLIV');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('row', { name: /Mateo Maintainer/ }).waitFor({ state: 'detached' });
      await check('admin-users-search');

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Security policy' }).click();
      await page.getByRole('heading', { level: 1, name: 'Security policy' }).waitFor();
      await page.getByRole('radio', { name: /Nobody/ }).waitFor();
      await check('admin-security-policy');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      await page.getByRole('table', { name: /Administrators' audit log, page 1/ }).waitFor();
      await check('admin-audit');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Identity providers' }).click();
      await page.getByRole('heading', { level: 1, name: 'Identity providers' }).waitFor();
      await check('admin-identity-providers');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Assistant grants' }).click();
      await page.getByRole('heading', { level: 1, name: 'Assistant grants' }).waitFor();
      await check('admin-assistant-grants');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My account' }).click();
      await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
      await check('my-account');
      // My account's sections run past a phone's edge: the strip scrolls, with a shadow on the side where more wait.
      const tabs = await page.getByRole('navigation', { name: 'Account sections' }).evaluate((nav) => ({
        overflows: nav.scrollWidth > nav.clientWidth,
        shadowed: getComputedStyle(nav).backgroundImage.includes('radial-gradient'),
      }));
      expect(tabs).toEqual({ overflows: viewport === PHONE, shadowed: true });
      expect(await navigationFits(page), 'the navigation and the top bar fit').toEqual({ navLayout: viewport === PHONE ? 'one row' : 'one column', languageClipped: false, headerTooTall: false });

      // The dark colour scheme keeps its contrast too.
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(suite.server.consoleUrl(`${projectPath}/clients/${seeded.web.clientId}`));
      await page.getByRole('heading', { level: 2, name: 'Storefront admin' }).waitFor();
      await check('client-web-dark');
      await page.goto(suite.server.consoleUrl('/admin/users'));
      await page.getByRole('row', { name: /Olivia Owner/ }).waitFor();
      await check('admin-users-dark');

      expect(checked.length).toBeGreaterThanOrEqual(22);
      expect(problems).toEqual([]);
      await context.close();
    }, 120_000);
  }
});

/** How the frame sits: the side menu's entries in one column, or on a phone one row; the language menu's text not cut; the top bar and navigation together at most 130 px high. */
async function navigationFits(page: Page) {
  return page.evaluate(() => {
    const links = [...document.querySelectorAll<HTMLElement>('nav[aria-label="Main"] a')];
    const tops = new Set(links.map((link) => Math.round(link.getBoundingClientRect().top)));
    const lefts = new Set(links.map((link) => Math.round(link.getBoundingClientRect().left)));
    const select = document.querySelector<HTMLSelectElement>('.topbar .language-select')!;
    const style = getComputedStyle(select);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = style.font;
    const textWidth = context.measureText(select.selectedOptions[0]!.text).width;
    const header = document.querySelector<HTMLElement>('.topbar')!.getBoundingClientRect();
    const nav = document.querySelector<HTMLElement>('nav[aria-label="Main"]')!.getBoundingClientRect();
    const stacked = window.innerWidth < 1024;
    return {
      navLayout: tops.size === 1 ? 'one row' : lefts.size === 1 && tops.size === links.length ? 'one column' : 'wrapped',
      // The text, its padding and the arrow (about 1.25rem) must fit in the box.
      languageClipped: textWidth + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 16 > select.clientWidth,
      headerTooTall: (stacked ? header.height + nav.height : header.height) > 130,
    };
  });
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

async function auditTimes(page: Page): Promise<string[]> {
  return page.getByRole('table', { name: /Audit log of/ }).locator('tbody time').evaluateAll((times) => times.map((t) => t.getAttribute('datetime') ?? ''));
}
