import { generate } from 'otplib';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { createAgentClient, createConsoleClient, type AgentClient } from '../api/helpers/api-clients.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { csrfTokenOf, isLoginPage, OidcUserAgent, signInThroughPages, type PageResponse } from '../helpers/oidc-user-agent.ts';
import { ADMIN_GROUP_DN, PEOPLE_DN, SERVICE_BIND, SLAPD_AVAILABLE, startTestDirectory, type TestDirectory } from '../helpers/slapd.ts';

const ADMIN_PASSWORD = 'bootstrap-admin-password-1';
const ADA = { uid: 'ada', cn: 'Ada Lovelace', mail: 'ada@example.org', password: 'analytical-engine-1843' };
const GRACE = { uid: 'grace', cn: 'Grace Hopper', mail: 'grace@example.org', password: 'compiler-a0-1952' };
const LINUS = { uid: 'linus', cn: 'Linus Torvalds', mail: 'linus@example.org', password: 'freax-kernel-1991' };
const KEN = { uid: 'ken', cn: 'Ken Thompson', mail: 'ken@example.org', password: 'unix-v1-1971' };
const DENNIS = { uid: 'dennis', cn: 'Dennis Ritchie', mail: 'dennis@example.org', password: 'c-language-1972' };
const MARGARET = { uid: 'margaret', cn: 'Margaret Hamilton', mail: 'margaret@example.org', password: 'apollo-guidance-1969' };
const ALAN = { uid: 'alan', cn: 'Alan Turing', mail: 'alan@example.org', password: 'bombe-machine-1940' };
const BARBARA = { uid: 'barbara', cn: 'Barbara Liskov', mail: 'barbara@example.org', password: 'clu-language-1974' };

/**
 * Sign-in through an LDAP directory (DESIGN section 11) against Debian's slapd: the OIDC login page to a
 * relying party, the Agent API login, provisioning and admin-group mapping, the sign-in limits, filter
 * injection, a person deleted from the directory, and the directory stopped or hung mid-run.
 */
