import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';

describe.each(TEST_ENGINES)('a client secret\'s lastUsedAt on %s', (engine) => {
  let ctx: TestContext;
  let projectId: string;
  let clientId: string;
  let secret: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    const admin = (await ctx.services.users.findByAccount('admin'))!;
    const actor = { subjectId: admin.subjectId, isAdmin: true, surface: 'cli' as const, ip: null };
    projectId = (await ctx.services.projects.createProject(actor, { name: 'Last use' })).projectId;
    const registered = await ctx.services.clients.registerClient(actor, projectId, {
      clientType: 'web',
      displayName: 'Last use app',
      redirectUris: ['https://app.example.com/cb'],
      scopeWhitelist: ['openid'],
    });
    clientId = registered.client.clientId;
    secret = registered.secret!.value;
  });
  afterAll(() => ctx.close());

  const authenticate = async (presented: string) => {
    const client = await ctx.app.oidc.current().Client.find(clientId);
    return (client as unknown as { compareClientSecret(value: string): Promise<boolean> }).compareClientSecret(presented);
  };
  const lastUsedAt = async () => (await ctx.services.clients.getClient(systemActor, projectId, clientId)).secrets[0]!.lastUsedAt;

  it('is set by a successful authentication, to the minute, and not by a failed one', async () => {
    expect(await lastUsedAt()).toBeNull();
    expect(await authenticate('not the secret')).toBe(false);
    expect(await lastUsedAt()).toBeNull();

    const firstUse = ctx.clock.now();
    expect(await authenticate(secret)).toBe(true);
    expect(await lastUsedAt()).toBe(firstUse);

    ctx.clock.advance(59_000);
    expect(await authenticate(secret)).toBe(true);
    expect(await lastUsedAt()).toBe(firstUse);

    ctx.clock.advance(1_000);
    expect(await authenticate(secret)).toBe(true);
    expect(await lastUsedAt()).toBe(firstUse + 60_000);
  });
});
