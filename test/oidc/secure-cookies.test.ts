import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

describe.each(TEST_ENGINES)('cookies behind a TLS-terminating proxy on %s', (engine) => {
  let ctx: TestContext;
  let clientId: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { OIDC_ISSUER: 'https://id.example.test' });
    const admin = (await ctx.services.users.findByAccount('admin'))!;
    const actor = { subjectId: admin.subjectId, isAdmin: true, surface: 'cli' as const, ip: null };
    const project = await ctx.services.projects.createProject(actor, { name: 'Cookies' });
    const { client } = await ctx.services.clients.registerClient(actor, project.projectId, {
      clientType: 'spa',
      displayName: 'Cookie app',
      redirectUris: ['https://app.example.test/cb'],
      scopeWhitelist: ['openid'],
    });
    clientId = client.clientId;
  });
  afterAll(() => ctx.close());

  it('marks the interaction cookies Secure, HttpOnly and SameSite=Lax for an https issuer', async () => {
    const query = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: 'https://app.example.test/cb',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const response = await ctx.app.inject({ method: 'GET', url: `/auth?${query}`, headers: { 'x-forwarded-proto': 'https', host: 'id.example.test' } });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/^\/interaction\//);
    const cookies = ([] as string[]).concat(response.headers['set-cookie'] ?? []);
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies) {
      expect(cookie.toLowerCase()).toContain('; secure');
      expect(cookie.toLowerCase()).toContain('; httponly');
      expect(cookie.toLowerCase()).toContain('; samesite=lax');
    }
  });
});
