import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOperations } from '../../src/api/agent/register-agent-api.ts';
import { BODY_LIMIT_BYTES } from '../../src/app.ts';
import { renderMcpGuide } from '../../src/mcp/mcp-guide.ts';
import { buildCatalogue, createMcpServer } from '../../src/mcp/mcp-server.ts';
import { toolOperations } from '../../src/mcp/tool-operations.ts';
import { ASSISTANT_TOKEN_LIFETIMES } from '../../src/oidc/token-lifetimes.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { authorizeAndConnect, mcpRequest, PreRegisteredAssistant, signInOverHttp } from './assistant-client.ts';

type Structured = Record<string, any>;
const structured = (result: unknown) => (result as { structuredContent: Structured }).structuredContent;

/** A REST path as a REST caller would be told it: `GET /projects/{projectId}`, or an address under /api/. */
const REST_PATH = /\b(?:GET|POST|PUT|PATCH|DELETE)\s+`?\/|\/api\//;

/**
 * DESIGN 15 "Words on MCP": what /mcp serves names tools by their names, never REST paths; integer
 * arguments are integers; the guide states the token lifetime, refresh and the 90-day bound; the tool
 * annotations and the guide's lists come from the operation definitions.
 */
describe('what /mcp serves, listed as an administrator holding every scope', () => {
  let tools: { name: string; description?: string; inputSchema: Record<string, unknown>; annotations?: Record<string, unknown> }[];
  let guide: string;
  let prompt: string;
  const operations = toolOperations({ issuer: 'http://127.0.0.1:9' } as never, BODY_LIMIT_BYTES, ASSISTANT_TOKEN_LIFETIMES);

  beforeAll(async () => {
    const catalogue = buildCatalogue(operations, renderMcpGuide({ tools: operations, lifetimes: ASSISTANT_TOKEN_LIFETIMES, bodyLimitBytes: BODY_LIMIT_BYTES }));
    const actor = { subjectId: 'admin', isAdmin: true, surface: 'mcp' as const, ip: null, viaClientId: 'cli_x', scopes: ['sesame:read', 'sesame:write', 'sesame:admin'] };
    const server = createMcpServer(catalogue, { actor, signedIn: { user: {} as never, token: '' }, services: {} as never, request: {} as FastifyRequest, reply: {} as FastifyReply });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'words', version: '1' });
    await client.connect(clientSide);
    tools = (await client.listTools()).tools as typeof tools;
    guide = ((await client.readResource({ uri: 'sesame://guide' })).contents[0] as { text: string }).text;
    prompt = ((await client.getPrompt({ name: 'sesame-guide' })).messages[0]!.content as { text: string }).text;
    await client.close();
  });

  it('names no REST path in any tool: description, argument texts or annotations', () => {
    expect(tools.length).toBe(operations.length);
    for (const tool of tools) expect(JSON.stringify(tool), tool.name).not.toMatch(REST_PATH);
    // The operations that point to others name them as tools.
    expect(tools.find((tool) => tool.name === 'lookupUser')!.description).toContain('`addMember`');
    expect(tools.find((tool) => tool.name === 'endMySession')!.description).toContain('`listMySessions`');
  });

  it('serves a guide in tool words as both the resource and the prompt', () => {
    expect(prompt).toBe(guide);
    expect(guide).not.toMatch(REST_PATH);
    expect(guide).not.toContain('/auth/login');
    expect(guide).toContain('# Sesame over MCP');
    for (const tool of tools) expect(guide, tool.name).toContain(`\`${tool.name}\``);
  });

  it('states the access token\'s lifetime, the refresh token and the 90-day bound once, as the provider sets them', () => {
    expect(ASSISTANT_TOKEN_LIFETIMES).toEqual({ accessTokenSeconds: 3600, refreshTokenIdleSeconds: 14 * 86_400, connectionMaxSeconds: 90 * 86_400 });
    expect(guide).toContain('Your access token lives 1 hour. A refresh token always comes with it');
    expect(guide).toContain('replaces the refresh token with a new one');
    expect(guide).toContain('A refresh token unused for 14 days expires');
    expect(guide).toContain('at most 90 days from when the person connected you');
    expect(guide.match(/90 days/g)).toHaveLength(1);
    expect(guide).not.toMatch(/sign in again the same way|prompt=consent/);
  });

  it('derives the annotations and the idempotent list from the operation definitions', () => {
    for (const operation of operations) {
      const tool = tools.find((candidate) => candidate.name === operation.operationId)!;
      expect(tool.annotations, operation.operationId).toMatchObject({ readOnlyHint: operation.method === 'GET', destructiveHint: operation.destructive === true });
    }
    expect(operations.filter((operation) => operation.destructive).map((operation) => operation.operationId)).toEqual(
      expect.arrayContaining(['deleteProject', 'deleteClient', 'revokeClientTokens', 'removeMember', 'revokeAssistantGrant', 'deleteIdentityProvider', 'updateProject']),
    );
    const idempotent = /The tools that create something \(([^)]*)\) take an optional `idempotencyKey`/.exec(guide)![1]!.split(', ');
    const creating = tools.filter((tool) => 'idempotencyKey' in ((tool.inputSchema.properties ?? {}) as object)).map((tool) => `\`${tool.name}\``);
    expect(idempotent.sort()).toEqual(creating.sort());
    expect(idempotent).toContain('`createIdentityProvider`');
  });
});

