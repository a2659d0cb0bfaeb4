import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/domain/actor.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { authorizeAndConnect, PreRegisteredAssistant, signInOverHttp } from './assistant-client.ts';

type Structured = Record<string, any>;
const structured = (result: unknown) => (result as { structuredContent: Structured }).structuredContent;

/**
 * Issue 13 over MCP: the tools of creating operations take `idempotencyKey` with the meaning of the REST
 * Idempotency-Key header (a retried call answers the first result without its one-time secret, another call
 * with the key is refused); a refused call names every problem by field path; conflicts and archived projects
 * say which operation and field to use next.
 */
describe.each(TEST_ENGINES)('an assistant gets it right the first time over MCP, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let mcp: Client;
  let alice: Actor;

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    const { client } = await server.services.clients.registerClient(fixture.adminActor, fixture.projectId, {
      clientType: 'native',
      displayName: 'Test assistant',
      redirectUris: ['http://127.0.0.1/callback'],
      scopeWhitelist: ['openid'],
    });
    mcp = await authorizeAndConnect(server.issuer, new PreRegisteredAssistant(client.clientId, 'http://127.0.0.1:50123/callback'), signInOverHttp(server.issuer, PERSON));
    alice = { subjectId: fixture.person.subjectId, isAdmin: false, surface: 'cli', ip: null };
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });

  it('is offered by the creating tools only, with the header\'s rules', async () => {
    const { tools } = await mcp.listTools();
    const keyOf = (name: string) => (tools.find((tool) => tool.name === name)?.inputSchema.properties as Structured | undefined)?.idempotencyKey;
    for (const name of ['createProject', 'registerClient', 'addMember', 'rotateClientSecret']) {
      expect(keyOf(name), name).toMatchObject({ type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$', description: expect.stringContaining('idempotency_key_reused') });
      expect(tools.find((tool) => tool.name === name)!.inputSchema.required ?? [], name).not.toContain('idempotencyKey');
    }
    for (const name of ['listProjects', 'updateProject', 'reviseClient', 'deleteClient']) expect(keyOf(name), name).toBeUndefined();
  });

  it('answers a retried creation with its first result, never twice a secret, and refuses the key for another request', async () => {
    const key = 'mcp-retry-6b0f6c1e';
    const first = structured(await mcp.callTool({ name: 'createProject', arguments: { name: 'Payroll', idempotencyKey: key } }));
    const again = structured(await mcp.callTool({ name: 'createProject', arguments: { name: 'Payroll', idempotencyKey: key } }));
    expect(first.replayed).toBeUndefined();
    expect(again).toEqual({ ...first, replayed: true });
    expect((await server.services.projects.listProjects(alice)).filter((project) => project.name === 'Payroll')).toHaveLength(1);
    const projectId: string = first.project.projectId;

    const registration = { projectId, clientType: 'web', displayName: 'Payroll', redirectUris: ['https://payroll.example.com/callback'], scopeWhitelist: ['openid'] };
    const registered = structured(await mcp.callTool({ name: 'registerClient', arguments: { ...registration, idempotencyKey: 'mcp-register-1' } }));
    expect(registered.clientSecret).toEqual(expect.any(String));
    const replayed = await mcp.callTool({ name: 'registerClient', arguments: { ...registration, idempotencyKey: 'mcp-register-1' } });
    expect(replayed.isError).toBeFalsy();
    expect(structured(replayed)).toEqual({ client: registered.client, replayed: true });
    expect(JSON.stringify(replayed)).not.toContain(registered.clientSecret);
    expect(await server.services.clients.listClients(alice, projectId)).toHaveLength(1);

    const rotation = { projectId, clientId: registered.client.clientId, clientVersion: registered.client.clientVersion, gracePeriodSeconds: 60 };
    const rotated = structured(await mcp.callTool({ name: 'rotateClientSecret', arguments: { ...rotation, idempotencyKey: 'mcp-rotate-1' } }));
    const rotatedAgain = await mcp.callTool({ name: 'rotateClientSecret', arguments: { ...rotation, idempotencyKey: 'mcp-rotate-1' } });
    expect(structured(rotatedAgain)).toEqual({ client: rotated.client, replayed: true });
    expect(JSON.stringify(rotatedAgain)).not.toContain(rotated.clientSecret);
    expect((await server.services.clients.getClient(alice, projectId, registered.client.clientId)).secrets).toHaveLength(2);

    const reused = await mcp.callTool({ name: 'createProject', arguments: { name: 'Payroll 2', idempotencyKey: key } });
    expect(reused.isError).toBe(true);
    expect(structured(reused)).toMatchObject({ error: 'idempotency_key_reused', error_description: expect.stringContaining('new key') });
    expect((await server.services.projects.listProjects(alice)).map((project) => project.name)).not.toContain('Payroll 2');
  });

  it('refuses a malformed key together with the other problems of the call, and creates nothing', async () => {
    const before = await server.services.projects.listProjects(alice);
    const refused = await mcp.callTool({ name: 'createProject', arguments: { name: 7, idempotencyKey: 'has spaces in it' } });
    expect(refused.isError).toBe(true);
    expect(structured(refused)).toMatchObject({ error: 'invalid_request', field_errors: { idempotencyKey: 'must be 1-255 visible ASCII characters', name: expect.any(String) } });
    expect(await server.services.projects.listProjects(alice)).toEqual(before);
  });

  it('names every problem of a registration by field path in one tool error', async () => {
    const { projectId } = structured(await mcp.callTool({ name: 'createProject', arguments: { name: 'Validation' } })).project;
    const refused = await mcp.callTool({
      name: 'registerClient',
      arguments: { projectId, clientType: 'spa', displayName: 'Bad', redirectUris: ['https://ok.example.com/cb', 'http://app.example.com/cb#x'], scopeWhitelist: ['profile', 'offline_access'] },
    });
    expect(refused.isError).toBe(true);
    expect(structured(refused)).toEqual({
      error: 'invalid_client_metadata',
      error_description: expect.stringContaining('field_errors'),
      field_errors: {
        'redirectUris.1': 'must not contain a fragment (#); must use https (http is allowed only for localhost, 127.0.0.1 and [::1])',
        scopeWhitelist: 'must contain openid; a spa client cannot have offline_access',
      },
    });
  });

  it('says after a conflict to read again and retry without handing over a number, and names how to un-archive', async () => {
    const { project } = structured(await mcp.callTool({ name: 'createProject', arguments: { name: 'Conflicts' } }));
    const stale = await mcp.callTool({ name: 'updateProject', arguments: { projectId: project.projectId, name: 'Late', expectedProjectVersion: project.version + 1 } });
    expect(stale.isError).toBe(true);
    expect(structured(stale)).toMatchObject({ error: 'version_conflict', error_description: expect.stringContaining('`getProject`') });
    expect(structured(stale).error_description).not.toMatch(/\d/);

    await mcp.callTool({ name: 'updateProject', arguments: { projectId: project.projectId, status: 'archived', expectedProjectVersion: project.version } });
    const archived = await mcp.callTool({ name: 'updateProject', arguments: { projectId: project.projectId, name: 'Still', expectedProjectVersion: project.version + 1 } });
    expect(structured(archived)).toMatchObject({ error: 'project_archived', error_description: expect.stringContaining('`updateProject` and `{"status": "active"') });
  });

  it('ends a client\'s tokens, deletes a client, and deletes a project only once archived, as destructive tools', async () => {
    const { tools } = await mcp.listTools();
    for (const name of ['revokeClientTokens', 'deleteClient', 'deleteProject']) expect(tools.find((tool) => tool.name === name)?.annotations?.destructiveHint, name).toBe(true);
    const { project } = structured(await mcp.callTool({ name: 'createProject', arguments: { name: 'Short-lived' } }));
    const { client } = structured(
      await mcp.callTool({ name: 'registerClient', arguments: { projectId: project.projectId, clientType: 'web', displayName: 'Mistake', redirectUris: ['https://mistake.example.com/cb'], scopeWhitelist: ['openid'] } }),
    );
    const ended = structured(await mcp.callTool({ name: 'revokeClientTokens', arguments: { projectId: project.projectId, clientId: client.clientId, clientVersion: client.clientVersion } }));
    expect(ended).toMatchObject({ revokedGrants: 0, client: { clientId: client.clientId, clientVersion: client.clientVersion + 1, secrets: client.secrets } });

    const deleted = await mcp.callTool({ name: 'deleteClient', arguments: { projectId: project.projectId, clientId: client.clientId, clientVersion: client.clientVersion + 1 } });
    expect(deleted.isError).toBeFalsy();
    expect(structured(await mcp.callTool({ name: 'getClient', arguments: { projectId: project.projectId, clientId: client.clientId } }))).toMatchObject({ error: 'not_found' });

    const active = await mcp.callTool({ name: 'deleteProject', arguments: { projectId: project.projectId, expectedProjectVersion: project.version } });
    expect(structured(active)).toMatchObject({ error: 'project_not_archived', error_description: expect.stringContaining('`updateProject`') });
    const archived = structured(await mcp.callTool({ name: 'updateProject', arguments: { projectId: project.projectId, status: 'archived', expectedProjectVersion: project.version } })).project;
    expect((await mcp.callTool({ name: 'deleteProject', arguments: { projectId: project.projectId, expectedProjectVersion: archived.version } })).isError).toBeFalsy();
    expect(structured(await mcp.callTool({ name: 'getProject', arguments: { projectId: project.projectId } }))).toMatchObject({ error: 'not_found' });
  });
});
