import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_SLOWDOWN_MS } from '../../src/rate-limit/sign-in-limiter.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, isLoginPage, OidcUserAgent, signInThroughPages, type PageResponse } from '../helpers/oidc-user-agent.ts';
import { redisReachable, TEST_REDIS_URL } from './helpers/redis.ts';

const redisUp = await redisReachable();

// The app trusts the loopback proxy, so each request can come "from" the address its X-Forwarded-For names.
const HOME = '192.0.2.10';
const STRANGERS = Array.from({ length: 50 }, (_, i) => `198.51.100.${i + 1}`);
// An answer slowed by the per-account count takes at least the slowdown; one that is not, far less.
const NOT_SLOWED_MS = ACCOUNT_SLOWDOWN_MS.max - 1_000;

/** A browser whose requests all come from one address (through the trusted proxy). */
class BrowserAt extends OidcUserAgent {
  address: string;
  constructor(origin: string, address: string) {
    super(origin);
    this.address = address;
  }
  override request(target: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<PageResponse> {
    return super.request(target, { ...init, headers: { ...init.headers, 'x-forwarded-for': this.address } });
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

describe.each([
  ...TEST_ENGINES.map((engine) => ({ engine, store: 'memory' as const, available: true })),
  { engine: TEST_ENGINES.includes('postgres') ? ('postgres' as const) : ('sqlite' as const), store: 'redis' as const, available: redisUp },
])('a stranger cannot lock a person out on $engine, counters in $store', ({ engine, store, available }) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  beforeAll(async () => {
    if (!available) return;
    // Default limits, except a smaller per-address one to keep the spraying test short.
    const env: Record<string, string> = { TRUST_PROXY: '127.0.0.1', SIGNIN_MAX_FAILURES_PER_IP: '20' };
    // The server's issuer names a fresh port, which keeps these counters apart from other runs on the same Redis.
    if (store === 'redis') env.REDIS_URL = TEST_REDIS_URL;
    server = await startOidcTestServer(engine, env);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function openLoginPage(browser: OidcUserAgent) {
    const config = await discoverAs(server.issuer, fixture.spa);
    // prompt=login: a browser that signed in before is asked again instead of being let through by its session.
    const page = await browser.follow((await authorizationRequest(config, fixture.spa, 'openid profile', { prompt: 'login' })).url);
    expect(isLoginPage(page)).toBe(true);
    return { page, action: /action="(\/interaction\/[^"]+\/login)"/.exec(page.body)![1]! };
  }

  /** The login page's answer to the form, timed; 303 onwards to the application when signed in. */
  async function loginPageAnswer(browser: OidcUserAgent, password: string) {
    const { page, action } = await openLoginPage(browser);
    return timed(() => browser.request(action, { form: { csrf: csrfTokenOf(page), account: PERSON.account, password } }));
  }

  async function agentLogin(address: string, password: string) {
    return timed(async () => {
      const response = await fetch(`${server.issuer}/api/agent/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ account: PERSON.account, password }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown>, retryAfter: response.headers.get('retry-after') };
    });
  }

  /** The console's sign-in as its page makes it: context (login-CSRF cookie and token), then login, with the browser's cookies. */
  async function consoleLogin(address: string, password: string, deviceCookie = '') {
    const context = await fetch(`${server.issuer}/api/management/auth/context`, { headers: { 'x-forwarded-for': address } });
    const csrfToken = ((await context.json()) as { csrfToken: string }).csrfToken;
    const cookies = [...context.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!), ...(deviceCookie ? [deviceCookie] : [])].join('; ');
    return timed(async () => {
      const response = await fetch(`${server.issuer}/api/management/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address, 'x-csrf-token': csrfToken, cookie: cookies },
        body: JSON.stringify({ account: PERSON.account, password }),
      });
      const device = response.headers.getSetCookie().find((cookie) => cookie.startsWith('sesame_device='));
      return { status: response.status, device: device?.split(';')[0] };
    });
  }

  it('the owner signs in from home and keeps signing in after 50 wrong passwords from elsewhere; a new address is only slowed', { timeout: 120_000, skip: !available }, async () => {
    // Before the attack: signed in once at the login page (this browser gets the device cookie) and at the console.
    const homeBrowser = new BrowserAt(server.issuer, HOME);
    const first = await signInThroughPages(homeBrowser, (await authorizationRequest(await discoverAs(server.issuer, fixture.spa), fixture.spa, 'openid profile')).url, PERSON);
    expect(first.location?.startsWith(fixture.spa.redirectUri)).toBe(true);
    expect(homeBrowser.hasCookie('sesame_device')).toBe(true);
    const consoleAtHome = await consoleLogin(HOME, PERSON.password);
    expect(consoleAtHome.result.status).toBe(200);
    expect(consoleAtHome.result.device).toMatch(/^sesame_device=/);

    // The stranger: 50 wrong passwords, one from each of 50 addresses, all at once.
    const attack = await Promise.all(STRANGERS.map((address) => agentLogin(address, 'not-the-password')));
    expect(attack.map(({ result }) => result.status)).toEqual(STRANGERS.map(() => 401));

    // The same browser, now on another network: its device cookie spares it the slowdown.
    homeBrowser.address = '203.0.113.21';
    const withDevice = await loginPageAnswer(homeBrowser, PERSON.password);
    expect(withDevice.result.status).toBe(303);
    expect(withDevice.ms).toBeLessThan(NOT_SLOWED_MS);

    // Another browser at home: the address it signed in from before spares it.
    const otherBrowserAtHome = await loginPageAnswer(new BrowserAt(server.issuer, HOME), PERSON.password);
    expect(otherBrowserAtHome.result.status).toBe(303);
    expect(otherBrowserAtHome.ms).toBeLessThan(NOT_SLOWED_MS);

    // The console, with the device cookie from a new address, and the Agent API from home.
    const consoleWithDevice = await consoleLogin('203.0.113.22', PERSON.password, consoleAtHome.result.device);
    expect(consoleWithDevice.result.status).toBe(200);
    expect(consoleWithDevice.ms).toBeLessThan(NOT_SLOWED_MS);
    const agentAtHome = await agentLogin(HOME, PERSON.password);
    expect(agentAtHome.result.status).toBe(200);
    expect(agentAtHome.ms).toBeLessThan(NOT_SLOWED_MS);

    // A cookie that is not Sesame's own, or names someone else, spares nothing.
    const forged = await consoleLogin('203.0.113.23', PERSON.password, 'sesame_device=YWxpY2U.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(forged.result.status).toBe(200);
    expect(forged.ms).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.max - 50);

    // An address and browser never seen: slowed, never refused, and answered well within 10 s, at every door.
    const unknownAgent = await agentLogin('203.0.113.24', PERSON.password);
    expect(unknownAgent.result.status).toBe(200);
    expect(unknownAgent.ms).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.max - 50);
    expect(unknownAgent.ms).toBeLessThan(10_000);
    const unknownPage = await loginPageAnswer(new BrowserAt(server.issuer, '203.0.113.25'), PERSON.password);
    expect(unknownPage.result.status).toBe(303);
    expect(unknownPage.ms).toBeGreaterThanOrEqual(ACCOUNT_SLOWDOWN_MS.max - 50);
    expect(unknownPage.ms).toBeLessThan(10_000);
  });

  it('per address and per account+address still answer 429, device cookie or not', { timeout: 60_000, skip: !available }, async () => {
    const account = { account: 'carol', password: 'carol-password-1' };
    await server.services.users.createUser(fixture.adminActor, { account: account.account, displayName: 'Carol', password: account.password });
    const browser = new BrowserAt(server.issuer, '192.0.2.40');
    await signInThroughPages(browser, (await authorizationRequest(await discoverAs(server.issuer, fixture.spa), fixture.spa, 'openid profile')).url, account);
    expect(browser.hasCookie('sesame_device')).toBe(true);
    const { page, action } = await openLoginPage(browser);
    const statuses: number[] = [];
    let current = page;
    for (let i = 0; i < 6; i += 1) {
      current = await browser.request(action, { form: { csrf: csrfTokenOf(current), account: account.account, password: i < 5 ? `wrong-${i}` : account.password } });
      statuses.push(current.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(Number(current.headers.get('retry-after'))).toBeGreaterThan(0);

    const sprayer = '198.51.100.250';
    for (let i = 0; i < 20; i += 1) {
      const response = await fetch(`${server.issuer}/api/agent/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': sprayer },
        body: JSON.stringify({ account: `nobody-${i}`, password: 'wrong' }),
      });
      expect(response.status).toBe(401);
    }
    const refused = await agentLogin(sprayer, PERSON.password);
    expect(refused.result.status).toBe(429);
    expect(refused.result.body.error).toBe('rate_limited');
    expect(Number(refused.result.retryAfter)).toBeGreaterThan(0);
  });
});
