import { auth, refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_LIFETIMES } from '../../src/oidc/token-lifetimes.ts';
import { createAgentClient } from '../api/helpers/api-clients.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { PERSON, setUpOidcFixture, type OidcFixture } from '../helpers/oidc-clients.ts';
import { startOidcTestServer, type OidcTestServer } from '../helpers/oidc-server.ts';
import { authorizeAndConnect, connectedClient, mcpRequest, PreRegisteredAssistant, registerAssistant, signInOverHttp } from './assistant-client.ts';

describe.each(TEST_ENGINES)('refresh tokens of an assistant (native client), on %s', (engine) => {
  let server: OidcTestServer;
  let fixture: OidcFixture;
  let port = 52_000;

  const register = (scopeWhitelist: Array<'openid' | 'offline_access'>) => registerAssistant(server.services, fixture.adminActor, fixture.projectId, { scopeWhitelist });

  /** Connects through the SDK's own OAuth functions, asking for offline_access beside the resource's scopes. */
  async function connectOffline(clientId: string) {
    const provider = new PreRegisteredAssistant(clientId, `http://127.0.0.1:${(port += 1)}/callback`);
    const serverUrl = new URL(`${server.issuer}/mcp`);
    expect(await auth(provider, { serverUrl, scope: 'sesame:read sesame:write offline_access' })).toBe('REDIRECT');
    // The SDK asks for consent, as OpenID Connect wants for offline_access.
    expect(provider.authorizationUrl!.searchParams.get('prompt')).toBe('consent');
    const code = await signInOverHttp(server.issuer, PERSON)(provider.authorizationUrl!);
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED');
    return provider;
  }

  /** The server's clock passes the access token's lifetime: the token is gone, the refresh token lives on. */
  const expireAccessTokens = () => server.clock.advance((TOKEN_LIFETIMES.accessToken + 1) * 1000);

  beforeAll(async () => {
    server = await startOidcTestServer(engine);
    fixture = await setUpOidcFixture(server);
  });
  afterAll(async () => server?.close());

  it('gets a refresh token, and the SDK refreshes by itself once the access token has expired; the refresh token rotates', async () => {
    const provider = await connectOffline(await register(['openid', 'offline_access']));
    const first = provider.tokens()!;
    expect(first.refresh_token).toEqual(expect.any(String));
    // The access token's scope is what it may do at /mcp; offline_access is what brought the refresh token.
    expect(first.scope?.split(' ').sort()).toEqual(['sesame:read', 'sesame:write']);

    const mcp = await connectedClient(server.issuer, provider);
    expect((await mcp.callTool({ name: 'whoAmI', arguments: {} })).structuredContent).toMatchObject({ user: { account: PERSON.account } });

    expireAccessTokens();
    expect((await mcpRequest(server.issuer, first.access_token, 'tools/list')).status).toBe(401);
    // The transport meets the 401, refreshes through the SDK (with `resource`), and sends the request again.
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name)).toContain('createProject');
    const second = provider.tokens()!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope?.split(' ')).toContain('sesame:write');
    const created = await mcp.callTool({ name: 'createProject', arguments: { name: 'After a refresh' } });
    expect(created.isError).toBeFalsy();
    await mcp.close();
  });

  it('keeps an assistant that asked only for the resource\'s scopes (as MCP clients do) connected when its client whitelists offline_access', async () => {
    const consentPages: string[] = [];
    const provider = new PreRegisteredAssistant(await register(['openid', 'offline_access']), `http://127.0.0.1:${(port += 1)}/callback`);
    const mcp = await authorizeAndConnect(server.issuer, provider, signInOverHttp(server.issuer, PERSON, 'requested', undefined, consentPages));
    // The scope the 401 names (DESIGN 9): never sesame:admin by default.
    expect(provider.authorizationUrl!.searchParams.get('scope')).toBe('sesame:read sesame:write');
    expect(consentPages.at(-1)).toContain('It stays connected until you revoke it');
    const first = provider.tokens()!;
    expect(first.refresh_token).toEqual(expect.any(String));

    expect((await mcp.callTool({ name: 'whoAmI', arguments: {} })).structuredContent).toMatchObject({ user: { account: PERSON.account } });

    // Its browser session at Sesame ending does not end it: only revoking does.
    const caller = { actor: { subjectId: fixture.person.subjectId, isAdmin: false, surface: 'cli' as const, ip: null }, currentToken: null };
    const browserSessions = (await server.services.account.listSessions(caller)).filter((session) => session.kind === 'oidc');
    expect(browserSessions.length).toBeGreaterThan(0);
    for (const session of browserSessions) await server.services.account.endSession(caller, session.sessionId);
    expireAccessTokens();
    // One request at a time: two requests meeting the expired token together would both refresh, and the second is a reuse.
    expect((await mcp.callTool({ name: 'whoAmI', arguments: {} })).structuredContent).toMatchObject({ user: { account: PERSON.account } });
    expect(provider.tokens()!.refresh_token).not.toBe(first.refresh_token);
    await mcp.close();

    // Without offline_access in the whitelist too (DESIGN 15: refresh tokens for assistants are always issued), and the consent page says so.
    const brief: string[] = [];
    const other = new PreRegisteredAssistant(await register(['openid']), `http://127.0.0.1:${(port += 1)}/callback`);
    await (await authorizeAndConnect(server.issuer, other, signInOverHttp(server.issuer, PERSON, 'requested', undefined, brief))).close();
    expect(brief.at(-1)).toContain('It stays connected until you revoke it, for at most 90 days');
    expect(other.tokens()!.refresh_token).toEqual(expect.any(String));
  });

  it('revokes the whole grant when a replaced refresh token is presented again', async () => {
    const provider = await connectOffline(await register(['openid', 'offline_access']));
    const first = provider.tokens()!;
    const metadata = await (await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)).json();
    const refresh = (refreshToken: string) =>
      refreshAuthorization(server.issuer, { metadata, clientInformation: provider.clientInformation(), refreshToken, resource: new URL(`${server.issuer}/mcp`) });

    // A refresh counts as a use of the connection (its tokens' issue times are in seconds: one must pass).
    const alice = createAgentClient(server.app);
    await alice.login(PERSON.account, PERSON.password);
    const lastUsed = async () => Date.parse(((await alice.call('GET', '/account/consents')).body.consents as any[]).find((consent) => consent.clientId === provider.clientId).lastUsedAt);
    const before = await lastUsed();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await refresh(first.refresh_token!);
    expect(await lastUsed()).toBeGreaterThan(before);
    expect((await mcpRequest(server.issuer, second.access_token, 'tools/list')).status).toBe(200);

    await expect(refresh(first.refresh_token!)).rejects.toBeInstanceOf(InvalidGrantError);
    // The reuse ended the grant: the tokens the legitimate refresh gave stop working too.
    expect((await mcpRequest(server.issuer, second.access_token, 'tools/list')).status).toBe(401);
    await expect(refresh(second.refresh_token!)).rejects.toBeInstanceOf(InvalidGrantError);

    // The administrators' trail says so, with the person and the assistant. The audit is written beside the
    // answer: on a busy machine it may land a little after the requests above.
    const endedByReuse = async () =>
      (await server.services.audit.listAdminAuditLogs(fixture.adminActor, { limit: 50 })).find((entry) => entry.action === 'assistant.grant_end_reuse' && entry.viaClientId === provider.clientId);
    let ended = await endedByReuse();
    for (let waited = 0; !ended && waited < 2000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ended = await endedByReuse();
    }
    expect(ended).toMatchObject({ targetType: 'user', targetId: fixture.person.subjectId, viaClientName: 'Claude Code', after: { clientId: provider.clientId, grantId: expect.any(String) } });
  });

  it('audits a grant ended by concurrent uses of one refresh token once', async () => {
    const provider = await connectOffline(await register(['openid', 'offline_access']));
    const metadata = await (await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)).json();
    const refresh = () =>
      refreshAuthorization(server.issuer, { metadata, clientInformation: provider.clientInformation(), refreshToken: provider.tokens()!.refresh_token!, resource: new URL(`${server.issuer}/mcp`) });
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, refresh));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    // The audit is written beside the answer; give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const trail = await server.services.audit.listAdminAuditLogs(fixture.adminActor, { limit: 100 });
    expect(trail.filter((entry) => entry.action === 'assistant.grant_end_reuse' && entry.viaClientId === provider.clientId)).toHaveLength(1);
  });

  it('gives a refresh token to an assistant whose native client does not whitelist offline_access (DESIGN 15: always issued)', async () => {
    const clientId = await register(['openid']);
    const provider = new PreRegisteredAssistant(clientId, `http://127.0.0.1:${(port += 1)}/callback`);
    const serverUrl = new URL(`${server.issuer}/mcp`);
    expect(await auth(provider, { serverUrl })).toBe('REDIRECT');
    const code = await signInOverHttp(server.issuer, PERSON)(provider.authorizationUrl!);
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED');
    expect(provider.tokens()!.refresh_token).toEqual(expect.any(String));
  });
});
