import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { authorizationRequest, discoverAs, redeemCode } from '../helpers/oidc-relying-party.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { OidcUserAgent, signInThroughPages } from '../helpers/oidc-user-agent.ts';
import { authorizeAndConnect, mcpRequest, PreRegisteredAssistant, registerAssistant, signInOverHttp } from './assistant-client.ts';

type Structured = Record<string, any>;
const structured = (result: unknown) => (result as { structuredContent: Structured }).structuredContent;

describe.each(TEST_ENGINES)('what an assistant\'s token may and may not do, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let assistantClientId: string;
  let alice: Actor;
  let port = 50_000;

  // Each connection a new loopback port, as an assistant picks one per run.
  const newAssistant = () => new PreRegisteredAssistant(assistantClientId, `http://127.0.0.1:${(port += 1)}/callback`);

  const mcpCall = (token: string, method: string, params: Record<string, unknown> = {}) => mcpRequest(server.issuer, token, method, params);

  async function agentCall(token: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.issuer}/api/agent${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: response.status === 204 ? null : ((await response.json()) as Structured) };
  }

  /** A token for the Agent API resource through the SDK's own OAuth functions (discovery from its protected-resource metadata). */
  async function agentApiToken(access: 'requested' | 'read'): Promise<string> {
    const provider = newAssistant();
    const serverUrl = new URL(`${server.issuer}/api/agent`);
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT');
    expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${server.issuer}/api/agent`);
    const code = await signInOverHttp(server.issuer, PERSON, access)(provider.authorizationUrl!);
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED');
    return provider.tokens()!.access_token;
  }

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    assistantClientId = await registerAssistant(server.services, fixture.adminActor, fixture.projectId, { displayName: 'Test assistant' });
    alice = { subjectId: fixture.person.subjectId, isAdmin: false, surface: 'cli', ip: null };
  });
  afterAll(async () => server?.close());

  it('a read-only grant lists only read tools, and a write tool called anyway is refused with the insufficient_scope challenge and changes nothing', async () => {
    const provider = newAssistant();
    const mcp = await authorizeAndConnect(server.issuer, provider, signInOverHttp(server.issuer, PERSON, 'read'));
    expect(provider.tokens()!.scope).toBe('sesame:read');
    const { tools } = await mcp.listTools();
    expect(tools.length).toBeGreaterThan(3);
    // Reads, and the one change sesame:read allows: the assistant leaving (DESIGN 15).
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name)).toEqual(['disconnectAssistant']);
    expect(tools.map((tool) => tool.name)).not.toContain('createProject');

    const before = await server.services.projects.listProjects(alice);
    // A 403 challenge (DESIGN 9), not a tool result: the SDK starts an authorization with the challenged scope (the step-up is test/mcp/assistant-step-up.test.ts;
    // without its refresh token, which SDK 1.32.2 would try first, keeping the granted scope).
    provider.saveTokens({ ...provider.tokens()!, refresh_token: undefined });
    provider.authorizationUrl = undefined;
    await expect(mcp.callTool({ name: 'createProject', arguments: { name: 'Should not exist' } })).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl!.searchParams.get('scope')).toBe('sesame:read sesame:write');
    const refused = await mcpCall(provider.tokens()!.access_token, 'tools/call', { name: 'createProject', arguments: { name: 'Should not exist' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ data: { error: 'insufficient_scope', error_description: expect.stringContaining('sesame:write') } });
    expect(await server.services.projects.listProjects(alice)).toEqual(before);
    expect(structured(await mcp.callTool({ name: 'listProjects', arguments: {} })).projects).toHaveLength(before.length);
    await mcp.close();
  });

  it('a viewer\'s write-scoped token still cannot write', async () => {
    const project = await server.services.projects.createProject(fixture.adminActor, { name: 'Viewed only' });
    await server.services.members.addMember(fixture.adminActor, project.projectId, { subjectId: fixture.person.subjectId, role: 'viewer', expectedProjectVersion: project.version });
    const provider = newAssistant();
    const mcp = await authorizeAndConnect(server.issuer, provider, signInOverHttp(server.issuer, PERSON));
    expect(provider.tokens()!.scope).toContain('sesame:write');
    const refused = await mcp.callTool({
      name: 'registerClient',
      arguments: { projectId: project.projectId, clientType: 'spa', displayName: 'Nope', redirectUris: ['https://nope.example.com/cb'], scopeWhitelist: ['openid'] },
    });
    expect(structured(refused)).toMatchObject({ error: 'forbidden' });
    expect(await server.services.clients.listClients(fixture.adminActor, project.projectId)).toEqual([]);
    await mcp.close();
  });

  it('a revoked grant fails at once', async () => {
    const provider = newAssistant();
    const mcp = await authorizeAndConnect(server.issuer, provider, signInOverHttp(server.issuer, PERSON));
    await mcp.close();
    const token = provider.tokens()!.access_token;
    expect((await mcpCall(token, 'tools/list')).status).toBe(200);

    const oidc = server.app.oidc.current();
    const accessToken = await oidc.AccessToken.find(token);
    await (await oidc.Grant.find(accessToken!.grantId!))!.destroy();

    const after = await mcpCall(token, 'tools/list');
    expect(after.status).toBe(401);
    expect(after.challenge).toContain('error="invalid_token"');
    expect(after.challenge).toContain(`resource_metadata="${server.issuer}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('a token minted for an ordinary relying party is refused at /mcp and at /api/agent, and an MCP token at /userinfo and /api/agent', async () => {
    const config = await discoverAs(server.issuer, fixture.web);
    const request = await authorizationRequest(config, fixture.web, 'openid profile');
    const callback = await signInThroughPages(new OidcUserAgent(server.issuer), request.url, PERSON);
    const rpToken = (await redeemCode(config, request, callback.location!)).access_token;
    expect((await fetch(`${server.issuer}/userinfo`, { headers: { authorization: `Bearer ${rpToken}` } })).status).toBe(200);
    expect((await mcpCall(rpToken, 'tools/list')).status).toBe(401);
    expect(await agentCall(rpToken, 'GET', '/auth/me')).toMatchObject({ status: 401, body: { error: 'login_required' } });

    // A relying party cannot ask for Sesame's own resources at all.
    const forMcp = await authorizationRequest(config, fixture.web, 'openid', { resource: `${server.issuer}/mcp` });
    const refused = await new OidcUserAgent(server.issuer).follow(forMcp.url);
    expect(new URL(refused.location!).searchParams.get('error')).toBe('invalid_target');

    const provider = newAssistant();
    const mcp = await authorizeAndConnect(server.issuer, provider, signInOverHttp(server.issuer, PERSON));
    await mcp.close();
    const mcpToken = provider.tokens()!.access_token;
    const userinfo = await fetch(`${server.issuer}/userinfo`, { headers: { authorization: `Bearer ${mcpToken}` } });
    expect([401, 403]).toContain(userinfo.status);
    expect(userinfo.headers.get('www-authenticate')).toMatch(/error="(invalid_token|insufficient_scope)"/);
    expect((await agentCall(mcpToken, 'GET', '/auth/me')).status).toBe(401);
  });

  it('the Agent API accepts a token for its own resource, with the same scope rules, and audits the assistant', async () => {
    const readOnly = await agentApiToken('read');
    expect(await agentCall(readOnly, 'GET', '/auth/me')).toMatchObject({ status: 200, body: { user: { account: PERSON.account } } });
    expect((await agentCall(readOnly, 'GET', '/projects')).status).toBe(200);
    expect(await agentCall(readOnly, 'POST', '/projects', { name: 'Refused' })).toMatchObject({ status: 403, body: { error: 'insufficient_scope' } });
    expect((await mcpCall(readOnly, 'tools/list')).status).toBe(401);

    const write = await agentApiToken('requested');
    const created = await agentCall(write, 'POST', '/projects', { name: 'Through the Agent API' });
    expect(created.status).toBe(201);
    const audit = await agentCall(write, 'GET', `/projects/${created.body!.project.projectId}/audit-logs`);
    expect(audit.body!.auditLogs[0]).toMatchObject({ surface: 'agent', viaClientId: assistantClientId, actorSubjectId: fixture.person.subjectId });
    expect(await agentCall(write, 'GET', '/admin/users')).toMatchObject({ status: 403, body: { error: 'insufficient_scope' } });
  });

  it('accepts any port on a native client\'s loopback redirect URI, refuses another host, path or scheme, and keeps web and spa exact', async () => {
    const outcome = async (clientId: string, redirectUri: string) => {
      const url = new URL(`${server.issuer}/auth`);
      url.search = new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'openid', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGe4aPRN3A', code_challenge_method: 'S256', state: 'state-1234' }).toString();
      const page = await new OidcUserAgent(server.issuer).follow(url.href);
      return page.status === 200 && page.url.includes('/interaction/') ? 'sign-in page' : `refused ${page.status}`;
    };
    for (const uri of ['http://127.0.0.1/callback', 'http://127.0.0.1:8123/callback', 'http://127.0.0.1:65000/callback']) {
      expect(await outcome(assistantClientId, uri), uri).toBe('sign-in page');
    }
    for (const uri of ['http://localhost:8123/callback', 'http://127.0.0.1:8123/other', 'http://127.0.0.1:8123/callback/', 'https://127.0.0.1:8123/callback', 'http://127.0.0.2:8123/callback', 'http://127.0.0.1:8123/callback?x=1']) {
      expect(await outcome(assistantClientId, uri), uri).toBe('refused 400');
    }
    const web = await fixture.register({ clientType: 'web' });
    const spa = await fixture.register({ clientType: 'spa' });
    for (const rp of [web, spa]) {
      expect(await outcome(rp.clientId, rp.redirectUri)).toBe('sign-in page');
      expect(await outcome(rp.clientId, rp.redirectUri.replace('127.0.0.1:9', '127.0.0.1:10'))).toBe('refused 400');
    }
  });
});
