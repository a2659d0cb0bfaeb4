import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient, type AgentClient, type ConsoleClient } from './helpers/api-clients.ts';
import { snapshotDatabase } from './helpers/db-snapshot.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

/**
 * Issue 23's blind REST run: where the product and its guide disagreed, they now say the same
 * (projects report every problem at once, control characters are named, an archived project's
 * capabilities, the audit page size's pattern).
 */
describe.each(TEST_ENGINES)('the REST contract and its guide agree, on %s', (engine) => {
  let ctx: TestContext;
  let owner: AgentClient;
  let ownerConsole: ConsoleClient;
  let people: Awaited<ReturnType<typeof createAccounts<'olga' | 'mark' | 'vera' | 'boss'>>>;

  const signedIn = async (account: string) => {
    const agent = createAgentClient(ctx.app);
    await agent.login(account, PASSWORD);
    return agent;
  };

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    people = await createAccounts(ctx.services, ['olga', 'mark', 'vera', 'boss'], ['boss']);
    owner = await signedIn('olga');
    ownerConsole = createConsoleClient(ctx.app);
    await ownerConsole.login('olga', PASSWORD);
  });
  afterAll(() => ctx.close());

  it('reports every problem of a project creation or change in one answer, on both surfaces, and writes nothing', async () => {
    const before = await snapshotDatabase(ctx.db);
    const body = { name: ' ', description: 'hidden\u202etext', colour: 'red' };
    for (const client of [owner, ownerConsole]) {
      const refused = await client.call('POST', '/projects', body);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        error: 'invalid_request',
        field_errors: { name: 'must not be empty', description: 'must not contain bidirectional control characters (found U+202E)', colour: 'is not a known field; remove it' },
      });
    }
    expect(await snapshotDatabase(ctx.db)).toEqual(before);

    const { project } = (await owner.call('POST', '/projects', { name: 'Checked' })).body;
    const changed = await owner.call('PATCH', `/projects/${project.projectId}`, { expectedProjectVersion: project.version, name: 'two\nlines', description: 'bell\u0007', status: 'closed' });
    expect(changed.status).toBe(400);
    expect(changed.body.field_errors).toEqual({ name: 'must be a single line', description: 'must not contain control characters (found U+0007)', status: expect.any(String) });
    expect((await owner.call('GET', `/projects/${project.projectId}`)).body.project).toEqual(project);
  });

  it('names the control character in a name, as invalid_request for a project and invalid_client_metadata for a client (client metadata)', async () => {
    const project = await owner.call('POST', '/projects', { name: 'tab\u0001name' });
    expect(project.body).toMatchObject({ error: 'invalid_request', field_errors: { name: 'must not contain control characters (found U+0001)' } });
    const { projectId } = (await owner.call('POST', '/projects', { name: 'Clients' })).body.project;
    const client = await owner.call('POST', `/projects/${projectId}/clients`, { clientType: 'web', displayName: 'Portal\u001b', redirectUris: ['https://portal.example.com/cb'], scopeWhitelist: ['openid'] });
    expect(client.body).toMatchObject({ error: 'invalid_client_metadata', field_errors: { displayName: 'must not contain control characters (found U+001B)' } });
    // The guide says the same.
    const { prompt } = (await createAgentClient(ctx.app).call('GET', '/instructions')).body;
    expect(prompt).toContain('`400 invalid_request` (a project) or `400 invalid_client_metadata` (a client) names the field and the character');
  });

  it('shows an archived project\'s capabilities as read and, for whoever may un-archive it, manage_project', async () => {
    let { project } = (await owner.call('POST', '/projects', { name: 'To archive' })).body;
    for (const [member, role] of [['mark', 'maintainer'], ['vera', 'viewer']] as const) {
      project = (await owner.call('POST', `/projects/${project.projectId}/members`, { subjectId: people[member].subjectId, role, expectedProjectVersion: project.version })).body.project;
    }
    expect(project.capabilities).toEqual(['read', 'write_clients', 'manage_members', 'manage_project']);
    const archived = (await owner.call('PATCH', `/projects/${project.projectId}`, { status: 'archived', expectedProjectVersion: project.version })).body.project;
    expect(archived.capabilities).toEqual(['read', 'manage_project']);

    const seenBy = async (account: string) => {
      const agent = await signedIn(account);
      const detail = (await agent.call('GET', `/projects/${project.projectId}`)).body.project.capabilities;
      const listed = ((await agent.call('GET', '/projects')).body.projects as Array<{ projectId: string; capabilities: string[] }>).find((candidate) => candidate.projectId === project.projectId)!.capabilities;
      expect(listed, account).toEqual(detail);
      return detail;
    };
    expect(await seenBy('olga')).toEqual(['read', 'manage_project']);
    expect(await seenBy('mark')).toEqual(['read']);
    expect(await seenBy('vera')).toEqual(['read']);
    expect(await seenBy('boss')).toEqual(['read', 'manage_project']);

    // What the capabilities promise holds: the maintainer's write is refused as archived, the owner may un-archive.
    const write = await (await signedIn('mark')).call('POST', `/projects/${project.projectId}/clients`, { clientType: 'spa', displayName: 'Late', redirectUris: ['https://late.example.com/cb'], scopeWhitelist: ['openid'] });
    expect(write.body.error).toBe('project_archived');
    const active = (await owner.call('PATCH', `/projects/${project.projectId}`, { status: 'active', expectedProjectVersion: archived.version })).body.project;
    expect(active.capabilities).toEqual(['read', 'write_clients', 'manage_members', 'manage_project']);
  });

  it('documents the audit page size 1-200 with a pattern that allows exactly that, and refuses anything else', async () => {
    const document = (await createAgentClient(ctx.app).call('GET', '/openapi.json')).body;
    const parameter = document.paths['/projects/{projectId}/audit-logs'].get.parameters.find((candidate: { name: string }) => candidate.name === 'limit');
    expect(parameter.description ?? parameter.schema.description).toContain('1-200');
    const pattern = new RegExp(parameter.schema.pattern);
    for (const value of ['1', '9', '10', '99', '100', '199', '200']) expect(pattern.test(value), value).toBe(true);
    for (const value of ['0', '01', '201', '999', '999999', '1e2', ' 5', '-1', '']) expect(pattern.test(value), value).toBe(false);

    const { projectId } = (await owner.call('POST', '/projects', { name: 'Trail' })).body.project;
    expect((await owner.call('GET', `/projects/${projectId}/audit-logs?limit=200`)).status).toBe(200);
    for (const value of ['201', '999999', '0']) {
      expect(await owner.call('GET', `/projects/${projectId}/audit-logs?limit=${value}`), value).toMatchObject({ status: 400, body: { field_errors: { limit: 'must be a whole number from 1 to 200' } } });
    }
  });
});
