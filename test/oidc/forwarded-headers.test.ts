import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { setUpOidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, isLoginPage, OidcUserAgent } from '../helpers/oidc-user-agent.ts';

interface ProviderView {
  ip: string;
  protocol: string;
  host: string;
}

/** Records how oidc-provider's Koa reads each request handed to it: its client address, protocol and host. */
function watchWhatTheProviderSees(app: FastifyInstance): ProviderView[] {
  const seen: ProviderView[] = [];
  const handle = app.oidc.handle;
  app.oidc.handle = (req, res) => {
    const koa = app.oidc.current().createContext(req, res);
    seen.push({ ip: koa.ip, protocol: koa.protocol, host: koa.host });
    return handle(req, res);
  };
  return seen;
}

const SPOOFED = {
  host: 'localhost:3000',
  'x-forwarded-for': '203.0.113.66',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-port': '8443',
  forwarded: 'for=203.0.113.66;proto=https;host=evil.example',
};

async function registerSpa(ctx: TestContext, redirectUri: string): Promise<string> {
  const admin = (await ctx.services.users.findByAccount('admin'))!;
  const actor = { subjectId: admin.subjectId, isAdmin: true, surface: 'cli' as const, ip: null };
  const project = await ctx.services.projects.createProject(actor, { name: 'Forwarding' });
  const { client } = await ctx.services.clients.registerClient(actor, project.projectId, {
    clientType: 'spa',
    displayName: 'Forwarding app',
    redirectUris: [redirectUri],
    scopeWhitelist: ['openid'],
  });
  return client.clientId;
}

function authorizationUrl(clientId: string, redirectUri: string): string {
  const query = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  return `/auth?${query}`;
}

function setCookies(response: { headers: Record<string, unknown> }): string[] {
  const cookies = ([] as string[]).concat((response.headers['set-cookie'] as string | string[] | undefined) ?? []);
  expect(cookies.length).toBeGreaterThan(0);
  return cookies.map((cookie) => cookie.toLowerCase());
}

