import { createHash, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../src/i18n/catalogues.ts';
import { launchBrowser } from '../e2e/support/browser.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { startLoopbackCallback, type LoopbackCallback } from '../helpers/loopback-callback.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { registerAssistant } from '../mcp/assistant-client.ts';

const ADMINISTRATOR = { account: 'bob', password: 'bob-password-123' } as const;
const READ = 'See your projects, their members, clients and audit trail';
const WRITE = 'Make every change your role allows';
const ADMIN = 'Use your administrator rights';

/** The consent page an assistant (a registered native client) meets in Chromium, each of its buttons, and what the token then holds. */
describe.each(TEST_ENGINES)('the consent page for an assistant, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let browser: Browser;
  let callback: LoopbackCallback;

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    await server.services.users.createUser(fixture.adminActor, { account: ADMINISTRATOR.account, displayName: 'Bob Admin', password: ADMINISTRATOR.password, isAdmin: true });
    callback = await startLoopbackCallback();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await callback?.close();
    await server?.close();
  });

  const newAssistant = (displayName: string) => registerAssistant(server.services, fixture.adminActor, fixture.projectId, { displayName });

  /** Starts an authorization of `clientId` in the page; returns how to exchange the code it ends with. */
  async function startAuthorization(page: Page, clientId: string, scope: string, options: { resource?: string | null } = {}) {
    const verifier = randomBytes(32).toString('base64url');
    const resource = options.resource === undefined ? `${server.issuer}/mcp` : options.resource;
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: callback.redirectUri,
      response_type: 'code',
      scope,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      ...(resource ? { resource } : {}),
    });
    const response = await page.goto(`${server.issuer}/auth?${query}`);
    return {
      status: response?.status(),
      async token(): Promise<{ scope: string; refresh_token?: string }> {
        await page.getByRole('heading', { name: 'You can close this window' }).waitFor({ timeout: 8000 }).catch(async (error: unknown) => {
          throw new Error(`no code at ${page.url()}: ${(await page.content()).slice(0, 3000)}`, { cause: error });
        });
        const code = new URL(page.url()).searchParams.get('code');
        const answer = await fetch(`${server.issuer}/token`, {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'authorization_code', code: code!, client_id: clientId, redirect_uri: callback.redirectUri, code_verifier: verifier, resource: resource ?? '' }),
        });
        expect(answer.status).toBe(200);
        return (await answer.json()) as { scope: string; refresh_token?: string };
      },
    };
  }

  async function signIn(page: Page, person: { account: string; password: string }) {
    await page.getByLabel('Account').fill(person.account);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async function consentText(page: Page): Promise<string> {
    await page.getByRole('heading', { name: 'Allow this assistant?' }).waitFor({ timeout: 8000 }).catch(async (error: unknown) => {
      throw new Error(`no consent page at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 500)}`, { cause: error });
    });
    return page.locator('main').innerText();
  }

  /** When the assistant's one grant row expires (epoch ms): what listings order by and when it stops. */
  async function grantExpiry(clientId: string): Promise<number> {
    const grants = await server.db.selectFrom('oidc_payloads').select('expires_at').where('kind', '=', 'Grant').where('client_id', '=', clientId).execute();
    expect(grants).toHaveLength(1);
    return grants[0]!.expires_at!;
  }

  const buttons = async (page: Page) => (await page.locator('form.actions button').allInnerTexts()).map((label) => label.trim());

  async function withContext<T>(work: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
    const context = await browser.newContext({ locale: 'en-GB' });
    try {
      return await work(await context.newPage(), context);
    } finally {
      await context.close();
    }
  }

  it('"Allow" grants everything asked; the page names the assistant, its project, each scope in plain words, and where to withdraw it', async () => {
    const clientId = await newAssistant('Admin helper');
    await withContext(async (page) => {
      const flow = await startAuthorization(page, clientId, 'sesame:read sesame:write sesame:admin');
      await signIn(page, ADMINISTRATOR);
      const text = await consentText(page);
      expect(text).toContain('Admin helper');
      expect(text).toContain('Registered in the project Protocol tests.');
      for (const scope of [READ, WRITE, ADMIN]) expect(text).toContain(scope);
      // The pointer names the console's own section, in the console's own words.
      const en = CATALOGUES.en;
      expect(text).toContain(`${en['console.account.title']}, ${en['console.account.applications']}`);
      expect(await buttons(page)).toEqual(['Allow', 'Allow without administration', 'Allow read-only', 'Deny']);
      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      const token = await flow.token();
      expect(token.scope.split(' ').sort()).toEqual(['sesame:admin', 'sesame:read', 'sesame:write']);
      expect(token.refresh_token).toEqual(expect.any(String));
    });
  });

  it('"Allow without administration" grants everything but sesame:admin', async () => {
    const clientId = await newAssistant('Careful helper');
    await withContext(async (page) => {
      const flow = await startAuthorization(page, clientId, 'sesame:read sesame:write sesame:admin');
      await signIn(page, ADMINISTRATOR);
      await consentText(page);
      await page.getByRole('button', { name: 'Allow without administration' }).click();
      expect((await flow.token()).scope.split(' ').sort()).toEqual(['sesame:read', 'sesame:write']);
    });
  });

  it('"Allow read-only" grants sesame:read; asking later for more shows the page again with the whole list, and "Allow" widens the grant', async () => {
    const clientId = await newAssistant('Reader');
    await withContext(async (page) => {
      const first = await startAuthorization(page, clientId, 'sesame:read sesame:write');
      await signIn(page, PERSON);
      const text = await consentText(page);
      expect(text).not.toContain(ADMIN);
      expect(await buttons(page)).toEqual(['Allow', 'Allow read-only', 'Deny']);
      server.clock.set(Date.now());
      await page.getByRole('button', { name: 'Allow read-only' }).click();
      expect((await first.token()).scope).toBe('sesame:read');
      const firstExpiry = await grantExpiry(clientId);

      // The same browser, the same assistant asking for read and write again: the grant holds read only, so the person is asked.
      // (Seconds later: widening must not extend the grant's life.)
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const second = await startAuthorization(page, clientId, 'sesame:read sesame:write');
      const again = await consentText(page);
      expect(again).toContain(READ);
      expect(again).toContain(WRITE);
      server.clock.set(Date.now());
      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      expect((await second.token()).scope.split(' ').sort()).toEqual(['sesame:read', 'sesame:write']);
      // The grant still ends 90 days after the first consent, not after the widening (times in whole seconds).
      expect(Math.abs((await grantExpiry(clientId)) - firstExpiry)).toBeLessThan(1000);

      // Now the grant holds what is asked. An assistant still meets the page (a native client is asked every time, RFC 8252 8.6), with the whole list, not only what is new.
      const third = await startAuthorization(page, clientId, 'sesame:read sesame:write');
      const existing = await consentText(page);
      expect(existing).toContain(READ);
      expect(existing).toContain(WRITE);
      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      expect((await third.token()).scope.split(' ').sort()).toEqual(['sesame:read', 'sesame:write']);
    });

    const consents = await server.services.account.listConsents({ actor: { subjectId: fixture.person.subjectId, isAdmin: false, surface: 'cli', ip: null } } as never);
    expect(consents.filter((consent) => consent.clientId === clientId).flatMap((consent) => consent.scopes)).toContain('sesame:write');
    const trail = await server.services.audit.listAdminAuditLogs(fixture.adminActor, { limit: 100 });
    const connects = trail.filter((entry) => entry.action === 'assistant.connect' && entry.viaClientId === clientId);
    // Connected read-only, then widened: two entries, the person and the assistant in each; the third authorization widened nothing.
    expect(connects).toHaveLength(2);
    expect(connects.map((entry) => entry.after?.scopes)).toEqual([['sesame:read', 'sesame:write'], ['sesame:read']]);
    for (const entry of connects) expect(entry).toMatchObject({ actorSubjectId: fixture.person.subjectId, targetId: fixture.person.subjectId, viaClientName: 'Reader' });
  });

  it('an existing grant still shows the whole list when the person is asked again (another browser)', async () => {
    const clientId = await newAssistant('Two browsers');
    await withContext(async (page) => {
      const flow = await startAuthorization(page, clientId, 'sesame:read sesame:write');
      await signIn(page, PERSON);
      await consentText(page);
      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      await flow.token();
    });
    await withContext(async (page) => {
      await startAuthorization(page, clientId, 'sesame:read sesame:write');
      await signIn(page, PERSON);
      const text = await consentText(page);
      expect(text).toContain(READ);
      expect(text).toContain(WRITE);
      expect(await page.locator('main ul.plain-list li').count()).toBeGreaterThanOrEqual(2);
    });
  });

  it('a request for sesame:* without a resource ends on an error page, never a consent', async () => {
    const clientId = await newAssistant('No resource');
    const codesBefore = callback.codes.length;
    await withContext(async (page) => {
      const flow = await startAuthorization(page, clientId, 'sesame:read sesame:write', { resource: null });
      expect(flow.status).toBe(400);
      await expect(page.getByRole('alert').innerText()).resolves.toContain('without saying which Sesame service it wants');
      expect(await page.getByRole('button', { name: 'Allow', exact: true }).count()).toBe(0);
      expect(new URL(page.url()).origin).toBe(server.issuer);
      expect(callback.codes.length).toBe(codesBefore);
    });
  });

  it('speaks Simplified Chinese, pointing to the console\'s own section', async () => {
    const clientId = await newAssistant('中文助手');
    const context = await browser.newContext({ locale: 'zh-CN' });
    try {
      const page = await context.newPage();
      await startAuthorization(page, clientId, 'sesame:read sesame:write sesame:admin');
      await page.locator('input[name="account"]').fill(ADMINISTRATOR.account);
      await page.locator('input[name="password"]').fill(ADMINISTRATOR.password);
      await page.locator('form button[type="submit"]').first().click();
      await page.locator('form.actions').waitFor();
      const text = await page.locator('main').innerText();
      const zh = CATALOGUES['zh-CN'];
      expect(text).toContain(zh['consent.assistant.allowWithoutAdmin']);
      expect(text).toContain(`“${zh['console.account.title']}”的“${zh['console.account.applications']}”`);
    } finally {
      await context.close();
    }
  });
});
