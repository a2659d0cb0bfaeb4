import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { startUpstreamProvider, type UpstreamProvider } from '../helpers/upstream-oidc.ts';
import { createConsoleClient } from './helpers/api-clients.ts';

// The console's way in through an upstream provider, as its API answers; test/e2e/console-upstream-sign-in.test.ts walks it in Chromium.
describe.each(TEST_ENGINES)('console sign-in through an upstream provider (POST /auth/upstream/...) on %s', (engine) => {
  let ctx: TestContext;
  let upstream: UpstreamProvider;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    upstream = await startUpstreamProvider([{ client_id: 'sesame', client_secret: 'the secret the upstream gave Sesame', redirect_uris: [`${ctx.config.issuer}/upstream/campus/callback`] }], {});
    const add = (name: string, displayName: string, issuer: string, enabled = true) =>
      ctx.services.identityProviders.addProvider(cliActor, { type: 'oidc', name, displayName, enabled, provisioning: 'create', oidc: { issuer, clientId: 'sesame', clientSecret: 'the secret the upstream gave Sesame' } });
    await add('campus', 'Campus login', upstream.issuer);
    await add('retired', 'Retired login', upstream.issuer, false);
    // A provider that answered when it was added, and is down now.
    const stopped = await startUpstreamProvider([], {});
    await add('gone', 'Unreachable login', stopped.issuer);
    await stopped.stop();
  }, 60_000);
  afterAll(async () => {
    await upstream?.stop();
    await ctx?.close();
  });

  it('lists the enabled providers to a signed-out browser, and sends it upstream with PKCE, a console state and Sesame\'s own callback', async () => {
    const browser = createConsoleClient(ctx.app);
    const context = await browser.context();
    expect(context.body.signInProviders).toEqual([
      { name: 'campus', displayName: 'Campus login' },
      { name: 'gone', displayName: 'Unreachable login' },
    ]);

    const started = await browser.call('POST', '/auth/upstream/campus/start', { next: '/account/identities' });
    expect(started.status).toBe(200);
    const url = new URL(started.body.authorizationUrl);
    expect(url.origin).toBe(upstream.issuer);
    expect(url.searchParams.get('redirect_uri')).toBe(`${ctx.config.issuer}/upstream/campus/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toMatch(/^console\.[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(browser.jar.size).toBe(1);
  });

  it('refuses a start without the login-CSRF token, for an unknown or disabled provider, or with a return path elsewhere', async () => {
    const browser = createConsoleClient(ctx.app);
    await browser.context();
    const token = browser.csrfToken;
    browser.csrfToken = undefined;
    expect((await browser.call('POST', '/auth/upstream/campus/start', {})).body.error).toBe('csrf_failed');
    browser.csrfToken = token;

    for (const name of ['nobody', 'retired']) {
      const refused = await browser.call('POST', `/auth/upstream/${name}/start`, {});
      expect(refused.status).toBe(404);
      expect(refused.body.error_description).toContain('signInProviders');
    }
    const elsewhere = await browser.call('POST', '/auth/upstream/campus/start', { next: '//evil.example/' });
    expect(elsewhere.status).toBe(400);
    expect(Object.keys(elsewhere.body.field_errors)).toEqual(['next']);
  });

  it('says when a provider cannot be reached: 503 with Retry-After', async () => {
    const browser = createConsoleClient(ctx.app);
    await browser.context();
    const unreachable = await browser.call('POST', '/auth/upstream/gone/start', {});
    expect(unreachable.status).toBe(503);
    expect(unreachable.body.error).toBe('service_unavailable');
    expect(Number(unreachable.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('finishes nothing for a browser no provider has sent back, and needs the login-CSRF token', async () => {
    const browser = createConsoleClient(ctx.app);
    await browser.context();
    await browser.call('POST', '/auth/upstream/campus/start', {});
    const early = await browser.call('POST', '/auth/upstream/finish', {});
    expect(early.status).toBe(401);
    expect(early.body.error).toBe('invalid_credentials');
    expect(early.body.error_description).toContain('Continue with');
    browser.csrfToken = undefined;
    expect((await browser.call('POST', '/auth/upstream/finish', { otp: '123456' })).body.error).toBe('csrf_failed');
    expect((await browser.call('GET', '/auth/me')).status).toBe(401);
  });
});