describe.skipIf(!SLAPD_AVAILABLE).each(TEST_ENGINES)('sign-in through an LDAP directory on %s', (engine) => {
  let directory: TestDirectory;
  let server: OidcTestServer;
  let fixture: OidcFixture;
  /** The administrator at the Agent API: the directory is added and changed through the admin operations. */
  let admin: AgentClient;

  beforeAll(async () => {
    directory = await startTestDirectory();
    for (const person of [ADA, GRACE, LINUS, KEN, DENNIS, MARGARET, ALAN, BARBARA]) await directory.addPerson(person);
    await directory.addAdmin('grace');
    server = await startOidcTestServer(engine, { OIDC_BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD, SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '3' });
    fixture = await setUpOidcFixture(server);
    admin = createAgentClient(server.app);
    await admin.login('admin', ADMIN_PASSWORD);
    const added = await admin.call('POST', '/admin/identity-providers', {
      type: 'ldap',
      name: 'example-ldap',
      displayName: 'Example directory',
      provisioning: 'create',
      ldap: { url: directory.url, bindDn: SERVICE_BIND.dn, bindPassword: SERVICE_BIND.password, userSearchBase: PEOPLE_DN, adminGroupDn: ADMIN_GROUP_DN },
    });
    expect(added.status, added.text).toBe(201);
  });

  afterAll(async () => {
    await server?.close();
    await directory?.close();
  });

  async function loginPage(): Promise<{ agent: OidcUserAgent; page: PageResponse; action: string; request: Awaited<ReturnType<typeof authorizationRequest>>; config: Awaited<ReturnType<typeof discoverAs>> }> {
    const config = await discoverAs(server.issuer, fixture.web);
    const agent = new OidcUserAgent(server.issuer);
    const request = await authorizationRequest(config, fixture.web, 'openid profile email');
    const page = await agent.follow(request.url);
    expect(isLoginPage(page)).toBe(true);
    return { agent, page, action: /action="(\/interaction\/[^"]+\/login)"/.exec(page.body)![1]!, request, config };
  }

  async function submitLogin(account: string, password: string): Promise<PageResponse> {
    const { agent, page, action } = await loginPage();
    return agent.follow(action, { form: { csrf: csrfTokenOf(page), account, password } });
  }

  it('stores the bind password sealed: the admin operations say hasBindPassword and never carry it', async () => {
    const listed = await admin.call('GET', '/admin/identity-providers');
    expect(listed.status).toBe(200);
    expect(listed.body.identityProviders.find((one: { name: string }) => one.name === 'example-ldap')).toMatchObject({
      type: 'ldap',
      hasBindPassword: true,
      version: 1,
      ldap: { url: directory.url, startTls: false, userSearchFilter: '(uid={account})', attributes: { account: 'uid', displayName: 'cn', email: 'mail' }, adminGroupDn: ADMIN_GROUP_DN },
    });
    expect(listed.text).not.toContain(SERVICE_BIND.password);
    expect(listed.text).not.toContain('bindPassword');
    const rows = await server.db.selectFrom('identity_providers').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(SERVICE_BIND.password);
  });

  it('signs a directory person in at the login page to a relying party, creating them from the mapped attributes once', async () => {
    const { agent, request, config } = await loginPage();
    const left = await signInThroughPages(agent, request.url, { account: ADA.uid, password: ADA.password });
    expect(left.location?.startsWith(fixture.web.redirectUri), `${left.status} ${left.body.slice(0, 300)}`).toBe(true);
    const tokens = await redeemCode(config, request, left.location!);
    const ada = await server.services.users.findByAccount('ada');
    expect(ada).toMatchObject({ account: 'ada', displayName: ADA.cn, email: ADA.mail, emailVerified: false, isAdmin: false, status: 'active' });
    expect(tokens.claims()!.sub).toBe(ada!.subjectId);
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, ada!.subjectId);
    expect(userinfo).toMatchObject({ name: ADA.cn, email: ADA.mail, email_verified: false });
    const audit = await server.db.selectFrom('audit_log').selectAll().where('target_id', '=', ada!.subjectId).execute();
    expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(['user.create', 'identity.link']));

    await directory.setAttribute('ada', 'cn', 'Augusta Ada King');
    const again = await loginPage();
    const second = await signInThroughPages(again.agent, again.request.url, { account: ADA.uid, password: ADA.password });
    const secondTokens = await redeemCode(again.config, again.request, second.location!);
    expect(secondTokens.claims()!.sub).toBe(ada!.subjectId);
    expect((await oidc.fetchUserInfo(again.config, secondTokens.access_token, ada!.subjectId)).name).toBe('Augusta Ada King');
    expect((await server.services.users.listUsers(fixture.adminActor)).filter((user) => user.account === 'ada')).toHaveLength(1);
  });

  it('makes members of the admin group administrators, and withdraws it when they leave the group', async () => {
    expect((await submitLogin(GRACE.uid, GRACE.password)).status).not.toBe(401);
    expect(await server.services.users.findByAccount('grace')).toMatchObject({ isAdmin: true, displayName: GRACE.cn });
    await directory.removeAdmin('grace');
    const agent = createAgentClient(server.app);
    const login = await agent.call('POST', '/auth/login', { account: GRACE.uid, password: GRACE.password });
    expect(login.status).toBe(200);
    expect(login.body.user.isAdmin).toBe(false);
    expect(await server.services.users.findByAccount('grace')).toMatchObject({ isAdmin: false });
  });

  it('refuses a wrong directory password with the one failure message, and counts it toward the sign-in limits', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const page = await submitLogin(KEN.uid, 'not-kens-password');
      expect(page.status).toBe(401);
      expect(page.body).toContain('role="alert"');
      expect(page.body).toContain('Wrong account or password.');
    }
    const limited = await submitLogin(KEN.uid, KEN.password);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await server.services.users.findByAccount('ken')).toBeNull();
  });

  it('finds nobody for filter syntax in the account name', async () => {
    for (const account of ['*)(uid=*', 'ad*', '*', 'ada)(|(uid=*']) {
      const page = await submitLogin(account, ADA.password);
      expect(page.status, account).toBe(401);
      expect(page.body).toContain('Wrong account or password.');
    }
    const agent = createAgentClient(server.app);
    expect((await agent.call('POST', '/auth/login', { account: 'gr*', password: GRACE.password })).status).toBe(401);
  });

  it('signs in at the Agent API login, refuses a wrong password there, and still asks for the second factor', async () => {
    const agent = createAgentClient(server.app);
    const login = await agent.call('POST', '/auth/login', { account: DENNIS.uid, password: DENNIS.password });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ account: 'dennis', displayName: DENNIS.cn });
    expect((await agent.call('POST', '/auth/login', { account: DENNIS.uid, password: 'wrong' })).body.error).toBe('invalid_credentials');

    const dennis = (await server.services.users.findByAccount('dennis'))!;
    const actor: Actor = { subjectId: dennis.subjectId, isAdmin: false, surface: 'console', ip: null, provenAt: server.clock.now() };
    const started = await server.services.factors.startTotp(actor, { name: 'Phone' });
    const code = () => generate({ secret: started.secret, epoch: Math.floor(server.clock.now() / 1000) });
    await server.services.factors.confirmTotp(actor, started.factorId, await code());
    server.clock.advance(30_000);
    expect((await agent.call('POST', '/auth/login', { account: DENNIS.uid, password: DENNIS.password })).body.error).toBe('mfa_required');
    const withCode = await agent.call('POST', '/auth/login', { account: DENNIS.uid, password: DENNIS.password, otp: await code() });
    expect(withCode.status).toBe(200);
  });

  it('refuses a person deleted from the directory, though Sesame still has them and they have a local password', async () => {
    const agent = createAgentClient(server.app);
    expect((await agent.call('POST', '/auth/login', { account: LINUS.uid, password: LINUS.password })).status).toBe(200);
    const linus = (await server.services.users.findByAccount('linus'))!;
    expect(await server.services.users.confirmPassword(linus.subjectId, LINUS.password, { ip: null, surface: 'agent' })).toBe(true);
    expect(await server.services.users.confirmPassword(linus.subjectId, 'not his password', { ip: null, surface: 'agent' })).toBe(false);
    // A local password (a reset link, or an administrator) does not outlive the directory entry: the directory decides for its people.
    await server.services.users.setPassword(fixture.adminActor, linus.subjectId, 'a-local-password-for-linus');
    expect((await agent.call('POST', '/auth/login', { account: LINUS.uid, password: 'a-local-password-for-linus' })).status).toBe(401);
    await directory.removePerson('linus');
    const page = await submitLogin(LINUS.uid, LINUS.password);
    expect(page.status).toBe(401);
    expect(page.body).toContain('Wrong account or password.');
    expect(await server.services.users.findByAccount('linus')).not.toBeNull();
  });

  it('refuses a person the directory disabled (a locked entry)', async () => {
    const agent = createAgentClient(server.app);
    expect((await agent.call('POST', '/auth/login', { account: ALAN.uid, password: ALAN.password })).status).toBe(200);
    await directory.lockPerson('alan');
    expect((await agent.call('POST', '/auth/login', { account: ALAN.uid, password: ALAN.password })).body.error).toBe('invalid_credentials');
    expect((await submitLogin(ALAN.uid, ALAN.password)).status).toBe(401);
  });

  it('follows the administrator\'s changes: existing_only refuses a new person with a reason, a new bind password is used at once', async () => {
    const change = async (changes: { provisioning?: 'create' | 'existing_only'; ldap?: { bindPassword?: string; url?: string } }) => {
      const current = (await admin.call('GET', '/admin/identity-providers')).body.identityProviders.find((one: { name: string }) => one.name === 'example-ldap');
      const changed = await admin.call('PATCH', '/admin/identity-providers/example-ldap', { expectedVersion: current.version, ...changes });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.text).not.toContain('bindPassword');
      return changed.body.identityProvider;
    };
    await change({ provisioning: 'existing_only' });
    const refused = await submitLogin(MARGARET.uid, MARGARET.password);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatch(/role="alert"[^>]*>[^<]*not linked to a Sesame account/);
    expect(isLoginPage({ ...refused, status: 200 })).toBe(true);
    expect(await server.services.users.findByAccount('margaret')).toBeNull();
    const agent = createAgentClient(server.app);
    expect((await agent.call('POST', '/auth/login', { account: MARGARET.uid, password: MARGARET.password })).body.error).toBe('forbidden');
    await change({ provisioning: 'create' });

    const withWrongBind = await change({ ldap: { bindPassword: 'not-the-service-password' } });
    expect(withWrongBind).toMatchObject({ hasBindPassword: true });
    expect((await agent.call('POST', '/auth/login', { account: MARGARET.uid, password: MARGARET.password })).body.error).toBe('directory_unavailable');
    await change({ ldap: { bindPassword: SERVICE_BIND.password } });
    expect((await agent.call('POST', '/auth/login', { account: MARGARET.uid, password: MARGARET.password })).status).toBe(200);

    // The directory at another URL (with the bind password again: it never goes to a new server unasked):
    // its people stay linked to the same Sesame persons.
    const margaret = (await server.services.users.findByAccount('margaret'))!;
    await change({ ldap: { url: directory.url.replace('127.0.0.1', 'localhost'), bindPassword: SERVICE_BIND.password } });
    const moved = await agent.call('POST', '/auth/login', { account: MARGARET.uid, password: MARGARET.password });
    expect(moved.status).toBe(200);
    expect(moved.body.user.subjectId).toBe(margaret.subjectId);
    const links = await server.db.selectFrom('upstream_identities').selectAll().where('subject_id', '=', margaret.subjectId).execute();
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ provider_name: 'example-ldap', issuer: 'ldap:example-ldap' });
    await change({ ldap: { url: directory.url, bindPassword: SERVICE_BIND.password } });
  });

  it('gives the login page again with 503, Retry-After and an alert when the directory is stopped or hung, and local accounts keep working', async () => {
    await directory.stop();
    try {
      const started = Date.now();
      const page = await submitLogin(BARBARA.uid, BARBARA.password);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(page.status).toBe(503);
      expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(isLoginPage({ ...page, status: 200 })).toBe(true);
      expect(page.body).toMatch(/role="alert"[^>]*>[^<]*directory[^<]*not answering/);

      const agent = createAgentClient(server.app);
      const api = await agent.call('POST', '/auth/login', { account: BARBARA.uid, password: BARBARA.password });
      expect(api.status).toBe(503);
      expect(api.body.error).toBe('directory_unavailable');
      expect(Number(api.headers['retry-after'])).toBeGreaterThan(0);
      const consoleClient = createConsoleClient(server.app);
      await consoleClient.context();
      const consoleLogin = await consoleClient.call('POST', '/auth/login', { account: BARBARA.uid, password: BARBARA.password });
      expect(consoleLogin.status).toBe(503);
      expect(consoleLogin.body.error).toBe('directory_unavailable');

      const { agent: browser, request, config } = await loginPage();
      const local = await signInThroughPages(browser, request.url, PERSON);
      expect((await redeemCode(config, request, local.location!)).claims()!.sub).toBe(fixture.person.subjectId);
      expect((await agent.call('POST', '/auth/login', PERSON)).status).toBe(200);
    } finally {
      await directory.start();
    }

    directory.freeze();
    try {
      const started = Date.now();
      const page = await submitLogin(BARBARA.uid, BARBARA.password);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(page.status).toBe(503);
    } finally {
      directory.thaw();
    }
    expect((await submitLogin(BARBARA.uid, BARBARA.password)).status).not.toBe(503);
    expect(await server.services.users.findByAccount('barbara')).toMatchObject({ displayName: BARBARA.cn });
  });
});
