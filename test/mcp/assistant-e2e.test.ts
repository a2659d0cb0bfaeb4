import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../e2e/support/browser.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { startLoopbackCallback, type LoopbackCallback } from '../helpers/loopback-callback.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { authorizeAndConnect, PreRegisteredAssistant, registerAssistant, signInToConsentPage } from './assistant-client.ts';

type Structured = Record<string, any>;
const structured = (result: unknown) => (result as { structuredContent: Structured }).structuredContent;

describe.each(TEST_ENGINES)('an MCP assistant authorized by Sesame itself, on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let browser: Browser;
  let callback: LoopbackCallback;
  let assistantClientId: string;
  let mcp: Client;

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
    // Registered once by an administrator, with a loopback redirect URI and no port: the assistant picks one at run time.
    assistantClientId = await registerAssistant(server.services, fixture.adminActor, fixture.projectId, { scopeWhitelist: ['openid', 'offline_access'] });
    callback = await startLoopbackCallback();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await mcp?.close();
    await browser?.close();
    await callback?.close();
    await server?.close();
  });

  it('answers an unauthenticated request with 401 and where to find the protected-resource metadata', async () => {
    const response = await fetch(`${server.issuer}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate');
    expect(challenge).toBe(`Bearer scope="sesame:read sesame:write", resource_metadata="${server.issuer}/.well-known/oauth-protected-resource/mcp"`);
    expect((await response.json()).error).toBe('login_required');

    const metadata = await (await fetch(`${server.issuer}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(metadata).toMatchObject({
      resource: `${server.issuer}/mcp`,
      authorization_servers: [server.issuer],
      scopes_supported: ['sesame:read', 'sesame:write', 'sesame:admin'],
      bearer_methods_supported: ['header'],
    });
    const oauthMetadata = await (await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)).json();
    const openidMetadata = await (await fetch(`${server.issuer}/.well-known/openid-configuration`)).json();
    expect(oauthMetadata).toEqual(openidMetadata);
    expect(oauthMetadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(oauthMetadata.registration_endpoint).toBeUndefined();
  });

  it('discovers, signs the person in on Sesame\'s pages, gets a token for /mcp, and manages a project with the audit naming the assistant', async () => {
    const provider = new PreRegisteredAssistant(assistantClientId, callback.redirectUri);
    const context = await browser.newContext();
    const page = await context.newPage();
    mcp = await authorizeAndConnect(server.issuer, provider, async (authorizationUrl) => {
      expect(authorizationUrl.searchParams.get('resource')).toBe(`${server.issuer}/mcp`);
      expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
      const consent = await signInToConsentPage(page, authorizationUrl, PERSON);
      expect(consent).toContain('Claude Code');
      expect(consent).toContain('reading and changing');
      expect(consent).not.toContain('administrator rights'); // alice is no administrator: sesame:admin is not offered
      await expect(page.getByRole('button', { name: 'Allow read-only' }).isVisible()).resolves.toBe(true);
      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      await page.getByRole('heading', { name: 'You can close this window' }).waitFor();
      expect(new URL(page.url()).port).toBe(String(callback.port));
      return callback.codes.at(-1)!;
    });
    await context.close();
    expect(provider.tokens()?.scope?.split(' ').sort()).toEqual(['sesame:read', 'sesame:write']);

    const { tools } = await mcp.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['whoAmI', 'listProjects', 'createProject', 'registerClient', 'rotateClientSecret', 'listAuditLogs']));
    for (const absent of ['login', 'logout', 'getInstructions', 'getOpenApiDocument', 'listUsers', 'createUser']) expect(names).not.toContain(absent);
    const rotate = tools.find((tool) => tool.name === 'rotateClientSecret')!;
    expect(rotate.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.find((tool) => tool.name === 'listProjects')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === 'removeMember')!.annotations).toMatchObject({ destructiveHint: true });

    const me = structured(await mcp.callTool({ name: 'whoAmI', arguments: {} }));
    expect(me.user.account).toBe(PERSON.account);

    const created = await mcp.callTool({ name: 'createProject', arguments: { name: 'Made by an assistant' } });
    expect(created.isError).toBeFalsy();
    const project = structured(created).project;
    expect(project.role).toBe('owner');
    expect((created.content as { type: string; text: string }[])[0]!.text).toContain('Create a project');

    const registered = structured(
      await mcp.callTool({
        name: 'registerClient',
        arguments: { projectId: project.projectId, clientType: 'web', displayName: 'Portal', redirectUris: ['https://portal.example.com/cb'], scopeWhitelist: ['openid'] },
      }),
    );
    const client = registered.client;
    expect(registered.clientSecret).toEqual(expect.any(String));

    const rotated = await mcp.callTool({ name: 'rotateClientSecret', arguments: { projectId: project.projectId, clientId: client.clientId, clientVersion: client.clientVersion } });
    expect(rotated.isError).toBeFalsy();
    expect(structured(rotated).clientSecret).not.toBe(registered.clientSecret);

    const audit = structured(await mcp.callTool({ name: 'listAuditLogs', arguments: { projectId: project.projectId } })).auditLogs as Structured[];
    const rotation = audit.find((entry) => entry.targetId === client.clientId && /rotate/.test(entry.action));
    expect(rotation).toMatchObject({ surface: 'mcp', viaClientId: assistantClientId, actorSubjectId: fixture.person.subjectId });
    expect(audit.every((entry) => entry.surface === 'mcp' && entry.viaClientId === assistantClientId)).toBe(true);

    // A refusal is a tool error carrying the REST error body.
    const conflict = await mcp.callTool({ name: 'rotateClientSecret', arguments: { projectId: project.projectId, clientId: client.clientId, clientVersion: client.clientVersion } });
    expect(conflict.isError).toBe(true);
    expect(structured(conflict)).toMatchObject({ error: 'version_conflict', error_description: expect.any(String) });
    const invalid = await mcp.callTool({ name: 'createProject', arguments: { name: 7, colour: 'red' } });
    expect(structured(invalid)).toMatchObject({ error: 'invalid_request', field_errors: { name: expect.any(String), colour: expect.any(String) } });
  });

  it('offers the operating guide as the prompt sesame-guide and the resource sesame://guide', async () => {
    const prompt = await mcp.getPrompt({ name: 'sesame-guide' });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('# Sesame over MCP');
    expect(text).toContain('insufficient_scope');
    const resource = await mcp.readResource({ uri: 'sesame://guide' });
    expect((resource.contents[0] as { text: string }).text).toBe(text);
  });
});
