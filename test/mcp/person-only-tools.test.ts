import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { createAgentClient } from '../api/helpers/api-clients.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent } from '../helpers/oidc-user-agent.ts';
import { authorizeAndConnect, authorizeWithScope, mcpRequest, PreRegisteredAssistant, registerAssistant, signInOverHttp } from './assistant-client.ts';

type Json = Record<string, any>;

const ADMIN = { account: 'root', password: 'root-password-123' };
const CAROL = { account: 'carol', password: 'carol-password-1' };

/** DESIGN.md section 14: the operations that change how a person signs in, the person's alone in the console. */
const PERSON_ONLY_TOOLS = ['changePassword', 'startTotp', 'confirmTotp', 'passkeyOptions', 'addPasskey', 'newRecoveryCodes', 'removeFactor', 'changeMyEmail', 'removeMyIdentity', 'reauthenticate'];
/** Administrators on others' credentials: never through an assistant's token. */
const NOT_FOR_ASSISTANTS = ['setUserPassword', 'resetUserFactors'];

/** The same operations on the Agent API, each with a request an assistant would send. */
const PERSON_ONLY_REQUESTS: Array<[string, string, unknown]> = [
  ['POST', '/account/password', { currentPassword: PERSON.password, newPassword: 'an assistant chose this one' }],
  ['POST', '/account/factors/totp', { name: 'Planted' }],
  ['POST', '/account/factors/totp/fac_anything/confirm', { code: '123456' }],
  ['POST', '/account/factors/passkeys/options', undefined],
  ['POST', '/account/factors/passkeys', { name: 'Planted', response: { id: 'Kx3u', rawId: 'Kx3u', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'oA' } } }],
  ['POST', '/account/recovery-codes', undefined],
  ['DELETE', '/account/factors/recovery_codes', { currentPassword: PERSON.password }],
  ['POST', '/account/email', { email: 'attacker@evil.test' }],
  ['DELETE', '/account/identities/idn_anything', undefined],
  ['POST', '/account/reauthenticate', { currentPassword: PERSON.password }],
];

