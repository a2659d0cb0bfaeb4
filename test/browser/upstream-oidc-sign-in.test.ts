import * as oidc from 'openid-client';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import type { RelyingParty } from '../helpers/oidc-clients.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { authorizationRequest, discoverAs, redeemCode, type AuthorizationRequest } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { startUpstreamProvider, type UpstreamAccounts, type UpstreamProvider } from '../helpers/upstream-oidc.ts';
import { seriousAccessibilityProblems } from '../e2e/support/axe.ts';
import { launchBrowser } from '../e2e/support/browser.ts';
import { startRegisteredRelyingParty, type RegisteredRelyingParty } from '../helpers/relying-party-pages.ts';

const ACCOUNTS: UpstreamAccounts = {
  'up-erin': { preferred_username: 'erin', name: 'Erin Upstream', email: 'erin@example.edu', email_verified: true },
  'up-mallory': { preferred_username: 'mallory', name: 'Mallory', email: 'mallory@elsewhere.example', email_verified: true },
  'up-ivan': { preferred_username: 'ivan', name: 'Ivan', email: 'ivan@example.edu', email_verified: true },
  'up-hana': { preferred_username: 'hana-upstream', name: 'Not Hana', email: 'hana@example.edu', email_verified: false },
  'up-tess': { preferred_username: 'tess', name: 'Tess', email: 'tess@example.edu', email_verified: true },
  'up-uma': { preferred_username: 'uma', name: 'Uma', email: 'uma@example.edu', email_verified: true },
  // Anyone can type an allowed domain's address into an upstream account that does not verify it.
  'up-otto': { preferred_username: 'otto', name: 'Otto', email: 'ceo@example.edu', email_verified: false },
};

