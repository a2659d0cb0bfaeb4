import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient } from './helpers/api-clients.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

describe.each(TEST_ENGINES)('my language (PUT /account/locale) on %s', (engine) => {
  let ctx: TestContext;
  let people: Awaited<ReturnType<typeof createAccounts<'lin' | 'mei' | 'root'>>>;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    people = await createAccounts(ctx.services, ['lin', 'mei', 'root'], ['root']);
  });
  afterAll(async () => ctx?.close());

  it('saves, audits and clears the language through the Agent API, and refuses a language Sesame does not speak', async () => {
    const agent = createAgentClient(ctx.app);
    await agent.login('lin', PASSWORD);
    const saved = await agent.call('PUT', '/account/locale', { locale: 'zh-CN' });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ locale: 'zh-CN' });
    expect((await ctx.services.users.getUser(people.lin.subjectId))?.locale).toBe('zh-CN');

    const refused = await agent.call('PUT', '/account/locale', { locale: 'fr' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_request');
    expect(refused.body.field_errors.locale).toMatch(/en.*zh-CN/);
    expect((await agent.call('PUT', '/account/locale', {})).status).toBe(400);
    expect((await ctx.services.users.getUser(people.lin.subjectId))?.locale).toBe('zh-CN');

    const cleared = await agent.call('PUT', '/account/locale', { locale: null });
    expect(cleared.body).toEqual({ locale: null });
    expect((await ctx.services.users.getUser(people.lin.subjectId))?.locale).toBeNull();

    const audit = await ctx.services.audit.listAdminAuditLogs({ ...cliActor, isAdmin: true });
    const changes = audit.filter((entry) => entry.action === 'account.locale_change' && entry.targetId === people.lin.subjectId);
    expect(changes.map((entry) => [entry.before, entry.after])).toEqual([
      [{ locale: 'zh-CN' }, { locale: null }],
      [{ locale: null }, { locale: 'zh-CN' }],
    ]);
  });

  it('saves the language from the console, which reads it back in GET /auth/context (null while none is saved)', async () => {
    const browser = createConsoleClient(ctx.app);
    expect((await browser.context()).body.locale).toBeUndefined();
    await browser.login('mei', PASSWORD);
    expect((await browser.context()).body.locale).toBeNull();

    const saved = await browser.call('PUT', '/account/locale', { locale: 'zh-CN' });
    expect(saved.status).toBe(200);
    const context = await browser.context();
    expect(context.body.authenticated).toBe(true);
    expect(context.body.locale).toBe('zh-CN');
  });
});
