import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient, type AgentClient, type ConsoleClient } from './helpers/api-clients.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

const WRITERS = 20;

/** Through the HTTP surfaces: simultaneous writers holding one version give one success and 409s, never a 500 or a lost update. */
describe.each(TEST_ENGINES)('simultaneous changes through the APIs on %s', (engine) => {
  let ctx: TestContext;
  let agent: AgentClient;
  let browser: ConsoleClient;
  let projectId: string;
  let clientId: string;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    await createAccounts(ctx.services, ['judy']);
    agent = createAgentClient(ctx.app);
    await agent.login('judy', PASSWORD);
    browser = createConsoleClient(ctx.app);
    await browser.login('judy', PASSWORD);
    projectId = (await agent.call('POST', '/projects', { name: 'Busy' })).body.project.projectId;
    clientId = (await agent.call('POST', `/projects/${projectId}/clients`, { clientType: 'spa', displayName: 'App', redirectUris: ['http://localhost/cb'], scopeWhitelist: ['openid'] })).body.client.clientId;
  });
  afterAll(() => ctx.close());

  it(`${WRITERS} revisions with the same clientVersion on both surfaces: one wins, the rest get version_conflict, the winner's configuration is stored`, async () => {
    const { clientVersion } = (await agent.call('GET', `/projects/${projectId}/clients/${clientId}`)).body.client;
    const responses = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) => {
        const body = { clientVersion, redirectUris: [`http://localhost/cb-${i}`], scopeWhitelist: ['openid'] };
        const path = `/projects/${projectId}/clients/${clientId}/revision`;
        return i % 2 === 0 ? agent.call('PUT', path, body) : browser.call('PUT', path, body);
      }),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(WRITERS - 1).fill(409)]);
    expect(responses.filter((r) => r.status === 409).every((r) => r.body.error === 'version_conflict')).toBe(true);
    const winner = responses.find((r) => r.status === 200)!;
    const stored = (await agent.call('GET', `/projects/${projectId}/clients/${clientId}`)).body.client;
    expect(stored.redirectUris).toEqual(winner.body.client.redirectUris);
    expect(stored.clientVersion).toBe(clientVersion + 1);
    expect(stored.revision).toBe(2);
  });

  it(`${WRITERS} renames with the same expectedProjectVersion: one wins`, async () => {
    const { version } = (await agent.call('GET', `/projects/${projectId}`)).body.project;
    const responses = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) => agent.call('PATCH', `/projects/${projectId}`, { expectedProjectVersion: version, name: `Name ${i}` })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array<number>(WRITERS - 1).fill(409)]);
    const winner = responses.find((r) => r.status === 200)!;
    const stored = (await agent.call('GET', `/projects/${projectId}`)).body.project;
    expect(stored).toMatchObject({ name: winner.body.project.name, version: version + 1 });
  });
});
