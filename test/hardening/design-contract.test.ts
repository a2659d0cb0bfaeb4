import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { cliActor, type Actor } from '../../src/domain/actor.ts';
import { AppError } from '../../src/errors.ts';
import { toolWords } from '../../src/mcp/tool-call.ts';
import { createPersonOnlyCheck } from '../../src/services/account/person-only.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient } from '../api/helpers/api-clients.ts';
import { PASSWORD } from '../api/helpers/users.ts';

/**
 * Figures of DESIGN.md (sections 9, 14, 15, 17) that no other suite pins: defaults of the environment
 * variables, the exact shape of the protected-resource metadata, and the request id's bounds.
 */
describe('the documented defaults of sections 9, 14 and 15', () => {
  it('SESAME_MCP_ENABLED defaults to OIDC_AGENT_API_ENABLED, and an explicit value wins', () => {
    expect(loadConfig({}).mcpEnabled).toBe(true);
    expect(loadConfig({ OIDC_AGENT_API_ENABLED: 'false' }).mcpEnabled).toBe(false);
    expect(loadConfig({ OIDC_AGENT_API_ENABLED: 'false', SESAME_MCP_ENABLED: 'true' }).mcpEnabled).toBe(true);
    expect(loadConfig({ OIDC_AGENT_API_ENABLED: 'true', SESAME_MCP_ENABLED: 'false' }).mcpEnabled).toBe(false);
    const production = { NODE_ENV: 'production', OIDC_ISSUER: 'https://id.example.com', OIDC_KEY_ENCRYPTION_SECRET: 'k'.repeat(32), OIDC_COOKIE_KEYS: 'c'.repeat(32) };
    expect(loadConfig(production).mcpEnabled).toBe(false);
    expect(loadConfig({ ...production, OIDC_AGENT_API_ENABLED: 'true' }).mcpEnabled).toBe(true);
  });

  it('REAUTH_WINDOW_SECONDS defaults to 10 minutes', () => {
    expect(loadConfig({}).reauthWindowSeconds).toBe(600);
    expect(loadConfig({ REAUTH_WINDOW_SECONDS: '120' }).reauthWindowSeconds).toBe(120);
  });

  it('ASSISTANT_METADATA_DOCUMENTS defaults to on, with no private host allowed', () => {
    expect(loadConfig({}).assistantMetadata).toEqual({ enabled: true, allowedHosts: [] });
  });
});

