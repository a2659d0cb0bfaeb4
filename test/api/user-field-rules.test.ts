import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { snapshotDatabase } from './helpers/db-snapshot.ts';
import { createAgentClient, createConsoleClient } from './helpers/api-clients.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

/** A person's fields are judged once, by the contract, in the rules' own words, on both surfaces, every problem at once. */
describe.each(TEST_ENGINES)('user field rules on %s', (engine) => {
  let ctx: TestContext;
  let agent: ReturnType<typeof createAgentClient>;
  let consoleClient: ReturnType<typeof createConsoleClient>;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await createAccounts(ctx.services, ['root'], ['root']);
    agent = createAgentClient(ctx.app);
    await agent.login('root', PASSWORD);
    consoleClient = createConsoleClient(ctx.app);
    await consoleClient.login('root', PASSWORD);
  });
  afterAll(() => ctx.close());

  it('reports a bad account name, display name, email and password together, and writes nothing', async () => {
    for (const caller of [agent, consoleClient]) {
      const before = await snapshotDatabase(ctx.db);
      const response = await caller.call('POST', '/admin/users', { account: 'no spaces', displayName: ' ', email: 'not-an-address', password: 'short' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        error: 'invalid_request',
        field_errors: {
          account: 'must be 1-128 characters: letters, digits and . _ @ + -, starting with a letter or digit',
          displayName: 'must be 1-200 characters',
          email: 'must be an email address',
          password: expect.stringMatching(/^must be at least \d+ characters$/) as string,
        },
      });
      expect(await snapshotDatabase(ctx.db)).toEqual(before);
    }
  });

  it('judges a change and a new password by the same rules', async () => {
    const created = await agent.call('POST', '/admin/users', { account: 'carol', displayName: 'Carol', password: PASSWORD });
    expect(created.status).toBe(201);
    const subjectId = created.body.user.subjectId as string;
    const changed = await consoleClient.call('PATCH', `/admin/users/${subjectId}`, { displayName: 'x'.repeat(201), email: 'carol@' });
    expect(changed.status).toBe(400);
    expect(changed.body.field_errors).toEqual({ displayName: 'must be 1-200 characters', email: 'must be an email address' });
    const password = await agent.call('POST', `/admin/users/${subjectId}/password`, { password: 'short' });
    expect(password.status).toBe(400);
    expect(Object.keys(password.body.field_errors)).toEqual(['password']);
  });
});
