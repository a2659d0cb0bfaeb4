import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { createAgentClient } from '../api/helpers/api-clients.ts';
import { redisReachable, TEST_REDIS_URL } from '../hardening/helpers/redis.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, isConsentPage, isLoginPage, OidcUserAgent } from '../helpers/oidc-user-agent.ts';
import { PEOPLE_DN, SERVICE_BIND, SLAPD_AVAILABLE, startTestDirectory, type TestDirectory } from '../helpers/slapd.ts';

const ADMIN_PASSWORD = 'bootstrap-admin-password-1';
const ADA = { uid: 'ada', cn: 'Ada Lovelace', mail: 'ada@example.org', password: 'analytical-engine-1843' };
const GRACE = { uid: 'grace', cn: 'Grace Hopper', mail: 'grace@example.org', password: 'compiler-a0-1952' };
const LINUS = { uid: 'linus', cn: 'Linus Torvalds', mail: 'linus@example.org', password: 'freax-kernel-1991' };

const STORES = [
  ...TEST_ENGINES.map((engine) => ({ engine, store: 'in-process' as const })),
  ...((await redisReachable()) ? [{ engine: TEST_ENGINES[0]!, store: 'redis' as const }] : []),
];

/**
 * A directory password is a first proof like a local one (DESIGN 13): a directory person with a second factor
 * is asked for it before any code, and amr says `["pwd","otp","mfa"]`. And a directory sees at most 5 failed
 * binds per account in 15 minutes from Sesame: past that, Sesame refuses the account's password itself,
 * except from the person's known addresses and browsers, so a stranger cannot trip the directory's lockout.
 */
