import { refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentClient } from '../api/helpers/api-clients.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { authorizeWithScope, mcpRequest, PreRegisteredAssistant, registerAssistant, signInOverHttp } from './assistant-client.ts';

type Structured = Record<string, any>;
const ADMIN = { account: 'root', password: 'root-password-123' };

/**
 * DESIGN 9 and 15: what the two resources say when a token is missing or too narrow (the 401's default
 * scope, the 403 insufficient_scope challenge with the exact scope to ask for), the Origin check of /mcp,
 * and an assistant disconnecting itself with no more than sesame:read.
 */
describe.each(TEST_ENGINES)('scope challenges, Origin and disconnecting, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let assistantClientId: string;
  let port = 53_000;

  const mcpMetadata = () => `${server.issuer}/.well-known/oauth-protected-resource/mcp`;
  const agentMetadata = () => `${server.issuer}/.well-known/oauth-protected-resource/api/agent`;

  /** A token of a connected assistant (its client whitelists offline_access, so a refresh token comes too). */
  async function connect(options: { resource: 'mcp' | 'api/agent'; scope: string; access?: 'requested' | 'read'; person?: { account: string; password: string } }) {
    const provider = new PreRegisteredAssistant(assistantClientId, `http://127.0.0.1:${(port += 1)}/callback`);
    await authorizeWithScope(server.issuer, provider, options.scope, signInOverHttp(server.issuer, options.person ?? PERSON, options.access ?? 'requested'), options.resource);
    return provider;
  }

  async function agentCall(token: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.issuer}/api/agent${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, challenge: response.headers.get('www-authenticate'), body: response.status === 204 ? null : ((await response.json()) as Structured) };
  }

  async function refresh(provider: PreRegisteredAssistant, resource: string) {
    const metadata = await (await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)).json();
    return refreshAuthorization(server.issuer, { metadata, clientInformation: provider.clientInformation(), refreshToken: provider.tokens()!.refresh_token!, resource: new URL(`${server.issuer}/${resource}`) });
  }

  const adminTrail = async () => {
    const admin = createAgentClient(server.app);
    await admin.login(ADMIN.account, ADMIN.password);
    return (await admin.call('GET', '/admin/audit-logs?limit=200')).body.auditLogs as Structured[];
  };

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    await server.services.users.createUser(fixture.adminActor, { account: ADMIN.account, displayName: 'Root', password: ADMIN.password, isAdmin: true });
    assistantClientId = await registerAssistant(server.services, fixture.adminActor, fixture.projectId, { scopeWhitelist: ['openid', 'offline_access'] });
  });
  afterAll(async () => server?.close());

  it('answers a request without a token with 401, the default scope (never sesame:admin) and the metadata address, on both resources', async () => {
    const mcp = await fetch(`${server.issuer}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe(`Bearer scope="sesame:read sesame:write", resource_metadata="${mcpMetadata()}"`);
    const agent = await fetch(`${server.issuer}/api/agent/projects`);
    expect(agent.status).toBe(401);
    expect(agent.headers.get('www-authenticate')).toBe(`Bearer realm="sesame-agent-api", scope="sesame:read sesame:write", resource_metadata="${agentMetadata()}"`);
    expect((await agent.json()).error).toBe('login_required');
    const unknown = await mcpRequest(server.issuer, 'not-a-token', 'tools/list');
    expect(unknown.status).toBe(401);
    expect(unknown.challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", scope="sesame:read sesame:write", resource_metadata="/);
  });

  it('refuses an Agent API operation outside the token\'s scopes with 403 and the challenge naming what it has plus what it needs', async () => {
    const readOnly = (await connect({ resource: 'api/agent', scope: 'sesame:read sesame:write', access: 'read' })).tokens()!;
    expect(readOnly.scope).toBe('sesame:read');
    const refused = await agentCall(readOnly.access_token, 'POST', '/projects', { name: 'Refused' });
    expect(refused).toMatchObject({ status: 403, body: { error: 'insufficient_scope', error_description: expect.stringContaining('sesame:write') } });
    expect(refused.challenge).toBe(`Bearer error="insufficient_scope", scope="sesame:read sesame:write", resource_metadata="${agentMetadata()}"`);
    expect((await server.services.projects.listProjects(fixture.adminActor)).map((project) => project.name)).not.toContain('Refused');

    const write = (await connect({ resource: 'api/agent', scope: 'sesame:read sesame:write' })).tokens()!;
    const admin = await agentCall(write.access_token, 'GET', '/admin/users');
    expect(admin.status).toBe(403);
    expect(admin.challenge).toBe(`Bearer error="insufficient_scope", scope="sesame:read sesame:write sesame:admin", resource_metadata="${agentMetadata()}"`);
    // A password session has no token scopes: its role alone answers (forbidden, no challenge).
    const password = createAgentClient(server.app);
    await password.login(PERSON.account, PERSON.password);
    const byRole = await password.call('GET', '/admin/users');
    expect(byRole.status).toBe(403);
    expect(byRole.body.error).toBe('forbidden');
    expect(byRole.headers['www-authenticate']).toBeUndefined();
  });

  it('answers an MCP tool call outside the token\'s scopes with a 403 challenge and a JSON-RPC error, and does nothing', async () => {
    const readOnly = (await connect({ resource: 'mcp', scope: 'sesame:read sesame:write', access: 'read' })).tokens()!;
    const refused = await mcpRequest(server.issuer, readOnly.access_token, 'tools/call', { name: 'createProject', arguments: { name: 'Not over MCP' } });
    expect(refused.status).toBe(403);
    expect(refused.challenge).toBe(`Bearer error="insufficient_scope", scope="sesame:read sesame:write", resource_metadata="${mcpMetadata()}"`);
    expect(refused.body.result).toBeUndefined();
    expect(refused.body.error).toMatchObject({ code: expect.any(Number), message: expect.stringContaining('sesame:write'), data: { error: 'insufficient_scope', error_description: expect.stringContaining('sesame:write') } });
    expect((await server.services.projects.listProjects(fixture.adminActor)).map((project) => project.name)).not.toContain('Not over MCP');

    // A read the token allows is an ordinary 200, and a refusal of another kind stays a tool error.
    const read = await mcpRequest(server.issuer, readOnly.access_token, 'tools/call', { name: 'getProject', arguments: { projectId: 'prj_unknown' } });
    expect(read.status).toBe(200);
    expect(read.body.result).toMatchObject({ isError: true, structuredContent: { error: 'not_found' } });

    const adminsWrite = (await connect({ resource: 'mcp', scope: 'sesame:read sesame:write', person: ADMIN })).tokens()!;
    const adminTool = await mcpRequest(server.issuer, adminsWrite.access_token, 'tools/call', { name: 'listUsers', arguments: {} });
    expect(adminTool.status).toBe(403);
    expect(adminTool.challenge).toBe(`Bearer error="insufficient_scope", scope="sesame:read sesame:write sesame:admin", resource_metadata="${mcpMetadata()}"`);
  });

  it('refuses /mcp from a page of another origin (DNS rebinding), and serves the issuer\'s own origin and clients that send none', async () => {
    const token = (await connect({ resource: 'mcp', scope: 'sesame:read' })).tokens()!.access_token;
    const list = (origin?: string, withToken = true) =>
      fetch(`${server.issuer}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(withToken ? { authorization: `Bearer ${token}` } : {}),
          ...(origin === undefined ? {} : { origin }),
        },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      });
    for (const origin of ['http://evil.example', 'null', new URL(server.issuer).origin.replace('127.0.0.1', 'localhost')]) {
      const refused = await list(origin);
      expect(refused.status, origin).toBe(403);
      expect((await refused.json()).error).toBe('forbidden');
      expect((await list(origin, false)).status, `${origin} without a token`).toBe(403);
    }
    expect((await list(new URL(server.issuer).origin)).status).toBe(200);
    expect((await list()).status).toBe(200);
  });

  it('lets a read-only assistant disconnect itself over the Agent API: 204, its access and refresh tokens stop at once, audited', async () => {
    const provider = await connect({ resource: 'api/agent', scope: 'sesame:read sesame:write', access: 'read' });
    const tokens = provider.tokens()!;
    expect(tokens.scope).toBe('sesame:read');
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const grantId = (await server.app.oidc.current().AccessToken.find(tokens.access_token))!.grantId!;

    const left = await agentCall(tokens.access_token, 'POST', '/auth/disconnect');
    expect(left.status).toBe(204);
    expect((await agentCall(tokens.access_token, 'GET', '/auth/me')).status).toBe(401);
    await expect(refresh(provider, 'api/agent')).rejects.toBeInstanceOf(InvalidGrantError);
    expect((await server.services.account.listConsents({ actor: { subjectId: fixture.person.subjectId, isAdmin: false, surface: 'cli', ip: null }, currentToken: null })).map((consent: Structured) => consent.grantId)).not.toContain(grantId);
    expect((await adminTrail()).find((entry) => entry.action === 'assistant.disconnect' && entry.after?.grantId === grantId)).toMatchObject({
      surface: 'agent',
      viaClientId: assistantClientId,
      actorSubjectId: fixture.person.subjectId,
      targetType: 'user',
      targetId: fixture.person.subjectId,
      after: { grantId, clientId: assistantClientId },
    });
  });

  it('lets a read-only assistant disconnect itself over MCP with the tool disconnectAssistant', async () => {
    const provider = await connect({ resource: 'mcp', scope: 'sesame:read' });
    const tokens = provider.tokens()!;
    expect(tokens.scope).toBe('sesame:read');
    const listed = (await mcpRequest(server.issuer, tokens.access_token, 'tools/list')).body.result.tools as Structured[];
    expect(listed.find((tool) => tool.name === 'disconnectAssistant')).toMatchObject({ annotations: { readOnlyHint: false, destructiveHint: true } });

    const left = await mcpRequest(server.issuer, tokens.access_token, 'tools/call', { name: 'disconnectAssistant', arguments: {} });
    expect(left.status).toBe(200);
    expect(left.body.result.isError).toBeFalsy();
    const after = await mcpRequest(server.issuer, tokens.access_token, 'tools/list');
    expect(after.status).toBe(401);
    expect(after.challenge).toContain('error="invalid_token"');
    await expect(refresh(provider, 'mcp')).rejects.toBeInstanceOf(InvalidGrantError);
    expect((await adminTrail()).filter((entry) => entry.action === 'assistant.disconnect' && entry.surface === 'mcp')).toHaveLength(1);
  });

  it('refuses to disconnect a password session, which ends with logout, and leaves it working', async () => {
    const password = createAgentClient(server.app);
    await password.login(PERSON.account, PERSON.password);
    const refused = await password.call('POST', '/auth/disconnect');
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: expect.stringContaining('POST /auth/logout') } });
    expect((await password.call('GET', '/auth/me')).status).toBe(200);
  });
});
