import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { systemActor } from '../../src/domain/actor.ts';
import { openWatchedPage } from './support/browser.ts';
import { buttonNames, everythingOnThePage, openProject, openTab, signIn, signInHere } from './support/console-actions.ts';
import { consoleActor } from './support/seed.ts';
import { useConsoleSuite } from './support/console-suite.ts';

// Issue 4, "What it must show": the whole flow in the system Chromium against the real server on SQLite.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: owner and viewer flow (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();
  let owner: { subjectId: string; account: string; password: string };
  let viewer: { subjectId: string; account: string; password: string };

  beforeAll(async () => {
    owner = await suite.server.createUser('olivia', 'Olivia Owner');
    viewer = await suite.server.createUser('victor', 'Victor Viewer');
  });

  test('sign in, create a project, register a web client whose secret is shown once, change redirect URIs, rotate with grace, add a viewer, archive and un-archive, sign out; the viewer finds no write controls', async () => {
    const { page, problems, apiBodies } = await openWatchedPage(suite.browser);

    // Sign in: the console sends a signed-out visitor to the sign-in page first.
    await signIn(page, suite.server.consoleUrl(), owner.account, owner.password);

    // Create a project.
    await page.getByRole('button', { name: 'New project' }).click();
    const createDialog = page.getByRole('dialog', { name: 'New project' });
    await createDialog.getByLabel('Name').fill('Payments');
    await createDialog.getByLabel('Description (optional)').fill('Checkout and invoices');
    await createDialog.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    const projectId = decodeURIComponent(/\/projects\/([^/]+)/.exec(new URL(page.url()).pathname)?.[1] ?? '');
    expect(projectId).toMatch(/^prj_/);

    // Register a web client; the rules are explained inline before the server has to refuse.
    await page.getByRole('link', { name: 'Register client' }).click();
    await page.getByRole('heading', { name: 'Register a client' }).waitFor();
    await page.getByLabel('Display name').fill('Payments web');
    const redirectUris = page.getByLabel('Redirect URIs', { exact: true });
    await redirectUris.fill('http://pay.example.com/callback');
    await expect.poll(() => fieldError(page, 'Redirect URIs')).toContain('must use https');
    await redirectUris.fill('https://pay.example.com/callback');
    await expect.poll(() => fieldError(page, 'Redirect URIs')).toBe('');
    await page.getByRole('checkbox', { name: /offline_access/ }).check();
    const registration = page.waitForResponse((r) => r.url().endsWith(`/projects/${projectId}/clients`) && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Register client' }).click();
    expect((await registration).status()).toBe(201);

    // The secret is shown once, in a dialog, with a copy button and a plain warning.
    const secretDialog = page.getByRole('alertdialog', { name: 'Client registered' });
    await secretDialog.waitFor();
    await expect.poll(() => secretDialog.textContent()).toContain('It will not be shown again');
    const secret = await secretDialog.getByLabel('Client secret').inputValue();
    expect(secret).toMatch(/^[0-9A-Za-z]{43}$/);
    await secretDialog.getByRole('button', { name: 'Copy secret' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const bodiesBeforeClosing = apiBodies.length;
    await secretDialog.getByRole('button', { name: 'I have stored the secret' }).click();
    await page.getByRole('heading', { level: 2, name: 'Payments web' }).waitFor();
    const clientId = decodeURIComponent(/\/clients\/([^/]+)$/.exec(new URL(page.url()).pathname)?.[1] ?? '');
    expect(clientId).toMatch(/^cli_/);

    // Gone after the dialog closed: not in the page, not in any later API response, not after a reload.
    expect(await everythingOnThePage(page)).not.toContain(secret);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Payments web' }).waitFor();
    expect(await everythingOnThePage(page)).not.toContain(secret);
    expect(apiBodies.slice(bodiesBeforeClosing).length).toBeGreaterThan(0);
    for (const body of apiBodies.slice(bodiesBeforeClosing)) expect(body).not.toContain(secret);

    // Change the redirect URIs.
    await page.getByRole('button', { name: 'Edit configuration' }).click();
    await page.getByLabel('Redirect URIs', { exact: true }).fill('https://pay.example.com/callback\nhttps://pay.example.com/oidc/return');
    await page.getByRole('button', { name: 'Save configuration' }).click();
    await page.getByText('https://pay.example.com/oidc/return').waitFor();
    let stored = await suite.server.services.clients.getClient(systemActor, projectId, clientId);
    expect(stored.redirectUris).toEqual(['https://pay.example.com/callback', 'https://pay.example.com/oidc/return']);
    expect(stored.revision).toBe(2);

    // Rotate with a chosen grace period: the new secret is shown once, the old one retires after a day.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotateDialog = page.getByRole('alertdialog', { name: 'Rotate the client secret' });
    await rotateDialog.getByLabel('Grace period for the current secret').selectOption({ label: '1 day' });
    await rotateDialog.getByRole('button', { name: 'Rotate secret' }).click();
    const newSecretDialog = page.getByRole('alertdialog', { name: 'New client secret' });
    const rotated = await newSecretDialog.getByLabel('Client secret').inputValue();
    expect(rotated).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(rotated).not.toBe(secret);
    const bodiesBeforeClosingRotation = apiBodies.length;
    await newSecretDialog.getByRole('button', { name: 'I have stored the secret' }).click();
    await newSecretDialog.waitFor({ state: 'detached' });
    expect(await everythingOnThePage(page)).not.toContain(rotated);
    stored = await suite.server.services.clients.getClient(systemActor, projectId, clientId);
    const retiring = stored.secrets.find((s) => s.status === 'retiring');
    expect(stored.secrets.filter((s) => s.status === 'active')).toHaveLength(1);
    expect(retiring?.expiresAt).toBe(suite.server.clock.now() + 86_400_000);
    const secretRows = page.getByRole('table', { name: /Secrets of/ }).getByRole('row');
    await expect.poll(() => secretRows.count()).toBe(3);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Payments web' }).waitFor();
    for (const body of apiBodies.slice(bodiesBeforeClosingRotation)) expect(body).not.toContain(rotated);

    // Revoke the retiring secret: it stops at once; the active one stays.
    const retiringRow = page.getByRole('row', { name: /retiring/ });
    await retiringRow.getByRole('button', { name: /^Revoke secret/ }).click();
    await page.getByRole('alertdialog', { name: 'Revoke this secret?' }).getByRole('button', { name: 'Revoke secret' }).click();
    await page.getByRole('alertdialog', { name: 'Revoke this secret?' }).waitFor({ state: 'hidden' });
    await expect.poll(() => page.getByRole('row', { name: /retiring/ }).count()).toBe(0);
    stored = await suite.server.services.clients.getClient(systemActor, projectId, clientId);
    expect(stored.secrets.find((s) => s.secretId === retiring?.secretId)?.status).toBe('revoked');
    expect(stored.secrets.filter((s) => s.status === 'active')).toHaveLength(1);

    // Disable the client, then enable it again.
    await page.getByRole('button', { name: 'Disable client' }).click();
    const disableDialog = page.getByRole('alertdialog', { name: 'Disable this client?' });
    expect(await disableDialog.textContent()).toContain('refused at once');
    await disableDialog.getByRole('button', { name: 'Disable client' }).click();
    await page.getByText('This client is disabled').waitFor();
    expect((await suite.server.services.clients.getClient(systemActor, projectId, clientId)).status).toBe('disabled');
    await page.getByRole('button', { name: 'Enable client' }).click();
    await page.getByRole('alertdialog', { name: 'Enable this client?' }).getByRole('button', { name: 'Enable client' }).click();
    await page.getByRole('button', { name: 'Disable client' }).waitFor();
    expect((await suite.server.services.clients.getClient(systemActor, projectId, clientId)).status).toBe('active');

    // Add a member by account name, as a viewer; an unknown account is explained next to the field.
    await openTab(page, 'Members');
    const addForm = page.getByRole('form', { name: 'Add a member' });
    await addForm.getByLabel('Account').fill('nobody-here');
    await addForm.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => fieldError(page, 'Account')).toContain('No active account');
    await addForm.getByLabel('Account').fill(viewer.account);
    await addForm.getByLabel('Role').selectOption('viewer');
    await addForm.getByRole('button', { name: 'Add member' }).click();
    const viewerRow = page.getByRole('row', { name: /Victor Viewer/ });
    await viewerRow.waitFor();
    expect(await viewerRow.textContent()).toContain('viewer');

    // Archive, with the warning that it suspends the clients; then un-archive.
    await openTab(page, 'Settings');
    await page.getByRole('button', { name: 'Archive project' }).click();
    const archiveDialog = page.getByRole('alertdialog', { name: 'Archive this project?' });
    expect(await archiveDialog.textContent()).toContain('suspended');
    await archiveDialog.getByRole('button', { name: 'Archive project' }).click();
    await page.getByText('This project is archived.').waitFor();
    expect((await suite.server.services.projects.getProject(systemActor, projectId)).status).toBe('archived');
    await openTab(page, 'Clients');
    await page.getByRole('link', { name: 'Payments web' }).waitFor();
    expect(await page.getByRole('link', { name: 'Register client' }).count()).toBe(0);
    await openTab(page, 'Settings');
    await page.getByRole('button', { name: 'Un-archive project' }).click();
    await page.getByRole('alertdialog', { name: 'Un-archive this project?' }).getByRole('button', { name: 'Un-archive project' }).click();
    await page.getByRole('button', { name: 'Archive project' }).waitFor();
    expect((await suite.server.services.projects.getProject(systemActor, projectId)).status).toBe('active');

    // Sign out: back on the sign-in page, and the session is dead on the server too.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in/);
    await page.getByText('You are signed out.').waitFor();
    expect(await page.evaluate(() => fetch('/api/management/projects').then((r) => r.status))).toBe(401);

    // The viewer signs in and finds everything readable and no control that would be refused.
    await signInHere(page, viewer.account, viewer.password);
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    expect(await page.getByRole('listitem').filter({ hasText: 'Payments' }).textContent()).toContain('viewer');
    await openProject(page, 'Payments');
    await page.getByRole('link', { name: 'Payments web' }).waitFor();
    expect(await page.getByRole('link', { name: 'Register client' }).count()).toBe(0);
    await expectOnlyReadingControls(page);

    await page.getByRole('link', { name: 'Payments web' }).click();
    await page.getByRole('heading', { level: 2, name: 'Payments web' }).waitFor();
    await page.getByRole('table', { name: /Secrets of/ }).waitFor();
    await expectOnlyReadingControls(page);

    await openTab(page, 'Members');
    await page.getByRole('row', { name: /Olivia Owner/ }).waitFor();
    expect(await page.getByRole('form', { name: 'Add a member' }).count()).toBe(0);
    await expectOnlyReadingControls(page);

    await openTab(page, 'Settings');
    await page.getByRole('heading', { name: 'Your access' }).waitFor();
    await expectOnlyReadingControls(page);

    await openTab(page, 'Audit log');
    await page.getByRole('table', { name: /Audit log of/ }).waitFor();
    await expectOnlyReadingControls(page);

    expect(problems).toEqual([]);
    await page.context().close();
  }, 120_000);

  test('a maintainer gets the client controls but none for members or the project', async () => {
    const maya = await suite.server.createUser('maya', 'Maya Maintainer');
    const ownerActor = consoleActor(owner.subjectId);
    const project = await suite.server.services.projects.createProject(ownerActor, { name: 'Maintained' });
    const { client } = await suite.server.services.clients.registerClient(ownerActor, project.projectId, {
      clientType: 'web',
      displayName: 'Maintained web',
      redirectUris: ['https://maintained.example/callback'],
      scopeWhitelist: ['openid'],
    });
    await suite.server.services.members.addMember(ownerActor, project.projectId, { subjectId: maya.subjectId, role: 'maintainer', expectedProjectVersion: project.version });

    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), maya.account, maya.password);
    await openProject(page, 'Maintained');
    await page.getByRole('link', { name: 'Register client' }).waitFor();
    await page.getByRole('link', { name: 'Maintained web' }).click();
    await page.getByRole('heading', { level: 2, name: 'Maintained web' }).waitFor();
    const clientControls = await buttonNames(page);
    for (const control of ['Disable client', 'Edit configuration', 'Edit details', 'Rotate secret']) expect(clientControls).toContain(control);
    expect(clientControls.some((name) => name.startsWith('Revoke secret'))).toBe(true);

    await openTab(page, 'Members');
    await page.getByRole('row', { name: /Maya Maintainer/ }).waitFor();
    expect(await page.getByRole('form', { name: 'Add a member' }).count()).toBe(0);
    await expectOnlyReadingControls(page);
    await openTab(page, 'Settings');
    await page.getByRole('heading', { name: 'Your access' }).waitFor();
    await expectOnlyReadingControls(page);
    expect(client.clientId).toMatch(/^cli_/);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test('an owner changes a role, removes a member and hands the project over, after which member controls are gone', async () => {
    const [ana, ben] = [await suite.server.createUser('ana', 'Ana Analyst'), await suite.server.createUser('ben', 'Ben Builder')];
    const ownerActor = consoleActor(owner.subjectId);
    let project = await suite.server.services.projects.createProject(ownerActor, { name: 'Handover' });
    ({ project } = await suite.server.services.members.addMember(ownerActor, project.projectId, { subjectId: ana.subjectId, role: 'viewer', expectedProjectVersion: project.version }));
    ({ project } = await suite.server.services.members.addMember(ownerActor, project.projectId, { subjectId: ben.subjectId, role: 'maintainer', expectedProjectVersion: project.version }));

    const { page, context, problems } = await openWatchedPage(suite.browser);
    await signIn(page, suite.server.consoleUrl(), owner.account, owner.password);
    await openProject(page, 'Handover');
    await openTab(page, 'Members');
    const roleOf = async (name: RegExp) => (await page.getByRole('row', { name }).getByRole('cell').first().textContent()) ?? '';

    await page.getByRole('button', { name: 'Change role of ana' }).click();
    const roleDialog = page.getByRole('dialog', { name: 'Role of Ana Analyst' });
    await roleDialog.getByRole('radio', { name: /maintainer/ }).check();
    await roleDialog.getByRole('button', { name: 'Save role' }).click();
    await expect.poll(() => roleOf(/Ana Analyst/)).toBe('maintainer');

    await page.getByRole('button', { name: 'Remove ben' }).click();
    const removeDialog = page.getByRole('alertdialog', { name: 'Remove this member?' });
    expect(await removeDialog.textContent()).toContain('loses access');
    await removeDialog.getByRole('button', { name: 'Remove member' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Ben Builder/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'Make owner: ana' }).click();
    const transferDialog = page.getByRole('alertdialog', { name: 'Transfer ownership?' });
    expect(await transferDialog.textContent()).toContain('You cannot undo this yourself');
    await transferDialog.getByRole('button', { name: 'Transfer ownership' }).click();
    await expect.poll(() => roleOf(/Ana Analyst/)).toBe('owner');
    await expect.poll(() => roleOf(/Olivia Owner/)).toBe('maintainer');
    await expect.poll(() => page.getByRole('form', { name: 'Add a member' }).count()).toBe(0);
    await expectOnlyReadingControls(page);

    const members = await suite.server.services.members.listMembers(systemActor, project.projectId);
    expect(members.map((m) => `${m.account}:${m.role}`).sort()).toEqual(['ana:owner', 'olivia:maintainer']);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});

/** The controls a viewer may see: none of them changes anything. */
const READING_CONTROLS = new Set(['Sign out', 'Copy client ID', 'Newer', 'Older', 'Filter']);

async function expectOnlyReadingControls(page: Page): Promise<void> {
  const offered = (await buttonNames(page)).filter((name) => !READING_CONTROLS.has(name));
  expect(offered).toEqual([]);
  // The page's own fields (the top bar's language menu is every person's, whatever their role; an audit log's filters only read).
  const fields = 'input:not([type=hidden]), textarea, select';
  const reading = '.audit-filters';
  expect(await page.locator('#main').locator(fields).evaluateAll((found, reading) => found.filter((field) => !field.closest(reading)).length, reading)).toBe(0);
  expect(await page.locator(fields).evaluateAll((found, reading) => found.filter((field) => !field.closest(reading)).length, reading)).toBe(1);
}

/** The error shown next to a labelled field, or '' when there is none. */
async function fieldError(page: Page, label: string): Promise<string> {
  return page.getByLabel(label, { exact: true }).evaluate((element) => {
    const ids = (element.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    return ids
      .map((id) => document.getElementById(id))
      .filter((node) => node?.classList.contains('field-error'))
      .map((node) => node?.textContent ?? '')
      .join(' ');
  });
}
