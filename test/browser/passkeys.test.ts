import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode, type AuthorizationRequest } from '../helpers/oidc-relying-party.ts';
import { seriousAccessibilityProblems } from '../e2e/support/axe.ts';
import { DESKTOP, PHONE } from '../e2e/support/browser.ts';
import { saveScreenshot } from '../e2e/support/screenshots.ts';
import { useSignInSuite } from '../helpers/sign-in-suite.ts';

/**
 * Passkeys in the system Chromium with its WebAuthn virtual authenticator (Chrome DevTools Protocol):
 * added through the My account operations from a page of Sesame's origin with the bundled browser helper,
 * then signing in to a relying party with the passkey alone and after the password, removed, and
 * enrolled inside a sign-in the policy requires.
 */
describe.each(TEST_ENGINES)('passkeys in Chromium on %s', (engine) => {
  const suite = useSignInSuite({ engine, issuerHost: 'localhost', relyingParty: { displayName: 'Passkey test app', scopes: ['openid', 'profile'] } });

  interface AuthenticatorPage {
    context: BrowserContext;
    page: Page;
    cdp: CDPSession;
    problems: string[];
  }

  async function pageWithAuthenticator(): Promise<AuthenticatorPage> {
    const context = await suite.browser.newContext({ viewport: DESKTOP });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    return { context, page, cdp, problems };
  }

  /**
   * Adds a passkey through the console's My account operations (adding one is the person's alone, in their
   * browser session: DESIGN.md section 14), from a page of Sesame's origin that loads the bundled helper.
   */
  async function addPasskeyThroughOperations(page: Page, person: { account: string; password: string }, name: string) {
    const config = await discoverAs(suite.server.issuer, suite.rp);
    await page.goto((await authorizationRequest(config, suite.rp, 'openid profile')).url);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    return page.evaluate(
      async ({ person, name }) => {
        const json = { 'content-type': 'application/json' };
        const context = await (await fetch('/api/management/auth/context')).json();
        const login = await (await fetch('/api/management/auth/login', { method: 'POST', headers: { ...json, 'x-csrf-token': context.csrfToken }, body: JSON.stringify(person) })).json();
        const auth = { 'x-csrf-token': login.csrfToken as string };
        const optionsJSON = await (await fetch('/api/management/account/factors/passkeys/options', { method: 'POST', headers: auth })).json();
        const helper = (window as unknown as { SimpleWebAuthnBrowser: { startRegistration(input: { optionsJSON: unknown }): Promise<unknown> } }).SimpleWebAuthnBrowser;
        const response = await helper.startRegistration({ optionsJSON });
        const added = await fetch('/api/management/account/factors/passkeys', { method: 'POST', headers: { ...json, ...auth }, body: JSON.stringify({ name, response }) });
        const list = await (await fetch('/api/management/account/factors')).json();
        return { status: added.status, body: await added.json(), options: optionsJSON, factors: list.factors, csrfToken: login.csrfToken as string };
      },
      { person, name },
    );
  }

  /** Waits for the relying party's callback (allowing on the consent page if it comes), and redeems the code there. */
  async function toRelyingParty(page: Page, config: Awaited<ReturnType<typeof discoverAs>>, request: AuthorizationRequest) {
    const atRelyingParty = page.waitForURL((url) => url.href.startsWith(suite.rp.redirectUri), { timeout: 15_000 });
    const consent = page.getByRole('heading', { name: 'Allow access?' }).waitFor({ timeout: 15_000 });
    atRelyingParty.catch(() => undefined);
    consent.catch(() => undefined);
    await Promise.race([atRelyingParty, consent]);
    if (!page.url().startsWith(suite.rp.redirectUri)) {
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((url) => url.href.startsWith(suite.rp.redirectUri), { timeout: 15_000 });
    }
    return (await redeemCode(config, request, page.url())).claims()!;
  }

  /** Pictures of the page as it is now, at desktop and phone sizes. */
  async function screenshotsOf(page: Page, name: string) {
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await saveScreenshot(page, name);
    }
    await page.setViewportSize(DESKTOP);
  }

  it('adds a passkey through the operations, signs in with it alone and after the password, and not once it is removed', async () => {
    const { context, page, problems } = await pageWithAuthenticator();
    const added = await addPasskeyThroughOperations(page, PERSON, 'Laptop');
    expect(added.status).toBe(201);
    expect(added.options.rp.id).toBe('localhost');
    expect(added.options.authenticatorSelection.residentKey).toBe('required');
    expect(added.body.factor).toMatchObject({ type: 'passkey', name: 'Laptop' });
    expect(added.body.recoveryCodes).toHaveLength(10);
    expect(added.factors.map((factor: { type: string }) => factor.type)).toEqual(['passkey', 'recovery_codes']);
    const factorId = added.body.factor.factorId as string;
    // The console session that added it, kept to remove it at the end (the sign-ins below start from no cookies).
    const consoleSession = await context.cookies(suite.server.issuer);

    // Signed out: the login page's autofill request (conditional mediation), which the virtual
    // authenticator answers as a person picking the passkey from the account field's suggestions would.
    await context.clearCookies();
    const config = await discoverAs(suite.server.issuer, suite.rp);
    const autofill = await authorizationRequest(config, suite.rp, 'openid profile', { prompt: 'consent' });
    await page.goto(autofill.url);
    const autofillClaims = await toRelyingParty(page, config, autofill);
    expect(autofillClaims.sub).toBe(suite.fixture.person.subjectId);
    expect(autofillClaims.amr).toEqual(['hwk', 'mfa']);
    expect(autofillClaims.acr).toBe('mfa');

    // From here on this browser offers no autofill, so the login page waits for its button.
    await page.addInitScript(() => {
      Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: async () => false });
    });

    // Signed out: "Sign in with a passkey", no account typed.
    await context.clearCookies();
    const alone = await authorizationRequest(config, suite.rp, 'openid profile', { prompt: 'consent' });
    await page.goto(alone.url);
    const button = page.getByRole('button', { name: 'Sign in with a passkey' });
    await button.waitFor();
    expect(await page.getByLabel('Account').getAttribute('autocomplete')).toBe('username webauthn');
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshotsOf(page, 'oidc-login-with-passkey');
    await button.click();
    const claims = await toRelyingParty(page, config, alone);
    expect(claims.sub).toBe(suite.fixture.person.subjectId);
    expect(claims.amr).toEqual(['hwk', 'mfa']);
    expect(claims.acr).toBe('mfa');

    // Signed out: the password, then the passkey as the second factor.
    await context.clearCookies();
    const second = await authorizationRequest(config, suite.rp, 'openid profile');
    await page.goto(second.url);
    await page.getByLabel('Account').fill(PERSON.account);
    await page.getByLabel('Password').fill(PERSON.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Enter your one-time code' }).waitFor();
    await page.getByRole('button', { name: 'Use a passkey instead' }).waitFor();
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    await screenshotsOf(page, 'oidc-second-step-with-passkey');
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    const secondClaims = await toRelyingParty(page, config, second);
    expect(secondClaims.amr).toEqual(['pwd', 'hwk', 'mfa']);
    expect(secondClaims.acr).toBe('mfa');
    const lastUsed = (await suite.server.db.selectFrom('account_factors').select(['last_used_at', 'sign_count']).where('factor_id', '=', factorId).executeTakeFirstOrThrow());
    expect(lastUsed.last_used_at).not.toBeNull();

    // Removed: the authenticator still offers it, Sesame no longer takes it.
    await context.clearCookies();
    await context.addCookies(consoleSession);
    await page.goto((await authorizationRequest(config, suite.rp, 'openid profile')).url);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const removed = await page.evaluate(
      async ({ factorId, csrfToken, currentPassword }) =>
        (await fetch(`/api/management/account/factors/${factorId}`, { method: 'DELETE', headers: { 'x-csrf-token': csrfToken, 'content-type': 'application/json' }, body: JSON.stringify({ currentPassword }) })).status,
      { factorId, csrfToken: added.csrfToken, currentPassword: PERSON.password },
    );
    expect(removed).toBe(204);
    await context.clearCookies();
    await page.goto((await authorizationRequest(config, suite.rp, 'openid profile')).url);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('That passkey did not sign you in');
    expect(new URL(page.url()).origin).toBe(suite.server.issuer);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('still signs in with the passkey once the account\'s one-time-code step is capped after 10 wrong codes', async () => {
    const carol = { account: `carol-${engine}`, password: 'carol-password-1' };
    const person = await suite.server.services.users.createUser(suite.fixture.adminActor, { account: carol.account, displayName: 'Carol Example', password: carol.password });
    const { context, page, problems } = await pageWithAuthenticator();
    const added = await addPasskeyThroughOperations(page, carol, 'Laptop');
    expect(added.status).toBe(201);
    const recoveryCode = (added.body.recoveryCodes as string[])[0]!;
    // Ten wrong codes for Carol's account, from ten addresses (someone who has her password).
    for (let i = 1; i <= 10; i++) {
      expect(await suite.server.services.users.signInSecondStep(person.subjectId, '000000', { ip: `203.0.113.${i}`, surface: 'login_page' }, 'pwd')).toBeNull();
    }

    await context.clearCookies();
    await page.addInitScript(() => {
      Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: async () => false });
    });
    const config = await discoverAs(suite.server.issuer, suite.rp);
    const request = await authorizationRequest(config, suite.rp, 'openid profile');
    await page.goto(request.url);
    await page.getByLabel('Account').fill(carol.account);
    await page.getByLabel('Password').fill(carol.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Enter your one-time code' }).waitFor();
    // The code step is capped, whatever the code: even an unused recovery code is refused for now.
    await page.getByLabel('Code from your authenticator app, or a recovery code').fill(recoveryCode);
    const capped = page.waitForResponse((response) => response.url().endsWith('/otp'));
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    expect((await capped).status()).toBe(429);
    await page.getByRole('alert').waitFor();
    // The passkey is not capped.
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    const claims = await toRelyingParty(page, config, request);
    expect(claims.sub).toBe(person.subjectId);
    expect(claims.amr).toEqual(['pwd', 'hwk', 'mfa']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('enrols a passkey inside a sign-in the policy requires, shows the recovery codes once, then the application gets its code', async () => {
    const { version } = await suite.server.services.settings.getSettings(suite.fixture.adminActor);
    await suite.server.services.settings.updateSettings(suite.fixture.adminActor, { mfaRequired: 'everyone', expectedSettingsVersion: version });
    const bob = { account: `bob-${engine}`, password: 'bob-password-1' };
    const person = await suite.server.services.users.createUser(suite.fixture.adminActor, { account: bob.account, displayName: 'Bob Example', password: bob.password });
    const codes = async () => (await suite.server.db.selectFrom('oidc_payloads').select('kind').where('kind', '=', 'AuthorizationCode').execute()).length;
    const codesBefore = await codes();
    try {
      const { context, page, problems } = await pageWithAuthenticator();
      const config = await discoverAs(suite.server.issuer, suite.rp);
      const request = await authorizationRequest(config, suite.rp, 'openid profile');
      await page.goto(request.url);
      await page.getByLabel('Account').fill(bob.account);
      await page.getByLabel('Password').fill(bob.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Set up a second factor' }).waitFor();
      await page.getByRole('button', { name: 'Use a passkey instead' }).waitFor();
      expect(await page.getByRole('img', { name: 'QR code for your authenticator app' }).isVisible()).toBe(true);
      expect(await seriousAccessibilityProblems(page)).toEqual([]);
      await screenshotsOf(page, 'oidc-enrolment');
      await page.getByRole('button', { name: 'Use a passkey instead' }).click();
      await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
      expect(await page.locator('ol.recovery-codes li').count()).toBe(10);
      expect(await seriousAccessibilityProblems(page)).toEqual([]);
      await screenshotsOf(page, 'oidc-recovery-codes');
      expect(await codes()).toBe(codesBefore);
      await page.getByRole('button', { name: 'I saved them, continue' }).click();
      const claims = await toRelyingParty(page, config, request);
      expect(claims.sub).toBe(person.subjectId);
      expect(claims.amr).toEqual(['pwd', 'hwk', 'mfa']);
      expect(claims.acr).toBe('mfa');
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      const { version: now } = await suite.server.services.settings.getSettings(suite.fixture.adminActor);
      await suite.server.services.settings.updateSettings(suite.fixture.adminActor, { mfaRequired: 'none', expectedSettingsVersion: now });
    }
  });
});
