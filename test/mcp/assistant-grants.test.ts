import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentClient, createConsoleClient } from '../api/helpers/api-clients.ts';
import { createStore } from '../../src/storage/store.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { isConsentPage, OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.ts';
import { authorizeAndConnect, authorizeWithScope, mcpRequest, PreRegisteredAssistant, registerAssistant, signInOverHttp } from './assistant-client.ts';

const ADMIN = { account: 'root', password: 'root-password-123' };
const CAROL = { account: 'carol', password: 'carol-password-1', email: 'carol@example.test' };

describe.each(TEST_ENGINES)('assistant grants: administrators, last use and the notice by mail, on %s', (engine) => {
  let smtp: SmtpCapture;
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let assistantClientId: string;
  let port = 51_000;

  const newAssistant = () => new PreRegisteredAssistant(assistantClientId, `http://127.0.0.1:${(port += 1)}/callback`);

  /** Connects the assistant for the person, in a browser of its own unless one is given: returns its access token. */
  async function connect(person: { account: string; password: string }, agent = new OidcUserAgent(server.issuer)) {
    const provider = newAssistant();
    const mcp = await authorizeAndConnect(server.issuer, provider, signInOverHttp(server.issuer, person, 'requested', agent));
    await mcp.close();
    return provider.tokens()!.access_token;
  }

  /** An administrator's assistant asks for sesame:admin itself: the 401 names only sesame:read and sesame:write (DESIGN 9). */
  async function connectAsAdministrator(person: { account: string; password: string }) {
    const provider = newAssistant();
    await authorizeWithScope(server.issuer, provider, 'sesame:read sesame:write sesame:admin', signInOverHttp(server.issuer, person));
    return provider.tokens()!.access_token;
  }

  async function signedIn<T extends { login(account: string, password: string): Promise<unknown> }>(client: T, person: { account: string; password: string }): Promise<T> {
    await client.login(person.account, person.password);
    return client;
  }
  const adminAgent = () => signedIn(createAgentClient(server.app), ADMIN);
  const adminConsole = () => signedIn(createConsoleClient(server.app), ADMIN);
  const grantsOf = async (clientId: string) => ((await (await adminAgent()).call('GET', '/admin/assistant-grants?limit=200')).body.grants as any[]).filter((grant) => grant.clientId === clientId);

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startOidcTestServer(engine, { SMTP_URL: smtp.url, MAIL_FROM: 'Sesame <sesame@example.test>' });
    fixture = await setUpOidcFixture(server);
    assistantClientId = await registerAssistant(server.services, fixture.adminActor, fixture.projectId, { scopeWhitelist: ['openid', 'offline_access'] });
    await server.services.users.createUser(fixture.adminActor, { account: ADMIN.account, displayName: 'Root', password: ADMIN.password, isAdmin: true });
    await server.services.users.createUser(fixture.adminActor, { account: CAROL.account, displayName: 'Carol', email: CAROL.email, emailVerified: true, password: CAROL.password });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.stop();
  });

  it('administrators list every assistant grant on both surfaces and revoke one: its tokens die at once, the consent is forgotten, and it is audited', async () => {
    const browser = new OidcUserAgent(server.issuer);
    const token = await connect(PERSON, browser);
    expect((await mcpRequest(server.issuer, token, 'tools/list')).status).toBe(200);
    // An ordinary application's grant is no assistant's.
    const config = await discoverAs(server.issuer, fixture.web);
    const request = await authorizationRequest(config, fixture.web, 'openid profile');
    await redeemCode(config, request, (await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON)).location!);

    const listed = await (await adminAgent()).call('GET', '/admin/assistant-grants');
    expect(listed.status).toBe(200);
    expect(listed.body.grants.every((grant: any) => grant.clientId === assistantClientId)).toBe(true);
    const grant = listed.body.grants.find((candidate: any) => candidate.account === PERSON.account);
    expect(grant).toMatchObject({
      clientId: assistantClientId,
      displayName: 'Claude Code',
      subjectId: fixture.person.subjectId,
      account: PERSON.account,
      grantedAt: expect.any(String),
      lastUsedAt: expect.any(String),
    });
    expect(grant.scopes.sort()).toEqual(['sesame:read', 'sesame:write']);
    const consoleAdmin = await adminConsole();
    const onConsole = await consoleAdmin.call('GET', '/admin/assistant-grants');
    expect(onConsole.status).toBe(200);
    expect(onConsole.body.grants).toEqual(listed.body.grants);

    // Not for anyone else: alice's password session, alice's console, and alice's assistant (no sesame:admin).
    expect(await (await signedIn(createAgentClient(server.app), PERSON)).call('GET', '/admin/assistant-grants')).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    const aliceConsole = await signedIn(createConsoleClient(server.app), PERSON);
    expect((await aliceConsole.call('DELETE', `/admin/assistant-grants/${grant.grantId}`)).status).toBe(403);
    const tools = (await mcpRequest(server.issuer, token, 'tools/list')).body.result.tools.map((tool: any) => tool.name);
    expect(tools).not.toContain('listAssistantGrants');
    const refused = await mcpRequest(server.issuer, token, 'tools/call', { name: 'revokeAssistantGrant', arguments: { grantId: grant.grantId } });
    expect(refused.status).toBe(403);
    expect(refused.challenge).toContain('scope="sesame:read sesame:write sesame:admin"');
    expect(refused.body.error).toMatchObject({ data: { error: 'insufficient_scope' } });
    expect((await mcpRequest(server.issuer, token, 'tools/list')).status).toBe(200);

    const revoked = await consoleAdmin.call('DELETE', `/admin/assistant-grants/${grant.grantId}`);
    expect(revoked.status).toBe(204);
    const after = await mcpRequest(server.issuer, token, 'tools/list');
    expect(after.status).toBe(401);
    expect(after.challenge).toContain('error="invalid_token"');
    expect(await grantsOf(assistantClientId)).not.toContainEqual(expect.objectContaining({ grantId: grant.grantId }));
    expect((await consoleAdmin.call('DELETE', `/admin/assistant-grants/${grant.grantId}`)).body.error).toBe('not_found');

    // The consent is forgotten: the same browser, still signed in, is asked again.
    const again = newAssistant();
    expect(await auth(again, { serverUrl: new URL(`${server.issuer}/mcp`) })).toBe('REDIRECT');
    expect(isConsentPage(await browser.follow(again.authorizationUrl!.href))).toBe(true);

    const audit = (await consoleAdmin.call('GET', '/admin/audit-logs')).body.auditLogs as any[];
    expect(audit.find((entry) => entry.action === 'assistant_grant.revoke')).toMatchObject({
      surface: 'console',
      targetType: 'user',
      targetId: fixture.person.subjectId,
      after: { grantId: grant.grantId, clientId: assistantClientId },
    });
  });

  it('an administrator\'s assistant with sesame:admin lists and revokes grants as MCP tools', async () => {
    const victim = await connect(CAROL);
    const adminToken = await connectAsAdministrator(ADMIN);
    const tools = (await mcpRequest(server.issuer, adminToken, 'tools/list')).body.result.tools;
    expect(tools.find((tool: any) => tool.name === 'listAssistantGrants').annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool: any) => tool.name === 'revokeAssistantGrant').annotations).toMatchObject({ destructiveHint: true });
    const listed = await mcpRequest(server.issuer, adminToken, 'tools/call', { name: 'listAssistantGrants', arguments: { limit: 200 } });
    const carols = listed.body.result.structuredContent.grants.find((grant: any) => grant.account === CAROL.account);
    expect(carols.scopes.sort()).toEqual(['sesame:read', 'sesame:write']);
    const revoked = await mcpRequest(server.issuer, adminToken, 'tools/call', { name: 'revokeAssistantGrant', arguments: { grantId: carols.grantId } });
    expect(revoked.body.result.isError).toBeFalsy();
    expect((await mcpRequest(server.issuer, victim, 'tools/list')).status).toBe(401);
    const audit = (await (await adminAgent()).call('GET', '/admin/audit-logs')).body.auditLogs as any[];
    expect(audit.find((entry) => entry.action === 'assistant_grant.revoke' && entry.targetId !== fixture.person.subjectId)).toMatchObject({ surface: 'mcp', viaClientId: assistantClientId });
  });

  it('pages the list newest first with nextBefore, and refuses a made-up cursor', async () => {
    for (let i = 0; i < 3; i += 1) {
      server.clock.advance(1000);
      await connect(PERSON);
    }
    const admin = await adminAgent();
    const all = (await admin.call('GET', '/admin/assistant-grants?limit=200')).body;
    expect(all.nextBefore).toBeNull();
    expect(all.grants.length).toBeGreaterThanOrEqual(3);
    const paged: string[] = [];
    let before: string | null = null;
    do {
      const page: any = await admin.call('GET', `/admin/assistant-grants?limit=2${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.grants.length).toBeLessThanOrEqual(2);
      paged.push(...page.body.grants.map((grant: any) => grant.grantId));
      before = page.body.nextBefore;
    } while (before);
    expect(paged).toEqual(all.grants.map((grant: any) => grant.grantId));
    const grantedAt = all.grants.map((grant: any) => Date.parse(grant.grantedAt));
    expect(grantedAt).toEqual([...grantedAt].sort((a, b) => b - a));
    expect(await admin.call('GET', '/admin/assistant-grants?before=yesterday')).toMatchObject({ status: 400, body: { error: 'invalid_request', field_errors: { before: expect.any(String) } } });
    expect((await admin.call('GET', '/admin/assistant-grants?limit=201')).status).toBe(400);
  });

  it('lastUsedAt follows the token\'s use at /mcp, written at most once a minute', async () => {
    const token = await connect(PERSON);
    const alice = await signedIn(createAgentClient(server.app), PERSON);
    const lastUsed = async () => {
      const consents = (await alice.call('GET', '/account/consents')).body.consents as any[];
      const grantId = (await server.app.oidc.current().AccessToken.find(token))!.grantId;
      const mine = consents.find((consent) => consent.grantId === grantId);
      const admins = (await grantsOf(assistantClientId)).find((grant) => grant.grantId === grantId);
      expect(admins.lastUsedAt).toBe(mine.lastUsedAt);
      return mine.lastUsedAt as string;
    };
    // The server's clock runs ahead of the tokens' issue times, so the time written is the one seen.
    server.clock.advance(10 * 60_000);
    expect((await mcpRequest(server.issuer, token, 'tools/list')).status).toBe(200);
    const first = server.clock.now();
    expect(await lastUsed()).toBe(new Date(first).toISOString());

    server.clock.advance(30_000);
    expect((await mcpRequest(server.issuer, token, 'tools/list')).status).toBe(200);
    expect(await lastUsed()).toBe(new Date(first).toISOString());

    server.clock.advance(31_000);
    expect((await mcpRequest(server.issuer, token, 'tools/list')).status).toBe(200);
    expect(await lastUsed()).toBe(new Date(server.clock.now()).toISOString());
  });

  it('lastUsedAt follows the token\'s use at /api/agent too', async () => {
    const provider = newAssistant();
    const serverUrl = new URL(`${server.issuer}/api/agent`);
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT');
    expect(await auth(provider, { serverUrl, authorizationCode: await signInOverHttp(server.issuer, PERSON)(provider.authorizationUrl!) })).toBe('AUTHORIZED');
    const token = provider.tokens()!.access_token;
    const grantId = (await server.app.oidc.current().AccessToken.find(token))!.grantId;
    server.clock.advance(10 * 60_000);
    const me = await fetch(`${server.issuer}/api/agent/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect((await grantsOf(assistantClientId)).find((grant) => grant.grantId === grantId).lastUsedAt).toBe(new Date(server.clock.now()).toISOString());
  });

  it('a person who withdraws their assistant\'s consent ends its tokens at once', async () => {
    const token = await connect(PERSON);
    const grantId = (await server.app.oidc.current().AccessToken.find(token))!.grantId;
    const alice = await signedIn(createAgentClient(server.app), PERSON);
    expect(((await alice.call('GET', '/account/consents')).body.consents as any[]).find((consent) => consent.grantId === grantId)).toMatchObject({ clientType: 'native', displayName: 'Claude Code' });
    expect((await alice.call('DELETE', `/account/consents/${grantId}`)).status).toBe(204);
    expect((await mcpRequest(server.issuer, token, 'tools/list')).status).toBe(401);
    expect(await grantsOf(assistantClientId)).not.toContainEqual(expect.objectContaining({ grantId }));
  });

  it('mails the person when an assistant is connected the first time, not when it signs in again', async () => {
    const person = { account: 'dave', password: 'dave-password-1' };
    await server.services.users.createUser(fixture.adminActor, { account: person.account, displayName: 'Dave', email: 'dave@example.test', emailVerified: true, password: person.password });
    const toDave = (mail: { envelopeTo: string[]; subject: string }) => mail.envelopeTo.includes('dave@example.test') && /assistant was connected/.test(mail.subject);
    await connect(person);
    const notice = await smtp.waitFor(toDave);
    expect(notice.text).toContain(person.account);
    expect(notice.text).toContain('My account');

    // Signing in again from another browser while connected: no second mail.
    await connect(person);
    // A notice is queued before the consent page answers: once nothing is pending, every notice has reached the SMTP server.
    const outbox = createStore(server.db, engine).repos.mailOutbox;
    await expect.poll(() => outbox.countPending(), { timeout: 15_000 }).toBe(0);
    expect(smtp.mails.filter(toDave)).toHaveLength(1);
  });
});