describe.each(TEST_ENGINES)('forwarding headers as oidc-provider sees them on %s', (engine) => {
  describe('without TRUST_PROXY', () => {
    let ctx: TestContext;
    let seen: ProviderView[];
    beforeAll(async () => {
      ctx = await createTestContext(engine);
      seen = watchWhatTheProviderSees(ctx.app);
    });
    afterAll(() => ctx.close());

    it('believes none of a client’s forwarding headers: the socket address, http, the Host header', async () => {
      const response = await ctx.app.inject({ url: '/.well-known/openid-configuration', remoteAddress: '198.51.100.20', headers: SPOOFED });
      expect(response.statusCode).toBe(200);
      expect(seen.at(-1)).toEqual({ ip: '198.51.100.20', protocol: 'http', host: 'localhost:3000' });
      const discovery = response.json<{ issuer: string; token_endpoint: string }>();
      expect(discovery.issuer).toBe('http://localhost:3000');
      expect(discovery.token_endpoint).toBe('http://localhost:3000/token');
    });

    it('advertises the issuer\'s endpoints whatever Host header the request carries', async () => {
      const response = await ctx.app.inject({ url: '/.well-known/openid-configuration', headers: { host: 'evil.example:666' } });
      expect(response.statusCode).toBe(200);
      expect(seen.at(-1)?.host).toBe('localhost:3000');
      const discovery = response.json<Record<string, unknown>>();
      const advertised = Object.values(discovery).filter((value): value is string => typeof value === 'string' && value.startsWith('http'));
      expect(advertised.length).toBeGreaterThanOrEqual(5);
      for (const url of advertised) expect(url === 'http://localhost:3000' || url.startsWith('http://localhost:3000/'), url).toBe(true);
      expect(response.body).not.toContain('evil.example');
    });
  });

  describe('with TRUST_PROXY=127.0.0.1 and an http issuer', () => {
    let ctx: TestContext;
    let seen: ProviderView[];
    let clientId: string;
    const redirectUri = 'http://127.0.0.1:9/forwarding/cb';
    beforeAll(async () => {
      ctx = await createTestContext(engine, { TRUST_PROXY: '127.0.0.1' });
      seen = watchWhatTheProviderSees(ctx.app);
      clientId = await registerSpa(ctx, redirectUri);
    });
    afterAll(() => ctx.close());

    it('believes the trusted proxy’s X-Forwarded-For and X-Forwarded-Proto, never its forwarded host', async () => {
      await ctx.app.inject({ url: '/.well-known/openid-configuration', remoteAddress: '127.0.0.1', headers: SPOOFED });
      expect(seen.at(-1)).toEqual({ ip: '203.0.113.66', protocol: 'https', host: 'localhost:3000' });
    });

    it('believes nothing from an address it does not trust', async () => {
      await ctx.app.inject({ url: '/.well-known/openid-configuration', remoteAddress: '198.51.100.20', headers: SPOOFED });
      expect(seen.at(-1)).toEqual({ ip: '198.51.100.20', protocol: 'http', host: 'localhost:3000' });
    });

    it('marks cookies Secure only when the trusted proxy says https, not when any caller does', async () => {
      const url = authorizationUrl(clientId, redirectUri);
      const viaProxy = await ctx.app.inject({ url, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-proto': 'https' } });
      expect(viaProxy.statusCode).toBe(303);
      for (const cookie of setCookies(viaProxy)) expect(cookie).toContain('; secure');

      const spoofed = await ctx.app.inject({ url, remoteAddress: '198.51.100.20', headers: { 'x-forwarded-proto': 'https' } });
      expect(spoofed.statusCode).toBe(303);
      for (const cookie of setCookies(spoofed)) expect(cookie).not.toContain('; secure');
    });
  });

  describe('with TRUST_PROXY=1 (one proxy hop)', () => {
    let ctx: TestContext;
    let seen: ProviderView[];
    beforeAll(async () => {
      ctx = await createTestContext(engine, { TRUST_PROXY: '1' });
      seen = watchWhatTheProviderSees(ctx.app);
    });
    afterAll(() => ctx.close());

    it('takes the address the proxy saw, not one the client prepended to X-Forwarded-For', async () => {
      await ctx.app.inject({ url: '/.well-known/openid-configuration', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.66' } });
      expect(seen.at(-1)?.ip).toBe('203.0.113.66');
    });
  });

  describe('with an https issuer and no TRUST_PROXY', () => {
    let ctx: TestContext;
    let clientId: string;
    const redirectUri = 'https://app.example.test/cb';
    beforeAll(async () => {
      ctx = await createTestContext(engine, { OIDC_ISSUER: 'https://id.example.test' });
      clientId = await registerSpa(ctx, redirectUri);
    });
    afterAll(() => ctx.close());

    it('marks cookies Secure even when the proxy sends no X-Forwarded-Proto: an https issuer implies TLS in front', async () => {
      const response = await ctx.app.inject({ url: authorizationUrl(clientId, redirectUri), remoteAddress: '198.51.100.20', headers: { host: 'id.example.test' } });
      expect(response.statusCode).toBe(303);
      for (const cookie of setCookies(response)) expect(cookie).toContain('; secure');
    });
  });
});

describe.each(TEST_ENGINES)('the per-IP sign-in failure limit against rotated X-Forwarded-For on %s', (engine) => {
  const LIMITS = { SIGNIN_MAX_FAILURES_PER_IP: '3', SIGNIN_MAX_FAILURES_PER_ACCOUNT: '0', SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '0' };

  async function openLoginPage(server: OidcTestServer) {
    const fixture = await setUpOidcFixture(server);
    const agent = new OidcUserAgent(server.issuer);
    const config = await discoverAs(server.issuer, fixture.spa);
    const page = await agent.follow((await authorizationRequest(config, fixture.spa, 'openid')).url);
    expect(isLoginPage(page)).toBe(true);
    const action = /action="(\/interaction\/[^"]+\/login)"/.exec(page.body)![1]!;
    const failSignIn = async (forwardedFor: string, attempt: number) =>
      (await agent.request(action, { form: { csrf: csrfTokenOf(page), account: `nobody-${attempt}`, password: 'wrong' }, headers: { 'x-forwarded-for': forwardedFor } })).status;
    return failSignIn;
  }

  describe('without TRUST_PROXY', () => {
    let server: OidcTestServer;
    beforeAll(async () => {
      server = await startOidcTestServer(engine, LIMITS);
    });
    afterAll(() => server.close());

    it('counts every failure against the real address, whatever X-Forwarded-For says', async () => {
      const failSignIn = await openLoginPage(server);
      const statuses = [];
      for (let attempt = 1; attempt <= 5; attempt += 1) statuses.push(await failSignIn(`203.0.113.${attempt}`, attempt));
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    });
  });

  describe('with TRUST_PROXY=127.0.0.1', () => {
    let server: OidcTestServer;
    beforeAll(async () => {
      server = await startOidcTestServer(engine, { ...LIMITS, TRUST_PROXY: '127.0.0.1' });
    });
    afterAll(() => server.close());

    it('counts failures against the address the trusted proxy forwards', async () => {
      const failSignIn = await openLoginPage(server);
      const rotated = [];
      for (let attempt = 1; attempt <= 5; attempt += 1) rotated.push(await failSignIn(`203.0.113.${attempt}`, attempt));
      expect(rotated).toEqual([401, 401, 401, 401, 401]);

      const oneAddress = [];
      for (let attempt = 6; attempt <= 9; attempt += 1) oneAddress.push(await failSignIn('198.51.100.50', attempt));
      expect(oneAddress).toEqual([401, 401, 401, 429]);
    });
  });
});
