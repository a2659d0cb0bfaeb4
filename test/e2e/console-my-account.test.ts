import { readFile } from 'node:fs/promises';
import * as oidc from 'openid-client';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { setUpOidcFixture, type OidcFixture, type RelyingParty } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, oauthError, redeemCode } from '../helpers/oidc-relying-party.ts';
import { isConsentPage, OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { DESKTOP, openWatchedPage, PHONE } from './support/browser.ts';
import { signInHere } from './support/console-actions.ts';
import { focused, tabTo } from './support/keyboard.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { useConsoleSuite } from './support/console-suite.ts';

interface Person {
  subjectId: string;
  account: string;
  password: string;
}

// My account in the console: every signed-in person's own page. Each test drives the real pages in
// Chromium and checks the effect where it matters: at the Agent API, at a relying party's token
// endpoint, and at Sesame's own authorization endpoint.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: My account (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();
  let fixture: OidcFixture;
  let assistant: RelyingParty;

  beforeAll(async () => {
    fixture = await setUpOidcFixture(suite.server);
    const { client } = await suite.server.services.clients.registerClient(fixture.adminActor, fixture.projectId, {
      clientType: 'native',
      displayName: 'Desk assistant',
      redirectUris: ['http://127.0.0.1/assistant/callback'],
      scopeWhitelist: ['openid', 'profile'],
    });
    // A loopback redirect of a native client takes any port at request time (RFC 8252 7.3).
    assistant = { clientId: client.clientId, redirectUri: 'http://127.0.0.1:9/assistant/callback', postLogoutRedirectUri: 'http://127.0.0.1:9/assistant/signed-out' };
  });

  const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(suite.server.clock.now() / 1000) });
  /** The next TOTP time step: a code already used in this one is refused as a replay. */
  const nextStep = () => suite.server.clock.advance(30_000);

  async function agentLogin(person: { account: string; password: string }, otp?: string) {
    return suite.server.app.inject({ method: 'POST', url: '/api/agent/auth/login', payload: { account: person.account, password: person.password, ...(otp ? { otp } : {}) } });
  }
  async function agentToken(person: Person): Promise<string> {
    const login = await agentLogin(person);
    expect(login.statusCode).toBe(200);
    return login.json().accessToken as string;
  }
  async function agentStatus(token: string): Promise<number> {
    return (await suite.server.app.inject({ method: 'GET', url: '/api/agent/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode;
  }

  /** A relying party signs the person in through Sesame's pages (consenting) and gets its tokens. */
  async function relyingPartySignIn(person: Person, rp: RelyingParty, scope: string) {
    const agent = new OidcUserAgent(suite.server.issuer);
    const config = await discoverAs(suite.server.issuer, rp);
    const request = await authorizationRequest(config, rp, scope, { prompt: 'consent' });
    const callback = await signInThroughPages(agent, request.url, person);
    expect(callback.location, 'the relying party gets its code').toContain(rp.redirectUri);
    const tokens = await redeemCode(config, request, callback.location!);
    return { agent, config, tokens };
  }

  async function openConsole(viewport: { width: number; height: number } = DESKTOP) {
    const watched = await openWatchedPage(suite.browser, viewport);
    // The relying parties' redirect URIs (port 9) answer from here, so the browser can land on them.
    await watched.context.route(/^http:\/\/127\.0\.0\.1:9\//, (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'relying party' }));
    return watched;
  }

  async function signInToConsole(page: Page, person: Person): Promise<void> {
    await page.goto(suite.server.consoleUrl('/sign-in'));
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await signInHere(page, person.account, person.password);
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  }

  async function openMyAccount(page: Page, section?: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My account' }).click();
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
    if (section) {
      await page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: section }).click();
      await page.locator('nav[aria-label="Account sections"] a[aria-current="page"]', { hasText: section }).waitFor();
    }
  }

  async function createPerson(account: string, displayName: string): Promise<Person> {
    return suite.server.createUser(account, displayName);
  }

  async function confirmIn(page: Page, dialogName: string, button: string): Promise<void> {
    const dialog = page.getByRole('alertdialog', { name: dialogName });
    await dialog.getByRole('button', { name: button }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  /** Adds an authenticator app from the Second factors section; returns its secret and the recovery codes shown. */
  async function enrolAuthenticator(page: Page, name: string): Promise<{ secret: string; recoveryCodes: string[] }> {
    await page.getByRole('button', { name: 'Add an authenticator app' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an authenticator app' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
    const secret = await dialog.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await dialog.getByLabel('Code from the app').fill(await codeNow(secret));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const codesDialog = page.getByRole('alertdialog', { name: 'Your recovery codes' });
    await codesDialog.waitFor();
    const recoveryCodes = await codesDialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
    return { secret, recoveryCodes };
  }

  test('a person who is a member of no project reaches My account from the navigation; every view passes axe at both sizes', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const person = await createPerson(`nomember${viewport.width}`, 'Nadia No-Projects');
      await relyingPartySignIn(person, fixture.web, 'openid profile email offline_access');
      await relyingPartySignIn(person, assistant, 'openid profile');
      await agentToken(person);
      expect(await suite.server.services.projects.listProjects({ subjectId: person.subjectId, isAdmin: false, surface: 'console', ip: null })).toEqual([]);

      const { page, context, problems } = await openConsole(viewport);
      const check = async (name: string) => {
        await page.evaluate(() => document.fonts.ready);
        expect(await seriousAccessibilityProblems(page), `axe on ${name}`).toEqual([]);
        expect(await page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth)), `sideways overflow on ${name}`).toBe(0);
        await saveScreenshot(page, name);
      };
      await signInToConsole(page, person);
      await openMyAccount(page);
      await page.getByRole('heading', { level: 2, name: 'Password and email' }).waitFor();
      await page.getByText('Current address').waitFor();
      await check('my-account-profile');

      await openMyAccount(page, 'Sessions');
      await page.getByRole('table', { name: 'My sessions' }).waitFor();
      await check('my-account-sessions');
      await page.getByRole('button', { name: /^End session: Agent API token/ }).click();
      await page.getByRole('alertdialog', { name: 'End this session?' }).waitFor();
      await check('my-account-end-session-dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog').waitFor({ state: 'hidden' });

      await openMyAccount(page, 'Applications');
      await page.getByRole('table', { name: 'Connected assistants' }).waitFor();
      await check('my-account-applications');
      await page.getByRole('button', { name: 'Withdraw access of Imported web app' }).click();
      await page.getByRole('alertdialog', { name: 'Withdraw this access?' }).waitFor();
      await check('my-account-revoke-dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog').waitFor({ state: 'hidden' });

      await openMyAccount(page, 'Second factors');
      await page.getByText('You sign in with your password alone.').waitFor();
      await check('my-account-factors-none');
      await page.getByRole('button', { name: 'Add an authenticator app' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add an authenticator app' });
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
      await check('my-account-add-authenticator-dialog');
      const secret = await dialog.getByLabel('Secret').inputValue();
      await dialog.getByLabel('Code from the app').fill(await codeNow(secret));
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('alertdialog', { name: 'Your recovery codes' }).waitFor();
      await check('my-account-recovery-codes-dialog');
      await page.getByRole('button', { name: 'I have saved the codes' }).click();
      await page.getByRole('alertdialog', { name: 'Your recovery codes' }).waitFor({ state: 'hidden' });
      await page.getByRole('table', { name: 'My second factors' }).getByRole('row', { name: /Authenticator app/ }).waitFor();
      await check('my-account-factors');
      await page.getByRole('button', { name: 'Remove Authenticator app' }).click();
      await page.getByRole('alertdialog', { name: 'Remove Authenticator app?' }).waitFor();
      await check('my-account-remove-factor-dialog');
      await page.getByRole('alertdialog', { name: 'Remove Authenticator app?' }).getByLabel('Current password').fill(person.password);
      await page.getByRole('alertdialog', { name: 'Remove Authenticator app?' }).getByRole('button', { name: 'Remove' }).click();
      await page.getByText('You sign in with your password alone.').waitFor();

      await openMyAccount(page, 'Linked identities');
      await page.getByText('None: you sign in with your Sesame password or passkey only.').waitFor();
      await check('my-account-identities');

      // The dark colour scheme keeps its contrast too.
      await page.emulateMedia({ colorScheme: 'dark' });
      await openMyAccount(page, 'Applications');
      await page.getByRole('table', { name: 'Connected assistants' }).waitFor();
      await check('my-account-applications-dark');
      await page.emulateMedia({ colorScheme: 'light' });

      expect(problems).toEqual([]);
      await context.close();
    }
  }, 180_000);

  test('changing my password ends my other sessions: another console, an Agent API token and a relying party\'s refresh token', async () => {
    const person = await createPerson('paula', 'Paula Password');
    const rp = await relyingPartySignIn(person, fixture.web, 'openid profile offline_access');
    const token = await agentToken(person);
    const other = await openConsole();
    await signInToConsole(other.page, person);

    const { page, context, problems } = await openConsole();
    await signInToConsole(page, person);
    await openMyAccount(page);
    const form = page.getByRole('form', { name: 'Change my password' });
    await form.getByLabel('Current password').fill('not my password');
    await form.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await form.getByLabel('Repeat the new password').fill('a brand new passphrase');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').waitFor();
    expect(await agentStatus(token), 'a refused change ends nothing').toBe(200);

    await form.getByLabel('Current password').fill(person.password);
    await form.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await form.getByLabel('Repeat the new password').fill('a brand new passphrase');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').getByText('Every other session of yours has ended').waitFor();

    expect(await agentStatus(token)).toBe(401);
    expect(await oauthError(oidc.refreshTokenGrant(rp.config, rp.tokens.refresh_token!))).toBe('invalid_grant');
    await other.page.reload();
    await other.page.waitForURL(/\/console\/sign-in/);
    // This browser stays signed in, and its session is the only one left.
    await openMyAccount(page, 'Sessions');
    const rows = page.getByRole('table', { name: 'My sessions' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(2);
    await rows.filter({ hasText: 'this session' }).waitFor();
    expect((await agentLogin({ account: person.account, password: 'a brand new passphrase' })).statusCode).toBe(200);

    expect(problems).toEqual([]);
    await other.context.close();
    await context.close();
  }, 90_000);

  test('ending a session from the list: the Agent API token stops working, this session is marked and cannot be ended here', async () => {
    const person = await createPerson('sami', 'Sami Sessions');
    const token = await agentToken(person);
    const { page, context, problems } = await openConsole();
    await signInToConsole(page, person);
    await openMyAccount(page, 'Sessions');
    const table = page.getByRole('table', { name: 'My sessions' });
    const current = table.getByRole('row').filter({ hasText: 'this session' });
    await current.waitFor();
    expect(await current.getByText('Console (a browser)').count()).toBe(1);
    expect(await current.getByRole('button').count()).toBe(0);

    await table.getByRole('button', { name: /^End session: Agent API token/ }).click();
    await confirmIn(page, 'End this session?', 'End session');
    await page.getByRole('status').getByText('The session is ended.').waitFor();
    expect(await table.getByRole('row', { name: /Agent API token/ }).count()).toBe(0);
    expect(await agentStatus(token)).toBe(401);

    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test('withdrawing an application\'s access ends its refresh token and the next sign-in asks for consent again; assistants are listed apart', async () => {
    const person = await createPerson('rita', 'Rita Revoke');
    const rp = await relyingPartySignIn(person, fixture.web, 'openid profile email offline_access');
    const connected = await relyingPartySignIn(person, assistant, 'openid profile');
    const { page, context, problems } = await openConsole();
    await signInToConsole(page, person);
    await openMyAccount(page, 'Applications');

    const applications = page.getByRole('table', { name: 'Applications' });
    const assistants = page.getByRole('table', { name: 'Connected assistants' });
    const webRow = applications.getByRole('row', { name: /Imported web app/ });
    await webRow.waitFor();
    // Scopes in the consent page's words.
    await webRow.getByText('See your name and account name').waitFor();
    await webRow.getByText('Stay connected while you are away', { exact: false }).waitFor();
    expect(await webRow.getByText('web application').count()).toBe(1);
    await assistants.getByRole('row', { name: /Desk assistant/ }).waitFor();
    expect(await applications.getByRole('row', { name: /Desk assistant/ }).count()).toBe(0);
    expect(await assistants.getByRole('row', { name: /Imported web app/ }).count()).toBe(0);

    await page.getByRole('button', { name: 'Withdraw access of Imported web app' }).click();
    await confirmIn(page, 'Withdraw this access?', 'Withdraw access');
    await page.getByRole('status').getByText('Withdrew the access of Imported web app.').waitFor();
    await page.getByText('You have not allowed any application yet.').waitFor();

    expect(await oauthError(oidc.refreshTokenGrant(rp.config, rp.tokens.refresh_token!))).toBe('invalid_grant');
    const again = await authorizationRequest(rp.config, fixture.web, 'openid profile');
    expect(isConsentPage(await rp.agent.follow(again.url)), 'the next /auth asks for consent again').toBe(true);
    // The assistant keeps its access until withdrawn on its own; then its access token stops working at once.
    await page.reload();
    await page.getByRole('table', { name: 'Connected assistants' }).getByRole('row', { name: /Desk assistant/ }).waitFor();
    const claims = await oidc.fetchUserInfo(connected.config, connected.tokens.access_token, person.subjectId);
    expect(claims.sub).toBe(person.subjectId);
    await page.getByRole('button', { name: 'Withdraw access of Desk assistant' }).click();
    await confirmIn(page, 'Withdraw this access?', 'Withdraw access');
    await page.getByText('No assistant is connected to your account.').waitFor();
    await expect(oidc.fetchUserInfo(connected.config, connected.tokens.access_token, person.subjectId)).rejects.toThrow();

    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test('an authenticator app added from the page signs in at the console and at a relying party; recovery codes are shown once, renewed, and the factor removed', async () => {
    const person = await createPerson('tomas', 'Tomas Totp');
    const { page, context, problems } = await openConsole();
    await signInToConsole(page, person);
    await openMyAccount(page, 'Second factors');
    const { secret, recoveryCodes } = await enrolAuthenticator(page, 'Phone');
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const codesDialog = page.getByRole('alertdialog', { name: 'Your recovery codes' });
    await codesDialog.getByText('You will not see them again', { exact: false }).waitFor();
    const download = page.waitForEvent('download');
    await codesDialog.getByRole('link', { name: 'Download codes' }).click();
    const file = await readFile((await (await download).path())!, 'utf8');
    for (const code of recoveryCodes) expect(file).toContain(code);
    await codesDialog.getByRole('button', { name: 'Copy codes' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCodes.join('\n'));
    await codesDialog.getByRole('button', { name: 'I have saved the codes' }).click();
    await codesDialog.waitFor({ state: 'hidden' });
    // Gone from the page once closed.
    expect(await page.content()).not.toContain(recoveryCodes[0]);
    const factors = page.getByRole('table', { name: 'My second factors' });
    await factors.getByRole('row', { name: /Phone/ }).waitFor();
    await factors.getByRole('row', { name: /Recovery codes \(10 unused\)/ }).waitFor();

    // The console's sign-in now asks for the code after the password.
    nextStep();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in/);
    await page.getByLabel('Account').fill(person.account);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('One-time code').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'focus moves to the code').toBe('otp');
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      expect(await seriousAccessibilityProblems(page), 'axe on sign-in-one-time-code').toEqual([]);
      await saveScreenshot(page, 'sign-in-one-time-code');
    }
    await page.setViewportSize(DESKTOP);
    await page.getByLabel('One-time code').fill('000000');
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await page.getByLabel('Password').fill(person.password);
    await page.getByLabel('One-time code').fill(await codeNow(secret));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();

    // A relying party's sign-in asks for the code on Sesame's second page; the ID token says so.
    nextStep();
    const config = await discoverAs(suite.server.issuer, fixture.web);
    const request = await authorizationRequest(config, fixture.web, 'openid profile');
    const rpPage = await context.newPage();
    await rpPage.goto(request.url);
    await rpPage.getByLabel('Account').fill(person.account);
    await rpPage.getByLabel('Password').fill(person.password);
    await rpPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await rpPage.getByLabel('Code from your authenticator app, or a recovery code').fill(await codeNow(secret));
    await rpPage.getByRole('button', { name: 'Verify and sign in' }).click();
    // First time at this application: Sesame asks for consent.
    await rpPage.getByRole('button', { name: 'Allow', exact: true }).click();
    await rpPage.waitForURL((url) => url.href.startsWith(fixture.web.redirectUri));
    const tokens = await redeemCode(config, request, rpPage.url());
    expect(tokens.claims()?.amr).toEqual(expect.arrayContaining(['pwd', 'otp']));
    await rpPage.close();

    // New recovery codes: the old ones stop working, the new ones work once.
    await page.goto(suite.server.consoleUrl('/account/security'));
    await page.getByRole('table', { name: 'My second factors' }).waitFor();
    await page.getByRole('button', { name: 'Make new recovery codes' }).click();
    await confirmIn(page, 'Make new recovery codes?', 'Make new recovery codes');
    const renewed = await page.getByRole('alertdialog', { name: 'Your recovery codes' }).getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
    expect(renewed).toHaveLength(10);
    expect(renewed.filter((code) => recoveryCodes.includes(code))).toEqual([]);
    await page.getByRole('button', { name: 'I have saved the codes' }).click();
    await page.getByRole('alertdialog', { name: 'Your recovery codes' }).waitFor({ state: 'hidden' });
    expect((await agentLogin(person, recoveryCodes[0])).statusCode).toBe(401);
    expect((await agentLogin(person, renewed[0])).statusCode).toBe(200);
    expect((await agentLogin(person, renewed[0])).statusCode).toBe(401);

    // Removing it needs the current password; afterwards the password alone signs in.
    await page.getByRole('button', { name: 'Remove Phone' }).click();
    const remove = page.getByRole('alertdialog', { name: 'Remove Phone?' });
    await remove.getByText('It is your last authenticator', { exact: false }).waitFor();
    await remove.getByLabel('Current password').fill('not my password');
    await remove.getByRole('button', { name: 'Remove' }).click();
    await remove.getByRole('alert').waitFor();
    expect((await agentLogin(person)).json().error).toBe('mfa_required');
    await remove.getByLabel('Current password').fill(person.password);
    await remove.getByRole('button', { name: 'Remove' }).click();
    await remove.waitFor({ state: 'hidden' });
    await page.getByText('You sign in with your password alone.').waitFor();
    expect((await agentLogin(person)).statusCode).toBe(200);

    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  test('from the keyboard alone: reach My account, change section, add an authenticator app, and focus comes back from the dialogs', async () => {
    const person = await createPerson('kai', 'Kai Keys');
    const { page, context, problems } = await openConsole();
    await signInToConsole(page, person);

    await tabTo(page, 'a:My account');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/account$/);
    await expect.poll(() => focused(page)).toBe('h2:Password and email');
    await tabTo(page, 'a:Second factors');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('h2:Second factors');

    await tabTo(page, 'button:Add an authenticator app');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('input:Name');
    await page.keyboard.type('Keyboard phone');
    await page.keyboard.press('Enter');
    // The first step's controls are gone; focus starts the second.
    await expect.poll(() => focused(page)).toBe('p:Scan this QR code with the app, or type the secret into it.');
    const secret = await page.getByRole('dialog', { name: 'Add an authenticator app' }).getByLabel('Secret').inputValue();
    await tabTo(page, 'input:Code from the app');
    await page.keyboard.type(await codeNow(secret));
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('ol:Recovery codes');
    await tabTo(page, 'button:I have saved the codes');
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog', { name: 'Your recovery codes' }).waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page)).toBe('button:Add an authenticator app');
    await page.getByRole('table', { name: 'My second factors' }).getByRole('row', { name: /Keyboard phone/ }).waitFor();

    // Escape closes a dialog and gives focus back to the button that opened it.
    await tabTo(page, 'button:Remove Keyboard phone');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('input:Current password');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('button:Remove Keyboard phone');

    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test('the address and whether it is verified; without mail the change is explained instead of offered', async () => {
    const person = await suite.server.services.users.createUser(systemActor, { account: 'erin', displayName: 'Erin Email', email: 'erin@example.test', emailVerified: true, password: 'erin-password-e2e' });
    const { page, context, problems } = await openConsole();
    await signInToConsole(page, { subjectId: person.subjectId, account: 'erin', password: 'erin-password-e2e' });
    await openMyAccount(page);
    const email = page.getByRole('region', { name: 'My email address' });
    await email.getByText('erin@example.test').waitFor();
    await email.getByText('verified', { exact: true }).waitFor();
    // The test server sends no mail (no SMTP_URL).
    await email.getByText('Sesame sends no mail here', { exact: false }).waitFor();
    expect(await email.getByRole('textbox').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
