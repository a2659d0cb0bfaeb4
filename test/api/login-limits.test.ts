import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient } from './helpers/api-clients.ts';
import { createOpenApiChecker } from './helpers/openapi-checker.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

describe.each(TEST_ENGINES)('password login limits on both APIs on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext(engine, { SIGNIN_MAX_FAILURES_PER_ACCOUNT_IP: '3' });
    await createAccounts(ctx.services, ['heidi', 'ivan']);
  });
  afterAll(() => ctx.close());

  it('counts failures only: correct logins are never refused', async () => {
    const agent = createAgentClient(ctx.app);
    for (let i = 0; i < 6; i++) expect((await agent.call('POST', '/auth/login', { account: 'ivan', password: PASSWORD })).status).toBe(200);
  });

  it('answers 429 rate_limited with Retry-After once an account has failed too often from one address, on either surface', async () => {
    const agent = createAgentClient(ctx.app);
    const checker = createOpenApiChecker((await agent.call('GET', '/openapi.json')).body);
    for (let i = 0; i < 2; i++) expect((await agent.call('POST', '/auth/login', { account: 'heidi', password: 'wrong password' })).status).toBe(401);
    const browser = createConsoleClient(ctx.app);
    await browser.context();
    expect((await browser.call('POST', '/auth/login', { account: 'heidi', password: 'wrong password' })).status).toBe(401);
    const limited = await agent.call('POST', '/auth/login', { account: 'heidi', password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(checker.check('POST', '/auth/login', limited)).toEqual([]);
    expect((await browser.call('POST', '/auth/login', { account: 'heidi', password: PASSWORD })).status).toBe(429);
    const sessions = await ctx.db.selectFrom('sessions').innerJoin('users', 'users.subject_id', 'sessions.subject_id').where('users.account', '=', 'heidi').selectAll().execute();
    expect(sessions).toEqual([]);
  });
});