describe('refusals of the person-only checks (DESIGN 14) in each surface\'s words (DESIGN 15: never a REST path on MCP)', () => {
  const check = createPersonOnlyCheck({ clock: { now: () => 10 * 60_000 + 1 } });
  const person = (changes: Partial<Actor>): Actor => ({ subjectId: 'usr_1', isAdmin: true, surface: 'console', ip: null, ...changes });
  const refusalOf = (attempt: () => unknown): AppError => {
    try {
      attempt();
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('not refused');
  };

  it('name operations by pointer, so MCP words them as tools', () => {
    const refusals = [
      refusalOf(() => check.requirePerson(person({ surface: 'mcp', viaClientId: 'cli_a' }), 'Adding a passkey')),
      refusalOf(() => check.requirePerson(person({ provenAt: 0 }), 'Adding a passkey')),
      refusalOf(() => check.requireAdminOnOther(person({ surface: 'mcp', viaClientId: 'cli_a' }), 'usr_2', 'Setting a person\'s password')),
      refusalOf(() => check.requireAdminOnOther(person({ surface: 'agent' }), 'usr_1', 'Setting a person\'s password')),
    ];
    expect(refusals.map((refusal) => refusal.code)).toEqual(['browser_only', 'reauthentication_required', 'browser_only', 'use_my_account']);
    for (const refusal of refusals) expect(refusal.inWords(toolWords).message, refusal.code).not.toMatch(/\b(?:GET|POST|PUT|PATCH|DELETE)\s+`?\/|\/api\//);
    expect(refusals[1]!.inWords(toolWords).message).toContain('`reauthenticate`');
  });
});

describe.each(TEST_ENGINES)('what an assistant reads before it has a token, on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('serves each resource\'s metadata with the fields of section 9', async () => {
    const issuer = ctx.config.issuer;
    for (const [path, name] of [
      ['/mcp', 'Sesame MCP server'],
      ['/api/agent', 'Sesame Agent API'],
    ] as const) {
      const response = await ctx.app.inject({ url: `/.well-known/oauth-protected-resource${path}` });
      expect(response.statusCode, path).toBe(200);
      expect(response.json(), path).toMatchObject({
        resource: `${issuer}${path}`,
        authorization_servers: [issuer],
        scopes_supported: ['sesame:read', 'sesame:write', 'sesame:admin'],
        bearer_methods_supported: ['header'],
        resource_name: name,
      });
    }
  });

  it('answers GET /mcp without a token like POST: 401, the default scope and the metadata address', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/mcp', headers: { accept: 'text/event-stream' } });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe(`Bearer scope="sesame:read sesame:write", resource_metadata="${ctx.config.issuer}/.well-known/oauth-protected-resource/mcp"`);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the Agent API guide tells an OAuth assistant what DESIGN 15 says: refresh tokens always, rotating, the 90-day bound, and connecting unregistered', async () => {
    const guide: string = (await ctx.app.inject({ url: '/api/agent/instructions' })).json().prompt;
    expect(guide).toContain('It lives 1 hour. A refresh token always comes with it');
    expect(guide).toContain('presenting a replaced one ends the whole connection at once; one unused for 14 days expires');
    expect(guide).toContain('The connection lasts at most 90 days from when the person connected you');
    expect(guide).toContain('the https URL of your client ID metadata document');
    expect(guide).not.toMatch(/then sign in again the same way/);
  });

  it('pages people 50 at a time unless asked otherwise (DESIGN 17: limit 1-200, default 50)', async () => {
    await ctx.services.users.createUser(cliActor, { account: 'lister', displayName: 'Lister', password: PASSWORD, isAdmin: true });
    // Made without a password (a set-password link each), so that sixty people cost no password hashing.
    for (let index = 0; index < 60; index += 1) await ctx.services.users.createUserWithSetPasswordLink(cliActor, { account: `person-${index}`, displayName: `Person ${index}` });
    const everyone = (await ctx.services.users.listUsers(cliActor)).length;
    expect(everyone).toBeGreaterThan(60);
    const admin = createAgentClient(ctx.app);
    await admin.login('lister', PASSWORD);
    const first = await admin.call('GET', '/admin/users');
    expect(first.status).toBe(200);
    expect(first.body.users).toHaveLength(50);
    expect(first.body.nextBefore).toEqual(expect.any(String));
    const rest = await admin.call('GET', `/admin/users?before=${encodeURIComponent(first.body.nextBefore)}`);
    expect(rest.body.users).toHaveLength(everyone - 50);
    expect(rest.body.nextBefore).toBeNull();
    expect((await admin.call('GET', '/admin/users?limit=200')).body.users).toHaveLength(everyone);
  });

  it('searches people case-insensitively beyond ASCII, the same on both engines (DESIGN 17)', async () => {
    const emile = await ctx.services.users.createUserWithSetPasswordLink(cliActor, { account: 'emile', displayName: 'Émile Zola', email: 'emile@example.org' });
    const sokrates = await ctx.services.users.createUserWithSetPasswordLink(cliActor, { account: 'sokrates', displayName: 'Σωκράτης Ж' });
    const admin = createAgentClient(ctx.app);
    await admin.login('lister', PASSWORD);
    const found = async (query: string) => ((await admin.call('GET', `/admin/users?query=${encodeURIComponent(query)}`)).body.users as { subjectId: string }[]).map((user) => user.subjectId);
    for (const query of ['émile', 'ÉMILE', 'Émile zola']) expect(await found(query), query).toEqual([emile.user.subjectId]);
    for (const query of ['ΣΩΚΡΆΤΗΣ', 'σωκράτης', 'ж']) expect(await found(query), query).toEqual([sokrates.user.subjectId]);
  });

  it('keeps a caller\'s X-Request-Id of up to 200 visible ASCII characters, and replaces anything else', async () => {
    const idOf = async (sent: string) => (await ctx.app.inject({ url: '/health/live', headers: { 'x-request-id': sent } })).headers['x-request-id'];
    const longest = `!~${'x'.repeat(196)}"}`;
    expect(longest).toHaveLength(200);
    expect(await idOf(longest)).toBe(longest);
    expect(await idOf('a')).toBe('a');
    for (const invalid of [`${longest}x`, 'caf\u00e9', 'a\u007fb']) expect(await idOf(invalid), invalid).toMatch(/^[0-9a-f-]{36}$/);
  });
});
