import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { systemActor, type Actor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { startUpstreamProvider, type UpstreamProvider } from '../helpers/upstream-oidc.ts';
import { seriousAccessibilityProblems } from './support/axe.ts';
import { openWatchedPage } from './support/browser.ts';
import { focused } from './support/keyboard.ts';
import { saveScreenshot } from './support/screenshots.ts';
import { useConsoleSuite } from './support/console-suite.ts';

const CONTINUE = 'Continue with Campus login';

// A person who exists only at an upstream provider reaches the console (and so My account) through it.
describe.skipIf(!TEST_ENGINES.includes('sqlite'))('console: signing in through an upstream OpenID Connect provider (SQLite, Chromium)', () => {
  const suite = useConsoleSuite();
  let upstream: UpstreamProvider;

  beforeAll(async () => {
    upstream = await startUpstreamProvider(
      [{ client_id: 'sesame-console', client_secret: 'console client secret at the upstream', redirect_uris: [`${suite.server.issuer}/upstream/campus/callback`] }],
      {
        'up-erin': { preferred_username: 'erin', name: 'Erin Upstream', email: 'erin@example.edu', email_verified: true },
        'up-tess': { preferred_username: 'tess', name: 'Tess Two-Factor', email: 'tess@example.edu', email_verified: true },
        'up-otto': { preferred_username: 'otto', name: 'Otto Elsewhere', email: 'otto@example.edu', email_verified: true },
        'up-una': { preferred_username: 'una', name: 'Una Enrol', email: 'una@example.edu', email_verified: true },
      },
    );
    await suite.server.services.identityProviders.addProvider(systemActor, {
      type: 'oidc', name: 'campus', displayName: 'Campus login', provisioning: 'create', allowedEmailDomains: ['example.edu'],
      oidc: { issuer: upstream.issuer, clientId: 'sesame-console', clientSecret: 'console client secret at the upstream' },
    });
  }, 120_000);

  afterAll(async () => {
    await upstream?.stop();
  });

  /** "Continue with Campus login" on the console's sign-in page, then the upstream's own login form. */
  async function continueAtUpstream(page: Page, upstreamAccount: string): Promise<void> {
    await page.getByRole('button', { name: CONTINUE }).click();
    await page.waitForURL((url) => url.origin === upstream.issuer);
    await page.fill('input[name=login]', upstreamAccount);
    await page.fill('input[name=password]', 'anything: the upstream fixture takes any password');
    await page.click('button[type=submit]');
  }

  /**
   * A page watched for console problems. The upstream's login page (oidc-provider's development page) asks
   * for a web font on the internet, which the test machine cannot reach: such requests get an empty answer.
   */
  async function openPage() {
    const watched = await openWatchedPage(suite.browser);
    await watched.context.route((url) => url.hostname !== '127.0.0.1' && url.hostname !== 'localhost', (route) => route.fulfill({ status: 204 }));
    return watched;
  }

  const signedInStatus = (page: Page) => page.evaluate(async () => (await fetch('/api/management/auth/me')).status);

  test('a person known only upstream signs in, lands where they were going, sees the link in My account and cannot unlink their only way in', async () => {
    const { page, context, problems } = await openPage();
    await page.goto(suite.server.consoleUrl('/account/identities'));
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await page.getByRole('button', { name: CONTINUE }).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await saveScreenshot(page, 'sign-in-with-upstream-providers');

    await continueAtUpstream(page, 'up-erin');
    await page.getByRole('heading', { name: 'Linked identities' }).waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe('/console/account/identities');
    const erin = await suite.server.services.users.findByAccount('erin');
    expect(erin?.displayName).toBe('Erin Upstream');
    const link = page.getByRole('row', { name: /Campus login/ });
    await link.waitFor();

    const logins = await suite.server.db.selectFrom('audit_log').select(['after_json']).where('action', '=', 'session.login').where('target_id', '=', erin!.subjectId).execute();
    expect(logins.map((entry) => JSON.parse(entry.after_json ?? '{}'))).toEqual([{ kind: 'console', method: 'upstream' }]);

    // The link is Erin's only way in: unlinking it is refused, and it stays.
    await page.getByRole('button', { name: 'Unlink Campus login' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Unlink this identity?' });
    await dialog.getByRole('button', { name: 'Unlink' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'your only way to sign in' }).waitFor();
    await page.keyboard.press('Escape');
    expect(await link.count()).toBe(1);

    // Back again: the same person, not a second one.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in/);
    // Forget the upstream's own session too, so it asks again.
    await context.clearCookies();
    await page.goto(suite.server.consoleUrl());
    await continueAtUpstream(page, 'up-erin');
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor({ timeout: 15_000 });
    expect((await suite.server.services.users.findByAccount('erin'))?.subjectId).toBe(erin!.subjectId);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  test('a person with a second factor gives a one-time code after the upstream; a wrong one is refused and nothing is signed in until the right one', async () => {
    const { user: tess } = await suite.server.services.federatedSignIn.signIn({
      providerName: 'campus', issuer: upstream.issuer, subject: 'up-tess', ip: null,
      attributes: { account: 'tess', displayName: 'Tess Two-Factor', email: 'tess@example.edu', emailVerified: true },
    });
    const asTess: Actor = { subjectId: tess.subjectId, isAdmin: false, surface: 'console', ip: null, provenAt: suite.server.clock.now() };
    const enrolment = await suite.server.services.factors.startTotp(asTess, { name: 'Phone' });
    const codeNow = () => generate({ secret: enrolment.secret, epoch: Math.floor(suite.server.clock.now() / 1000) });
    await suite.server.services.factors.confirmTotp(asTess, enrolment.factorId, await codeNow());
    suite.server.clock.advance(30_000);

    const { page, context, problems } = await openPage();
    await page.goto(suite.server.consoleUrl());
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await continueAtUpstream(page, 'up-tess');
    const code = page.getByLabel('One-time code');
    await code.waitFor({ timeout: 15_000 });
    await expect.poll(() => focused(page)).toBe('input:One-time code');
    expect(await signedInStatus(page)).toBe(401);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await saveScreenshot(page, 'sign-in-upstream-one-time-code');

    await code.fill('000000');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'one-time code is wrong' }).waitFor();
    expect(await signedInStatus(page)).toBe(401);

    await code.fill(await codeNow());
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    expect(await signedInStatus(page)).toBe(200);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  test('a person the policy requires to add a second factor, who has none, is signed in only to enrol: straight to Second factors', async () => {
    const { version } = await suite.server.services.settings.getSettings(systemActor);
    const everyone = await suite.server.services.settings.updateSettings(systemActor, { mfaRequired: 'everyone', expectedSettingsVersion: version });
    try {
      const { page, context, problems } = await openPage();
      await page.goto(suite.server.consoleUrl('/projects'));
      await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      await continueAtUpstream(page, 'up-una');
      await page.waitForURL((url) => url.pathname === '/console/account/security', { timeout: 15_000 });
      await page.getByText('Your organisation requires a second factor before you can use the console.').waitFor();
      const context_ = await page.evaluate(async () => (await (await fetch('/api/management/auth/context')).json()) as { enrolmentRequired?: boolean });
      expect(context_.enrolmentRequired).toBe(true);
      expect(await page.evaluate(async () => (await fetch('/api/management/projects')).status)).toBe(403);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await suite.server.services.settings.updateSettings(systemActor, { mfaRequired: 'none', expectedSettingsVersion: everyone.version });
    }
  }, 90_000);

  test('the address the upstream sends back to, opened in another suite.browser, signs that browser in as nobody', async () => {
    const first = await openWatchedPage(suite.browser);
    let callback = '';
    // The upstream redirects to Sesame's callback; keep that address and stop the request there. Playwright's
    // routes skip requests that follow a redirect, the DevTools protocol's Fetch domain does not.
    const devtools = await first.context.newCDPSession(first.page);
    devtools.on('Fetch.requestPaused', (paused) => {
      callback = paused.request.url;
      void devtools.send('Fetch.failRequest', { requestId: paused.requestId, errorReason: 'Aborted' });
    });
    await devtools.send('Fetch.enable', { patterns: [{ urlPattern: '*/upstream/campus/callback?*', requestStage: 'Request' }] });
    await first.page.goto(suite.server.consoleUrl());
    await first.page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await continueAtUpstream(first.page, 'up-otto').catch(() => undefined);
    await expect.poll(() => callback, { timeout: 15_000 }).not.toBe('');

    const second = await openPage();
    await second.page.goto(suite.server.consoleUrl());
    await second.page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
    await second.page.goto(callback);
    await second.page.getByRole('alert').filter({ hasText: 'No sign-in through a provider is waiting for this browser' }).waitFor({ timeout: 15_000 });
    expect(await signedInStatus(second.page)).toBe(401);
    // The other ways in are offered again.
    await second.page.getByRole('button', { name: CONTINUE }).waitFor();

    // The browser that started it can finish it.
    await devtools.send('Fetch.disable');
    await first.page.goto(suite.server.consoleUrl('/sign-in?upstream=campus'));
    await first.page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor({ timeout: 15_000 });
    expect((await suite.server.services.users.findByAccount('otto'))?.displayName).toBe('Otto Elsewhere');
    expect(second.problems).toEqual([]);
    await first.context.close();
    await second.context.close();
  }, 90_000);

  test('offers the providers in the page\'s language', async () => {
    const context = await suite.browser.newContext({ locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto(suite.server.consoleUrl());
    await page.getByRole('button', { name: '通过 Campus login 继续' }).waitFor();
    expect(await page.getByText('或使用其他身份提供方：').count()).toBe(1);
    await context.close();
  });
});
