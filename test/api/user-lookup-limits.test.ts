import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient } from './helpers/api-clients.ts';
import { createOpenApiChecker } from './helpers/openapi-checker.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

describe('account lookup limits', () => {
  it('default to 60 per session and 120 per address in 15 minutes', () => {
    expect(loadConfig({}).rateLimits.lookup).toEqual({ perSession: 60, perIp: 120, windowSeconds: 900 });
  });
});

describe.each(TEST_ENGINES)('account lookups are limited per session and per address on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { LOOKUP_RATE_PER_SESSION: '3', LOOKUP_RATE_PER_IP: '5' });
    await createAccounts(ctx.services, ['mallory', 'alice', 'bob']);
  });
  afterAll(() => ctx.close());

  it('answers 429 rate_limited with Retry-After past a session\'s limit, found or not; another session has its own count until the address\'s is used up, on both surfaces', async () => {
    const agent = createAgentClient(ctx.app);
    await agent.login('mallory', PASSWORD);
    const checker = createOpenApiChecker((await agent.call('GET', '/openapi.json')).body);
    const first = ['alice', 'nobody', 'bob'];
    const statuses = [];
    for (const account of first) statuses.push((await agent.call('GET', `/users/lookup?account=${account}`)).status);
    expect(statuses).toEqual([200, 404, 200]);
    const refused = await agent.call('GET', '/users/lookup?account=alice');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: 'rate_limited', error_description: expect.stringContaining('lookups') });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(checker.check('GET', '/users/lookup', refused)).toEqual([]);

    // A second session from the same address: its own count, but the address has 2 lookups left.
    const again = createAgentClient(ctx.app);
    await again.login('mallory', PASSWORD);
    expect((await again.call('GET', '/users/lookup?account=bob')).status).toBe(200);
    expect((await again.call('GET', '/users/lookup?account=someone')).status).toBe(404);
    expect((await again.call('GET', '/users/lookup?account=alice')).status).toBe(429);

    const browser = createConsoleClient(ctx.app);
    await browser.login('alice', PASSWORD);
    const fromConsole = await browser.call('GET', '/users/lookup?account=bob');
    expect(fromConsole.status).toBe(429);
    expect(fromConsole.body.error).toBe('rate_limited');
    expect(fromConsole.headers['retry-after']).toBeDefined();

    const metrics = (await ctx.app.inject({ url: '/metrics' })).body;
    expect(metrics).toContain('sesame_rate_limit_refusals_total{operation="user_lookup",limit="session"} 1');
    expect(metrics).toContain('sesame_rate_limit_refusals_total{operation="user_lookup",limit="ip"} 2');
  });
});
