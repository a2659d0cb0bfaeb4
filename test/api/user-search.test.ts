import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient } from './helpers/api-clients.ts';
import { PASSWORD } from './helpers/users.ts';

/** `GET /admin/users?query=&limit=&before=`: newest first, ties by subjectId, a case-insensitive substring search, an opaque cursor. */
describe.each(TEST_ENGINES)('searching and paging people on %s', (engine) => {
  let ctx: TestContext;
  let agent: ReturnType<typeof createAgentClient>;
  let consoleClient: ReturnType<typeof createConsoleClient>;
  /** subjectIds in the order the listing must give them: newest first, ties by subjectId descending. */
  let expectedOrder: string[];

  const person = async (account: string, displayName: string, email?: string) =>
    (await ctx.services.users.createUser(cliActor, { account, displayName, password: PASSWORD, ...(email ? { email } : {}) })).subjectId;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    const created: { subjectId: string }[] = [];
    const remember = async (subjectId: string) => created.push({ subjectId });
    // After start-up's own administrator, so that the people made here are the newest whatever their ids.
    ctx.clock.advance(1000);
    await remember((await ctx.services.users.createUser(cliActor, { account: 'root', displayName: 'Root', password: PASSWORD, isAdmin: true })).subjectId);
    ctx.clock.advance(1000);
    await remember(await person('ada', 'Ada Lovelace', 'ada@analytical.example'));
    ctx.clock.advance(1000);
    // Three people in one millisecond: their order is by subjectId.
    await remember(await person('grace', 'Grace Hopper', 'grace@navy.example'));
    await remember(await person('alan', 'Alan Turing', 'alan@bletchley.example'));
    await remember(await person('katherine', 'Katherine JOHNSON', 'kj@NASA.example'));
    ctx.clock.advance(1000);
    await remember(await person('edsger', 'Edsger 100%_Dijkstra'));
    ctx.clock.advance(1000);
    await remember(await person('barbara', '刘 芭芭拉', 'barbara@clu.example'));
    // Everyone in the database (start-up's own administrator too), ordered here independently of the query.
    expectedOrder = (await ctx.services.users.listUsers(cliActor))
      .sort((a, b) => b.createdAt - a.createdAt || (a.subjectId < b.subjectId ? 1 : -1))
      .map((user) => user.subjectId);
    expect(expectedOrder.slice(0, created.length).sort()).toEqual(created.map((entry) => entry.subjectId).sort());
    agent = createAgentClient(ctx.app);
    await agent.login('root', PASSWORD);
    consoleClient = createConsoleClient(ctx.app);
    await consoleClient.login('root', PASSWORD);
  });
  afterAll(() => ctx.close());

  const accounts = (body: any) => (body.users as { account: string }[]).map((user) => user.account);

  it('lists everyone newest first, ties by subjectId, with a null cursor on the only page', async () => {
    for (const caller of [agent, consoleClient]) {
      const listed = await caller.call('GET', '/admin/users');
      expect(listed.status).toBe(200);
      expect(listed.body.users.map((user: any) => user.subjectId)).toEqual(expectedOrder);
      expect(listed.body.nextBefore).toBeNull();
    }
  });

  it('pages with an opaque cursor: every person exactly once, in order, the last page says null', async () => {
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const path: string = `/admin/users?limit=2${before ? `&before=${encodeURIComponent(before)}` : ''}`;
      const page = await agent.call('GET', path);
      expect(page.status).toBe(200);
      expect(page.body.users.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.users.map((user: any) => user.subjectId));
      before = page.body.nextBefore;
      if (before !== null) {
        expect(before).toMatch(/^[0-9A-Za-z_-]+$/);
        expect(before).not.toContain(page.body.users.at(-1).subjectId);
      }
      pages += 1;
    } while (before !== null && pages < 10);
    expect(seen).toEqual(expectedOrder);
    expect(pages).toBe(Math.ceil(expectedOrder.length / 2));
    // A page that ends exactly at the last person says so.
    const exact = await agent.call('GET', `/admin/users?limit=${expectedOrder.length}`);
    expect(exact.body.nextBefore).toBeNull();
    const short = await agent.call('GET', `/admin/users?limit=${expectedOrder.length - 1}`);
    expect(short.body.nextBefore).not.toBeNull();
  });

  it('a person added meanwhile does not shift the pages already cursored', async () => {
    const first = await agent.call('GET', '/admin/users?limit=3');
    ctx.clock.advance(1000);
    const newcomer = await person('newcomer', 'New Comer');
    const second = await agent.call('GET', `/admin/users?limit=3&before=${first.body.nextBefore}`);
    expect(second.body.users.map((user: any) => user.subjectId)).toEqual(expectedOrder.slice(3, 6));
    const fresh = await agent.call('GET', '/admin/users?limit=1');
    expect(fresh.body.users[0].subjectId).toBe(newcomer);
    await ctx.services.users.updateUser(cliActor, newcomer, { status: 'disabled' });
  });

  it('matches account, display name or email, case-insensitively, anywhere in the text', async () => {
    expect(accounts((await agent.call('GET', '/admin/users?query=LOVE')).body)).toEqual(['ada']);
    expect(accounts((await agent.call('GET', '/admin/users?query=nasa')).body)).toEqual(['katherine']);
    expect(accounts((await agent.call('GET', '/admin/users?query=johnson')).body)).toEqual(['katherine']);
    expect(accounts((await agent.call('GET', '/admin/users?query=EDSG')).body)).toEqual(['edsger']);
    expect(accounts((await agent.call('GET', `/admin/users?query=${encodeURIComponent('芭芭')}`)).body)).toEqual(['barbara']);
    // "a" is in several accounts, names and addresses: newest first still.
    const many = (await consoleClient.call('GET', '/admin/users?query=.EXAMPLE')).body;
    const withAddress = new Set(['barbara', 'katherine', 'grace', 'alan', 'ada']);
    const all = (await agent.call('GET', '/admin/users')).body;
    expect(accounts(many)).toEqual(accounts(all).filter((account) => withAddress.has(account)));
    expect((await agent.call('GET', '/admin/users?query=nobody-has-this')).body).toEqual({ users: [], nextBefore: null });
  });

  it('takes % and _ in a query literally', async () => {
    expect(accounts((await agent.call('GET', `/admin/users?query=${encodeURIComponent('100%_')}`)).body)).toEqual(['edsger']);
    expect(accounts((await agent.call('GET', `/admin/users?query=${encodeURIComponent('%')}`)).body)).toEqual(['edsger']);
    expect(accounts((await agent.call('GET', '/admin/users?query=_')).body)).toEqual(['edsger']);
  });

  it('pages a search with the same query', async () => {
    const first = await agent.call('GET', '/admin/users?query=example&limit=3');
    expect(first.body.users).toHaveLength(3);
    expect(first.body.nextBefore).not.toBeNull();
    const second = await agent.call('GET', `/admin/users?query=example&limit=3&before=${first.body.nextBefore}`);
    expect(second.body.users).toHaveLength(2);
    expect(second.body.nextBefore).toBeNull();
    const all = [...accounts(first.body), ...accounts(second.body)];
    expect(new Set(all).size).toBe(5);
  });

  it('refuses a limit outside 1-200 and a cursor it did not make, with 400 and the field', async () => {
    for (const limit of ['0', '201', '-1', '1.5', 'abc', '', ' 5', '1e2']) {
      const refused = await agent.call('GET', `/admin/users?limit=${encodeURIComponent(limit)}`);
      expect(refused.status, `limit=${limit}`).toBe(400);
      expect(refused.body.error).toBe('invalid_request');
      expect(Object.keys(refused.body.field_errors)).toEqual(['limit']);
    }
    expect((await agent.call('GET', '/admin/users?limit=200')).status).toBe(200);
    expect((await agent.call('GET', '/admin/users?limit=1')).body.users).toHaveLength(1);
    for (const before of ['not-a-cursor!', Buffer.from('garbage').toString('base64url'), '']) {
      const refused = await consoleClient.call('GET', `/admin/users?before=${encodeURIComponent(before)}`);
      expect(refused.status, `before=${before}`).toBe(400);
      expect(Object.keys(refused.body.field_errors)).toEqual(['before']);
    }
  });

  it('is for administrators only', async () => {
    const ada = createAgentClient(ctx.app);
    await ada.login('ada', PASSWORD);
    expect((await ada.call('GET', '/admin/users?query=a')).status).toBe(403);
  });
});
