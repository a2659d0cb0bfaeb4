import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

describe.each(TEST_ENGINES)('OIDC_AGENT_API_ENABLED=false on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { OIDC_AGENT_API_ENABLED: 'false' });
    await createAccounts(ctx.services, ['frank']);
  });
  afterAll(() => ctx.close());

  it('answers every /api/agent path with a plain 404 and creates no session', async () => {
    const requests = [
      { method: 'GET' as const, url: '/api/agent/instructions' },
      { method: 'GET' as const, url: '/api/agent/openapi.json' },
      { method: 'POST' as const, url: '/api/agent/auth/login', payload: { account: 'frank', password: PASSWORD } },
      { method: 'GET' as const, url: '/api/agent/projects' },
      { method: 'GET' as const, url: '/api/agent' },
      { method: 'DELETE' as const, url: '/api/agent/projects/prj_x/members/someone' },
    ];
    for (const request of requests) {
      const response = await ctx.app.inject(request);
      expect(response.statusCode, request.url).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
    }
    expect(await ctx.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('keeps the Management API', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/management/openapi.json' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/management/auth/context' })).json()).toMatchObject({ authenticated: false });
  });
});