describe.skipIf(!SLAPD_AVAILABLE).each(STORES)('directory sign-in: second factor and bind cap on $engine with the $store limit store', ({ engine, store }) => {
  let directory: TestDirectory;
  let server: OidcTestServer;
  let fixture: OidcFixture;

  beforeAll(async () => {
    directory = await startTestDirectory();
    for (const person of [ADA, GRACE, LINUS]) await directory.addPerson(person);
    server = await startOidcTestServer(engine, { OIDC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD, ...(store === 'redis' ? { REDIS_URL: TEST_REDIS_URL } : {}) });
    fixture = await setUpOidcFixture(server);
    const admin = createAgentClient(server.app);
    await admin.login('admin', ADMIN_PASSWORD);
    const added = await admin.call('POST', '/admin/identity-providers', {
      type: 'ldap', name: 'example-ldap', displayName: 'Example directory', provisioning: 'create',
      ldap: { url: directory.url, bindDn: SERVICE_BIND.dn, bindPassword: SERVICE_BIND.password, userSearchBase: PEOPLE_DN },
    });
    expect(added.status, added.text).toBe(201);
  });

  afterAll(async () => {
    await server?.close();
    await directory?.close();
  });

  it('asks a directory person with an authenticator for the code before the relying party gets one: amr ["pwd","otp","mfa"], acr mfa', async () => {
    // The first sign-in creates Ada in Sesame; then she adds an authenticator.
    const agent = createAgentClient(server.app);
    expect((await agent.call('POST', '/auth/login', { account: ADA.uid, password: ADA.password })).status).toBe(200);
    const ada = (await server.services.users.findByAccount('ada'))!;
    const actor: Actor = { subjectId: ada.subjectId, isAdmin: false, surface: 'console', ip: null, provenAt: server.clock.now() };
    const started = await server.services.factors.startTotp(actor, { name: 'Phone' });
    const codeNow = () => generate({ secret: started.secret, epoch: Math.floor(server.clock.now() / 1000) });
    await server.services.factors.confirmTotp(actor, started.factorId, await codeNow());
    server.clock.advance(30_000);

    const config = await discoverAs(server.issuer, fixture.web);
    const browser = new OidcUserAgent(server.issuer);
    const request = await authorizationRequest(config, fixture.web, 'openid profile', { prompt: 'consent' });
    const login = await browser.follow(request.url);
    expect(isLoginPage(login)).toBe(true);
    const action = /action="(\/interaction\/[^"]+\/login)"/.exec(login.body)![1]!;
    const codePage = await browser.follow(action, { form: { csrf: csrfTokenOf(login), account: ADA.uid, password: ADA.password } });
    expect(codePage.status).toBe(200);
    expect(codePage.location).toBeNull();
    expect(codePage.body).toMatch(/<input id="otp" name="otp"/);

    const form = { action: /action="(\/interaction\/[^"]+\/otp)"/.exec(codePage.body)![1]!, csrf: csrfTokenOf(codePage), ticket: /name="ticket" value="([^"]+)"/.exec(codePage.body)![1]! };
    let next = await browser.follow(form.action, { form: { ...form, otp: await codeNow() } });
    if (isConsentPage(next)) {
      const uid = /action="\/interaction\/([^"/]+)\/confirm"/.exec(next.body)![1]!;
      next = await browser.follow(`/interaction/${uid}/confirm`, { form: { csrf: csrfTokenOf(next) } });
    }
    expect(next.location?.startsWith(fixture.web.redirectUri), `${next.status} ${next.body.slice(0, 300)}`).toBe(true);
    const claims = (await redeemCode(config, request, next.location!)).claims()!;
    expect(claims.sub).toBe(ada.subjectId);
    expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(claims.acr).toBe('mfa');
  });

  const agentLogin = (account: string, password: string, remoteAddress: string) =>
    server.app.inject({ method: 'POST', url: '/api/agent/auth/login', payload: { account, password }, remoteAddress });

  it('lets at most 5 failed binds per account reach the directory; then only the person\'s known addresses do', async () => {
    // Grace signs in once from her usual address: it becomes a known address of hers.
    expect((await agentLogin(GRACE.uid, GRACE.password, '198.51.100.7')).statusCode).toBe(200);
    // A stranger's wrong passwords from five addresses each reach the directory.
    for (let i = 1; i <= 5; i++) expect((await agentLogin(GRACE.uid, 'guessed-password', `203.0.113.${i}`)).statusCode).toBe(401);
    expect(await directory.failedBinds('grace')).toBe(5);

    // The sixth, from yet another address, is refused by Sesame: the directory sees no bind.
    const sixth = await agentLogin(GRACE.uid, 'guessed-password', '203.0.113.6');
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(sixth.json().error).toBe('rate_limited');
    expect(await directory.failedBinds('grace')).toBe(5);

    // From her known address Grace still reaches the directory (a typo there counts as a bind like any other).
    expect((await agentLogin(GRACE.uid, 'grace-typo', '198.51.100.7')).statusCode).toBe(401);
    expect(await directory.failedBinds('grace')).toBe(6);
    expect((await agentLogin(GRACE.uid, GRACE.password, '198.51.100.7')).statusCode).toBe(200);
  });

  it('lets the person\'s known browser (its device cookie) reach the directory past the cap, from a new address', async () => {
    // Linus signs in to the console once: his browser gets the device cookie.
    const context = await server.app.inject({ method: 'GET', url: '/api/management/auth/context', remoteAddress: '198.51.100.20' });
    const loginCsrfCookie = context.cookies.find((cookie) => cookie.name.endsWith('sesame_login_csrf'))!;
    const signedIn = await server.app.inject({
      method: 'POST', url: '/api/management/auth/login', remoteAddress: '198.51.100.20',
      headers: { 'x-csrf-token': context.json().csrfToken, cookie: `${loginCsrfCookie.name}=${loginCsrfCookie.value}` },
      payload: { account: LINUS.uid, password: LINUS.password },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const device = signedIn.cookies.find((cookie) => cookie.name.endsWith('sesame_device'))!;
    expect(device).toBeDefined();

    for (let i = 1; i <= 5; i++) expect((await agentLogin(LINUS.uid, 'guessed-password', `203.0.113.${20 + i}`)).statusCode).toBe(401);
    expect(await directory.failedBinds('linus')).toBe(5);

    // From an address nobody used, a console login without the cookie does not reach the directory...
    const consoleLogin = async (withDevice: boolean, remoteAddress: string) => {
      const fresh = await server.app.inject({ method: 'GET', url: '/api/management/auth/context', remoteAddress });
      const csrfCookie = fresh.cookies.find((cookie) => cookie.name.endsWith('sesame_login_csrf'))!;
      const cookies = [`${csrfCookie.name}=${csrfCookie.value}`, ...(withDevice ? [`${device.name}=${device.value}`] : [])];
      return server.app.inject({
        method: 'POST', url: '/api/management/auth/login', remoteAddress,
        headers: { 'x-csrf-token': fresh.json().csrfToken, cookie: cookies.join('; ') },
        payload: { account: LINUS.uid, password: 'linus-typo' },
      });
    };
    expect((await consoleLogin(false, '192.0.2.44')).statusCode).toBe(429);
    expect(await directory.failedBinds('linus')).toBe(5);
    // ...and with his browser's device cookie, from the same new address, it does.
    expect((await consoleLogin(true, '192.0.2.44')).statusCode).toBe(401);
    expect(await directory.failedBinds('linus')).toBe(6);
  });
});