describe.each(TEST_ENGINES)('signing in through an upstream OpenID Connect provider in Chromium on %s', (engine) => {
  let server: OidcTestServer;
  let upstream: UpstreamProvider;
  let browser: Browser;
  let relyingParty: RegisteredRelyingParty;
  let rp: RelyingParty;
  let rpConfig: oidc.Configuration;

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    upstream = await startUpstreamProvider(
      [
        { client_id: 'sesame-campus', client_secret: 'campus client secret at the upstream', redirect_uris: [`${server.issuer}/upstream/campus/callback`] },
        { client_id: 'sesame-strict', client_secret: 'strict client secret at the upstream', redirect_uris: [`${server.issuer}/upstream/strict/callback`] },
      ],
      ACCOUNTS,
    );
    const bootstrapAdmin = (await server.services.users.findByAccount(server.config.bootstrapAdmin.account))!;
    const admin = { ...cliActor, subjectId: bootstrapAdmin.subjectId, surface: 'console' as const };
    await server.services.identityProviders.addProvider(admin, {
      type: 'oidc', name: 'campus', displayName: 'Campus login', provisioning: 'create', allowedEmailDomains: ['example.edu'],
      oidc: { issuer: upstream.issuer, clientId: 'sesame-campus', clientSecret: 'campus client secret at the upstream' },
    });
    await server.services.identityProviders.addProvider(admin, {
      type: 'oidc', name: 'strict', displayName: 'Partner login', provisioning: 'existing_only', linkByVerifiedEmail: true,
      oidc: { issuer: upstream.issuer, clientId: 'sesame-strict', clientSecret: 'strict client secret at the upstream' },
    });
    await server.services.users.createUser(admin, { account: 'hana', displayName: 'Hana Local', email: 'hana@example.edu', emailVerified: true, password: 'hana local password' });

    const project = await server.services.projects.createProject(admin, { name: 'Federation' });
    relyingParty = await startRegisteredRelyingParty(server.services, admin, project.projectId, { displayName: 'Federated app', scopes: ['openid', 'profile', 'email'] });
    rp = relyingParty.rp;
    rpConfig = await discoverAs(server.issuer, rp);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await relyingParty?.close();
    await upstream?.stop();
    await server?.close();
  });

  /** From the RP's authorization request through "Continue with {provider}" and the upstream's own login form. */
  async function signInUpstream(page: Page, providerButton: string, upstreamAccount: string): Promise<AuthorizationRequest> {
    const request = await authorizationRequest(rpConfig, rp, 'openid profile email');
    await page.goto(request.url);
    await page.getByRole('button', { name: providerButton }).click();
    await page.waitForURL((url) => url.origin === upstream.issuer);
    await page.fill('input[name=login]', upstreamAccount);
    await page.fill('input[name=password]', 'anything: the upstream fixture takes any password');
    await page.click('button[type=submit]');
    return request;
  }

  /** Allows Sesame's consent page (first time for this browser) and returns the code at the RP redeemed. */
  async function codeAtRelyingParty(page: Page, request: AuthorizationRequest) {
    await page.waitForURL((url) => url.href.startsWith(rp.redirectUri) || url.pathname.startsWith('/interaction/'), { timeout: 15_000 });
    if (page.url().includes('/interaction/')) await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(rp.redirectUri), { timeout: 15_000 });
    return redeemCode(rpConfig, request, page.url());
  }

  async function expectRefusedPage(page: Page, text: RegExp): Promise<void> {
    await page.getByRole('alert').waitFor({ timeout: 15_000 }).catch(async (error: unknown) => {
      throw new Error(`no alert at ${page.url()} (sesame ${server.issuer}, upstream ${upstream.issuer}): ${await page.content()} ${(await page.textContent('body'))?.slice(0, 500)}`, { cause: error });
    });
    expect(new URL(page.url()).origin).toBe(server.issuer);
    expect(await page.getByRole('alert').textContent()).toMatch(text);
    expect(page.url().startsWith(rp.redirectUri)).toBe(false);
  }

  it('shows a "Continue with" control per enabled provider on an accessible login page under its policy', async () => {
    const page = await (await browser.newContext()).newPage();
    const request = await authorizationRequest(rpConfig, rp, 'openid');
    const response = await page.goto(request.url);
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    expect(await page.getByRole('heading').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Continue with Campus login' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Continue with Partner login' }).isVisible()).toBe(true);
    expect(response?.headers()['content-security-policy']).toContain(upstream.issuer);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    // After a wrong password the other ways in are still offered.
    await page.getByLabel('Account').fill('hana');
    await page.getByLabel('Password').fill('not her password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('button', { name: 'Continue with Campus login' }).isVisible()).toBe(true);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.context().close();
  });

  it('creates a person at the first sign-in with the mapped claims, and a returning person keeps their subjectId with refreshed attributes', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const policyViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy|form-action/i.test(message.text())) policyViolations.push(message.text());
    });
    const request = await signInUpstream(page, 'Continue with Campus login', 'up-erin');
    const tokens = await codeAtRelyingParty(page, request);
    const claims = tokens.claims()!;
    expect(claims.amr).toEqual(['fed']);
    expect(claims.acr).toBe('pwd');
    const userinfo = await oidc.fetchUserInfo(rpConfig, tokens.access_token, claims.sub);
    expect(userinfo).toMatchObject({ preferred_username: 'erin', name: 'Erin Upstream', email: 'erin@example.edu', email_verified: true });
    const erin = (await server.services.users.findByAccount('erin'))!;
    expect(erin.subjectId).toBe(claims.sub);
    expect(policyViolations).toEqual([]);
    await context.close();

    upstream.setAccounts({ ...ACCOUNTS, 'up-erin': { ...ACCOUNTS['up-erin'], name: 'Erin Renamed' } });
    const again = await browser.newContext();
    const secondPage = await again.newPage();
    const second = await codeAtRelyingParty(secondPage, await signInUpstream(secondPage, 'Continue with Campus login', 'up-erin'));
    expect(second.claims()!.sub).toBe(erin.subjectId);
    expect((await oidc.fetchUserInfo(rpConfig, second.access_token, erin.subjectId)).name).toBe('Erin Renamed');
    expect((await server.services.users.findByAccount('erin'))!.displayName).toBe('Erin Renamed');
    await again.close();
    upstream.setAccounts(ACCOUNTS);
  });

  it('refuses an address at an allowed domain that the upstream does not mark verified on a 403 page, and the RP gets no code', async () => {
    const page = await (await browser.newContext()).newPage();
    const refusals: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/upstream/campus/callback') refusals.push(response.status());
    });
    await signInUpstream(page, 'Continue with Campus login', 'up-otto');
    await expectRefusedPage(page, /did not confirm that ceo@example\.edu is verified/);
    expect(refusals).toEqual([403]);
    expect(await server.services.users.findByAccount('otto')).toBeNull();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.context().close();
  });

  it('refuses an email domain the provider does not allow on a 403 page, and the RP gets no code', async () => {
    const page = await (await browser.newContext()).newPage();
    const refusals: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/upstream/campus/callback') refusals.push(response.status());
    });
    await signInUpstream(page, 'Continue with Campus login', 'up-mallory');
    await expectRefusedPage(page, /mallory@elsewhere\.example is not at a domain allowed/);
    expect(refusals).toEqual([403]);
    expect(await server.services.users.findByAccount('mallory')).toBeNull();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await page.context().close();
  });

  it('refuses a person with no account under existing_only', async () => {
    const page = await (await browser.newContext()).newPage();
    await signInUpstream(page, 'Continue with Partner login', 'up-ivan');
    await expectRefusedPage(page, /not linked to a Sesame account/);
    expect(await server.services.users.findByAccount('ivan')).toBeNull();
    await page.context().close();
  });

  it('never links by an email the upstream does not verify', async () => {
    const page = await (await browser.newContext()).newPage();
    await signInUpstream(page, 'Continue with Partner login', 'up-hana');
    await expectRefusedPage(page, /not linked to a Sesame account/);
    const hana = (await server.services.users.findByAccount('hana'))!;
    expect(await server.services.accountIdentities.listIdentities({ subjectId: hana.subjectId, isAdmin: false, surface: 'console', ip: null })).toEqual([]);
    expect(hana.displayName).toBe('Hana Local');
    await page.context().close();
  });

  it('ends on a Sesame page when the person cancels at the upstream, and the RP gets no code', async () => {
    const page = await (await browser.newContext()).newPage();
    const request = await authorizationRequest(rpConfig, rp, 'openid');
    await page.goto(request.url);
    await page.getByRole('button', { name: 'Continue with Campus login' }).click();
    await page.waitForURL((url) => url.origin === upstream.issuer);
    await page.getByRole('link', { name: '[ Cancel ]' }).click();
    await expectRefusedPage(page, /Campus login did not sign you in \(access_denied/);
    await page.context().close();
  });

  it('refuses a tampered state, and an answer used once already', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The state Sesame sends upstream is changed on the way (Playwright sees only the first request of a redirect chain:
    // the form's POST, whose redirect to the upstream is rewritten); the upstream hands the forged state back.
    await page.route((url) => url.pathname === '/interaction/' + url.pathname.split('/')[2] + '/upstream/campus', async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const location = new URL(response.headers()['location']!);
      const state = location.searchParams.get('state')!;
      location.searchParams.set('state', `${state.slice(0, state.indexOf('.'))}.forged-state-value`);
      await route.fulfill({ status: 303, headers: { location: location.href } });
    });
    await signInUpstream(page, 'Continue with Campus login', 'up-tess');
    await expectRefusedPage(page, /does not belong to a sign-in Sesame started/);
    expect(await server.services.users.findByAccount('tess')).toBeNull();
    await context.close();

    // A fresh browser (the upstream would remember the first one's sign-in and skip its form).
    const replayContext = await browser.newContext();
    const replayPage = await replayContext.newPage();
    let callback = '';
    replayPage.on('request', (request) => {
      if (request.url().includes('/upstream/campus/callback?')) callback = request.url();
    });
    const request = await signInUpstream(replayPage, 'Continue with Campus login', 'up-tess');
    await codeAtRelyingParty(replayPage, request);
    expect(callback).not.toBe('');
    const replay = await replayPage.goto(callback);
    expect(replay?.status()).toBe(403);
    await expectRefusedPage(replayPage, /used already/);
    await replayContext.close();
  }, 90_000);

  it('asks a person with an authenticator for its code after the upstream sign-in, before the RP gets a code: amr ["fed","otp","mfa"], acr mfa', async () => {
    // Tess's first sign-in creates her; then she adds an authenticator app.
    const firstContext = await browser.newContext();
    const first = await firstContext.newPage();
    expect((await codeAtRelyingParty(first, await signInUpstream(first, 'Continue with Campus login', 'up-tess'))).claims()!.amr).toEqual(['fed']);
    await firstContext.close();
    const tess = (await server.services.users.findByAccount('tess'))!;
    const actor = { ...cliActor, subjectId: tess.subjectId, isAdmin: false, surface: 'console' as const, provenAt: server.clock.now() };
    const started = await server.services.factors.startTotp(actor, { name: 'Phone' });
    const codeNow = () => generate({ secret: started.secret, epoch: Math.floor(server.clock.now() / 1000) });
    await server.services.factors.confirmTotp(actor, started.factorId, await codeNow());
    server.clock.advance(30_000);

    const context = await browser.newContext();
    const page = await context.newPage();
    const redirects: string[] = [];
    page.on('request', (request) => { if (request.url().startsWith(rp.redirectUri)) redirects.push(request.url()); });
    const request = await signInUpstream(page, 'Continue with Campus login', 'up-tess');
    await page.getByRole('heading', { name: 'Enter your one-time code' }).waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).origin).toBe(server.issuer);
    expect(redirects).toEqual([]);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);

    await page.getByLabel('Code from your authenticator app, or a recovery code').fill('000000' === (await codeNow()) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(redirects).toEqual([]);
    await page.getByLabel('Code from your authenticator app, or a recovery code').fill(await codeNow());
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    const claims = (await codeAtRelyingParty(page, request)).claims()!;
    expect(claims.sub).toBe(tess.subjectId);
    expect(claims.amr).toEqual(['fed', 'otp', 'mfa']);
    expect(claims.acr).toBe('mfa');
    await context.close();
  }, 90_000);

  it('takes a person the policy requires to use a second factor through enrolment after the upstream sign-in, before the RP gets a code', async () => {
    const bootstrapAdmin = (await server.services.users.findByAccount(server.config.bootstrapAdmin.account))!;
    const admin = { ...cliActor, subjectId: bootstrapAdmin.subjectId, surface: 'console' as const };
    const { version } = await server.services.settings.getSettings(admin);
    const everyone = await server.services.settings.updateSettings(admin, { mfaRequired: 'everyone', expectedSettingsVersion: version });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const request = await signInUpstream(page, 'Continue with Campus login', 'up-uma');
      await page.getByRole('heading', { name: 'Set up a second factor' }).waitFor({ timeout: 15_000 });
      expect(new URL(page.url()).origin).toBe(server.issuer);
      expect(page.url().startsWith(rp.redirectUri)).toBe(false);
      expect(await seriousAccessibilityProblems(page)).toEqual([]);
      const secret = (await page.locator('code.totp-secret').textContent())!.trim();
      await page.getByLabel('The 6-digit code the app shows now').fill(await generate({ secret, epoch: Math.floor(server.clock.now() / 1000) }));
      await page.getByRole('button', { name: 'Confirm and continue' }).click();
      await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
      await page.getByRole('button', { name: 'I saved them, continue' }).click();
      const tokens = await codeAtRelyingParty(page, request);
      const uma = (await server.services.users.findByAccount('uma'))!;
      expect(tokens.claims()!.sub).toBe(uma.subjectId);
      expect(tokens.claims()!.acr).toBe('mfa');
      expect(tokens.claims()!.amr).toEqual(['fed', 'otp', 'mfa']);
      expect(await server.services.factors.hasFactor(uma.subjectId)).toBe(true);
      await context.close();

      // The way back from the upstream is only for the person it signed in, in that sign-in: a made-up ticket is refused.
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      const otherRequest = await authorizationRequest(rpConfig, rp, 'openid');
      await otherPage.goto(otherRequest.url);
      const uid = new URL(otherPage.url()).pathname.split('/')[2]!;
      const forged = await otherPage.goto(`${server.issuer}/interaction/${uid}/upstream-signed-in?ticket=${uma.subjectId}.${Date.now() + 60_000}.forged`);
      expect(forged?.status()).toBe(400);
      expect(await server.services.factors.listFactors({ ...admin, subjectId: uma.subjectId, isAdmin: false }).then((listed) => listed.factors.length)).toBeGreaterThan(0);
      await other.close();
    } finally {
      await server.services.settings.updateSettings(admin, { mfaRequired: 'none', expectedSettingsVersion: everyone.version });
    }
  }, 90_000);
});