describe.each(TEST_ENGINES)('an assistant cannot plant or change a person\'s credentials (DESIGN.md section 14), on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let assistantClientId: string;
  let alice: Actor;
  let port = 52_000;

  const newAssistant = () => new PreRegisteredAssistant(assistantClientId, `http://127.0.0.1:${(port += 1)}/callback`);
  const tool = (token: string, name: string, args: Json = {}) => mcpRequest(server.issuer, token, 'tools/call', { name, arguments: args });

  async function mcpToken(person: { account: string; password: string }): Promise<string> {
    const provider = newAssistant();
    const mcp = await authorizeAndConnect(server.issuer, provider, signInOverHttp(server.issuer, person, 'requested', new OidcUserAgent(server.issuer)));
    await mcp.close();
    return provider.tokens()!.access_token;
  }

  /** An OAuth access token for the Agent API resource, as an assistant (or whoever holds a leaked one) has. */
  async function agentApiToken(person: { account: string; password: string }): Promise<string> {
    const provider = newAssistant();
    const serverUrl = new URL(`${server.issuer}/api/agent`);
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT');
    const code = await signInOverHttp(server.issuer, person)(provider.authorizationUrl!);
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED');
    return provider.tokens()!.access_token;
  }

  /** An administrator's assistant asks for sesame:admin itself (the 401's default names only read and write). */
  async function administratorToken(resource: 'mcp' | 'api/agent'): Promise<string> {
    const provider = newAssistant();
    await authorizeWithScope(server.issuer, provider, 'sesame:read sesame:write sesame:admin', signInOverHttp(server.issuer, ADMIN), resource);
    return provider.tokens()!.access_token;
  }

  async function agentCall(token: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.issuer}/api/agent${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: response.status === 204 ? null : ((await response.json()) as Json) };
  }

  /** What an assistant could have planted or changed: factors, recovery codes, address, password. */
  async function credentialsOf(account: string) {
    const user = (await server.services.users.findByAccount(account))!;
    const factors = await server.db.selectFrom('account_factors').select(['factor_id', 'status']).where('subject_id', '=', user.subjectId).execute();
    const codes = await server.db.selectFrom('recovery_codes').select('code_digest').where('subject_id', '=', user.subjectId).execute();
    const hash = await server.db.selectFrom('users').select('password_hash').where('subject_id', '=', user.subjectId).executeTakeFirstOrThrow();
    return { email: user.email, emailVerified: user.emailVerified, factors, codes, hash };
  }

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    assistantClientId = await registerAssistant(server.services, fixture.adminActor, fixture.projectId, { displayName: 'Test assistant' });
    await server.services.users.createUser(fixture.adminActor, { account: ADMIN.account, displayName: 'Root', password: ADMIN.password, isAdmin: true });
    await server.services.users.createUser(fixture.adminActor, { account: CAROL.account, displayName: 'Carol', password: CAROL.password });
    alice = { subjectId: fixture.person.subjectId, isAdmin: false, surface: 'cli', ip: null };
  });
  afterAll(async () => server?.close());

  it('the review\'s takeover: an assistant connected by "Allow" finds no tool to add a passkey, an authenticator, recovery codes, an address or a password', async () => {
    const token = await mcpToken(PERSON);
    const before = await credentialsOf(PERSON.account);
    const tools = ((await mcpRequest(server.issuer, token, 'tools/list')).body.result.tools as Json[]).map((listed) => listed.name as string);
    expect(tools).toContain('listMyFactors');
    expect(tools).toContain('getMyEmail');
    expect(tools).toContain('endMySession');
    expect(tools).toContain('revokeMyConsent');
    expect(tools).toContain('setMyLocale');
    for (const name of [...PERSON_ONLY_TOOLS, ...NOT_FOR_ASSISTANTS]) expect(tools, name).not.toContain(name);

    // Called anyway, by name: no such tool, nothing done.
    const calls = {
      passkeyOptions: {},
      addPasskey: { name: 'Planted', response: { id: 'Kx3u', rawId: 'Kx3u', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'oA' } } },
      startTotp: { name: 'Planted' },
      confirmTotp: { factorId: 'fac_anything', code: '123456' },
      newRecoveryCodes: {},
      changeMyEmail: { email: 'attacker@evil.test' },
      changePassword: { currentPassword: PERSON.password, newPassword: 'an assistant chose this one' },
      removeFactor: { factorId: 'recovery_codes' },
      removeMyIdentity: { identityId: 'idn_anything' },
    };
    for (const [name, args] of Object.entries(calls)) {
      const refused = (await tool(token, name, args)).body.result;
      expect(refused.isError, name).toBe(true);
      expect(refused.structuredContent.error_description, name).toContain(`no tool named ${name}`);
    }
    expect(await credentialsOf(PERSON.account)).toEqual(before);
    expect(await server.services.factors.hasFactor(fixture.person.subjectId)).toBe(false);
    // Reading stays open.
    expect((await tool(token, 'listMyFactors')).body.result.structuredContent).toEqual({ factors: [], mfaRequired: false });
    expect(await server.services.projects.listProjects(alice)).toBeDefined();
  });

  it('an OAuth token for the Agent API (an assistant\'s, or a leaked one) and a password-login token get 403 browser_only for every person-only operation, and nothing changes', async () => {
    const oauth = await agentApiToken(PERSON);
    const login = await createAgentClient(server.app).login(PERSON.account, PERSON.password);
    const password = login.body.accessToken as string;
    const before = await credentialsOf(PERSON.account);
    for (const token of [oauth, password]) {
      for (const [method, path, body] of PERSON_ONLY_REQUESTS) {
        const refused = await agentCall(token, method, path, body);
        expect([refused.status, refused.body?.error], `${method} ${path}`).toEqual([403, 'browser_only']);
        expect(refused.body?.error_description, `${method} ${path}`).toMatch(/only the person can do this, in the console under My account/);
      }
      // Reading, ending a session, revoking a consent and choosing a language stay open.
      expect((await agentCall(token, 'GET', '/account/factors')).status).toBe(200);
      expect((await agentCall(token, 'GET', '/account/email')).status).toBe(200);
      expect((await agentCall(token, 'GET', '/account/sessions')).status).toBe(200);
      expect((await agentCall(token, 'GET', '/account/consents')).status).toBe(200);
      expect((await agentCall(token, 'PUT', '/account/locale', { locale: 'en' })).status).toBe(200);
    }
    expect(await credentialsOf(PERSON.account)).toEqual(before);
  });

  it('administrators on others: no setUserPassword or resetUserFactors tool, browser_only to an assistant\'s Agent API token; a password-login session keeps them, never on oneself', async () => {
    const adminMcp = await administratorToken('mcp');
    const tools = ((await mcpRequest(server.issuer, adminMcp, 'tools/list')).body.result.tools as Json[]);
    const names = tools.map((listed) => listed.name as string);
    expect(names).toContain('listUsers');
    for (const name of NOT_FOR_ASSISTANTS) expect(names).not.toContain(name);
    const carol = (await server.services.users.findByAccount(CAROL.account))!;
    const before = await credentialsOf(CAROL.account);
    const refusedTool = (await tool(adminMcp, 'setUserPassword', { subjectId: carol.subjectId, password: 'an assistant chose this one' })).body.result;
    expect(refusedTool.isError).toBe(true);
    expect(refusedTool.structuredContent.error_description).toContain('no tool named setUserPassword');

    const adminOAuth = await administratorToken('api/agent');
    for (const [path, body] of [[`/admin/users/${carol.subjectId}/password`, { password: 'an assistant chose this one' }], [`/admin/users/${carol.subjectId}/factors/reset`, undefined]] as const) {
      const refused = await agentCall(adminOAuth, 'POST', path, body);
      expect([refused.status, refused.body?.error], path).toEqual([403, 'browser_only']);
    }
    expect(await credentialsOf(CAROL.account)).toEqual(before);

    const script = createAgentClient(server.app);
    await script.login(ADMIN.account, ADMIN.password);
    const root = (await server.services.users.findByAccount(ADMIN.account))!;
    for (const [path, body] of [[`/admin/users/${root.subjectId}/password`, { password: 'a password for myself' }], [`/admin/users/${root.subjectId}/factors/reset`, undefined]] as const) {
      const own = await script.call('POST', path, body);
      expect([own.status, own.body.error], path).toEqual([403, 'use_my_account']);
    }
    expect((await script.call('POST', `/admin/users/${carol.subjectId}/factors/reset`)).status).toBe(204);
    expect((await script.call('POST', `/admin/users/${carol.subjectId}/password`, { password: 'set by a script of root' })).status).toBe(204);
    expect((await createAgentClient(server.app).login(CAROL.account, 'set by a script of root')).status).toBe(200);
  });

  it('createUser through MCP takes no password: one sent is refused as an unknown argument and nothing is made; without one (no mail) the answer is a one-time set-password link', async () => {
    const adminMcp = await administratorToken('mcp');
    const createTool = ((await mcpRequest(server.issuer, adminMcp, 'tools/list')).body.result.tools as Json[]).find((listed) => listed.name === 'createUser')!;
    expect(Object.keys(createTool.inputSchema.properties)).not.toContain('password');
    expect(createTool.inputSchema.properties.account).toBeDefined();

    const refused = (await tool(adminMcp, 'createUser', { account: 'dana', displayName: 'Dana', password: 'an assistant chose this one' })).body.result;
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: 'invalid_request', field_errors: { password: expect.any(String) } });
    expect(await server.services.users.findByAccount('dana')).toBeNull();

    const created = (await tool(adminMcp, 'createUser', { account: 'dana', displayName: 'Dana' })).body.result;
    expect(created.isError).toBeFalsy();
    const { setPasswordUrl, setPasswordExpiresAt, user } = created.structuredContent;
    expect(user.account).toBe('dana');
    expect(setPasswordUrl).toMatch(new RegExp(`^${server.issuer}/account/invitation/[0-9A-Za-z]{43}$`));
    expect(Date.parse(setPasswordExpiresAt) - server.clock.now()).toBe(7 * 24 * 3600 * 1000);
    const token = setPasswordUrl.split('/').at(-1) as string;
    // Shown once: only its digest is kept.
    expect(JSON.stringify(await server.db.selectFrom('account_links').selectAll().execute())).not.toContain(token);
    // Dana opens it and chooses her password; the link works once.
    const agent = new OidcUserAgent(server.issuer);
    const page = await agent.follow(`/account/invitation/${token}`);
    expect(page.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1];
    const chosen = await agent.follow(`/account/invitation/${token}`, { form: { ...(csrf ? { csrf } : {}), newPassword: 'dana chose this herself' } });
    expect(chosen.status).toBe(200);
    expect((await createAgentClient(server.app).login('dana', 'dana chose this herself')).status).toBe(200);
    expect((await agent.follow(`/account/invitation/${token}`)).status).toBe(410);
    // No address was proven by a link that was handed on.
    expect((await server.services.users.findByAccount('dana'))!.emailVerified).toBe(false);
  });
});
