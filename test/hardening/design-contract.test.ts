import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

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

  it('keeps a caller\'s X-Request-Id of up to 200 visible ASCII characters, and replaces anything else', async () => {
    const idOf = async (sent: string) => (await ctx.app.inject({ url: '/health/live', headers: { 'x-request-id': sent } })).headers['x-request-id'];
    const longest = `!~${'x'.repeat(196)}"}`;
    expect(longest).toHaveLength(200);
    expect(await idOf(longest)).toBe(longest);
    expect(await idOf('a')).toBe('a');
    for (const invalid of [`${longest}x`, 'caf\u00e9', 'a\u007fb']) expect(await idOf(invalid), invalid).toMatch(/^[0-9a-f-]{36}$/);
  });
});