describe('every operation a text points to exists', () => {
  it('finds each see(...) of src/ among the operations', () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
    const pointed = new Set(files(src).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bsee\('([A-Za-z]+)'\)/g)].map((match) => match[1]!)));
    // The console's upstream sign-in is a Management API operation; every other is the Agent API's.
    const known = new Set([...agentOperations({ issuer: 'http://127.0.0.1:9' } as never, BODY_LIMIT_BYTES, ASSISTANT_TOKEN_LIFETIMES).map((operation) => operation.operationId), 'upstreamFinish']);
    expect(pointed.size).toBeGreaterThan(30);
    expect([...pointed].filter((operationId) => !known.has(operationId))).toEqual([]);
  });
});

describe.each(TEST_ENGINES)('tool errors and arguments over MCP, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let mcp: Client;
  let assistant: PreRegisteredAssistant;

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    const { client } = await server.services.clients.registerClient(fixture.adminActor, fixture.projectId, {
      clientType: 'native',
      displayName: 'Test assistant',
      redirectUris: ['http://127.0.0.1/callback'],
      scopeWhitelist: ['openid'],
    });
    assistant = new PreRegisteredAssistant(client.clientId, 'http://127.0.0.1:50124/callback');
    mcp = await authorizeAndConnect(server.issuer, assistant, signInOverHttp(server.issuer, PERSON));
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await mcp.callTool({ name, arguments: args });
    return { isError: result.isError === true, body: structured(result), text: (result.content as { text: string }[])[0]!.text };
  };

  it('words every refusal with tool names, never a REST path, while the REST answer names the path', async () => {
    const { project } = (await call('createProject', { name: 'Words' })).body;
    const refusals = [
      [await call('getProject', { projectId: 'prj_nope' }), 'not_found', '`listProjects`'],
      [await call('updateProject', { projectId: project.projectId, name: 'Late', expectedProjectVersion: project.version + 1 }), 'version_conflict', '`getProject`'],
      [await call('deleteProject', { projectId: project.projectId, expectedProjectVersion: project.version }), 'project_not_archived', '`updateProject`'],
      [await call('getClient', { projectId: project.projectId, clientId: 'cli_nope' }), 'not_found', '`listClients`'],
      [await call('addMember', { projectId: project.projectId, subjectId: 'usr_nope', expectedProjectVersion: project.version }), 'not_found', '`lookupUser`'],
      [await call('removeMember', { projectId: project.projectId, subjectId: fixture.person.subjectId, expectedProjectVersion: project.version }), 'last_owner', '`transferOwnership`'],
      [await call('changeMemberRole', { projectId: project.projectId, subjectId: fixture.admin.subjectId, role: 'viewer', expectedProjectVersion: project.version }), 'not_found', '`listMembers`'],
    ] as const;
    for (const [refusal, code, pointer] of refusals) {
      expect(refusal.isError, code).toBe(true);
      expect(refusal.body.error, `${pointer}: ${refusal.body.error_description}`).toBe(code);
      expect(refusal.body.error_description, pointer).toContain(pointer);
      expect(refusal.body.error_description, pointer).not.toMatch(REST_PATH);
      expect(refusal.text, pointer).not.toMatch(REST_PATH);
    }
    // A missing scope is a 403 challenge with a JSON-RPC error (DESIGN 9), in tool words too.
    const outsideScope = await mcpRequest(server.issuer, assistant.tokens()!.access_token, 'tools/call', { name: 'listAdminAuditLogs', arguments: {} });
    expect(outsideScope.status).toBe(403);
    expect(outsideScope.body.error.data).toMatchObject({ error: 'insufficient_scope', error_description: expect.stringContaining('listAdminAuditLogs') });
    expect(outsideScope.body.error.data.error_description).not.toMatch(REST_PATH);
    expect(outsideScope.body.error.message).not.toMatch(REST_PATH);

    const login = await fetch(`${server.issuer}/api/agent/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(PERSON) });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const rest = await fetch(`${server.issuer}/api/agent/projects/prj_nope`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(rest.status).toBe(404);
    expect(((await rest.json()) as { error_description: string }).error_description).toContain('`GET /projects`');
  });

  it('takes limit as an integer and refuses it as a string, naming the argument', async () => {
    for (let index = 0; index < 3; index += 1) await call('createProject', { name: `Paged ${index}` });
    const { projects } = (await call('listProjects', {})).body;
    const projectId = projects.find((project: Structured) => project.name === 'Paged 2').projectId;

    const page = await call('listAuditLogs', { projectId, limit: 1 });
    expect(page.isError).toBe(false);
    expect(page.body.auditLogs).toHaveLength(1);

    const asText = await call('listAuditLogs', { projectId, limit: '1' });
    expect(asText).toMatchObject({ isError: true, body: { error: 'invalid_request', field_errors: { limit: 'must be a number' } } });
    for (const [limit, problem] of [[0, 'must be at least 1'], [201, 'must be at most 200'], [1.5, 'must be an integer']] as const) {
      expect((await call('listAuditLogs', { projectId, limit })).body, String(limit)).toMatchObject({ error: 'invalid_request', field_errors: { limit: problem } });
    }
    // Every problem of the call in one answer: a bad limit and an unknown argument together.
    expect((await call('listAuditLogs', { projectId, limit: '5', page: 2 })).body.field_errors).toEqual({ limit: 'must be a number', page: 'is not a known argument; remove it' });
  });
});
