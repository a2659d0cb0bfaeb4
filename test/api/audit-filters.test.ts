import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createAgentClient, createConsoleClient } from './helpers/api-clients.ts';
import { createAccounts, PASSWORD } from './helpers/users.ts';

/** Both audit trails name people and targets as they are called now, and narrow to one action or one person. */
describe.each(TEST_ENGINES)('audit trail names and filters on %s', (engine) => {
  let ctx: TestContext;
  let root: ReturnType<typeof createAgentClient>;
  let ada: ReturnType<typeof createConsoleClient>;
  let people: Awaited<ReturnType<typeof createAccounts<'root' | 'ada' | 'bob'>>>;
  let projectId: string;

  beforeAll(async () => {
    ctx = await createTestContext(engine);
    people = await createAccounts(ctx.services, ['root', 'ada', 'bob'] as const, ['root']);
    root = createAgentClient(ctx.app);
    await root.login('root', PASSWORD);
    ada = createConsoleClient(ctx.app);
    await ada.login('ada', PASSWORD);
    const project = await ada.call('POST', '/projects', { name: 'Library' });
    projectId = project.body.project.projectId;
    const added = await ada.call('POST', `/projects/${projectId}/members`, { subjectId: people.bob.subjectId, expectedProjectVersion: project.body.project.version });
    expect(added.status).toBe(201);
    await ada.call('POST', `/projects/${projectId}/clients`, { clientType: 'spa', displayName: 'Catalogue', redirectUris: ['https://library.example/cb'], scopeWhitelist: ['openid'] });
    expect((await root.call('PATCH', `/admin/users/${people.bob.subjectId}`, { displayName: 'Bob Binder' })).status).toBe(200);
  });
  afterAll(() => ctx.close());

  it('names the actor and the target on a project trail, and filters it by action and by person', async () => {
    const all = await ada.call('GET', `/projects/${projectId}/audit-logs`);
    expect(all.status).toBe(200);
    const memberAdd = all.body.auditLogs.find((entry: any) => entry.action === 'member.add');
    expect(memberAdd).toMatchObject({ actorAccount: 'ada', actorDisplayName: 'Ada', targetType: 'member', targetId: people.bob.subjectId, targetName: 'Bob Binder' });
    const clientCreate = all.body.auditLogs.find((entry: any) => entry.action === 'client.create');
    expect(clientCreate.targetName).toBe('Catalogue');

    const byAction = await ada.call('GET', `/projects/${projectId}/audit-logs?action=client.create`);
    expect(byAction.body.auditLogs.map((entry: any) => entry.action)).toEqual(['client.create']);
    const byPerson = await ada.call('GET', `/projects/${projectId}/audit-logs?actorSubjectId=${people.ada.subjectId}`);
    expect(byPerson.body.auditLogs.length).toBe(all.body.auditLogs.filter((entry: any) => entry.actorSubjectId === people.ada.subjectId).length);
    expect(byPerson.body.auditLogs.length).toBeGreaterThanOrEqual(3);
    const nobody = await ada.call('GET', `/projects/${projectId}/audit-logs?actorSubjectId=${people.bob.subjectId}`);
    expect(nobody.body.auditLogs).toEqual([]);
  });

  it('filters the administrators\' trail the same way and pages a filtered trail by auditId', async () => {
    const updates = await root.call('GET', '/admin/audit-logs?action=user.update');
    expect(updates.status).toBe(200);
    expect(updates.body.auditLogs).toHaveLength(1);
    expect(updates.body.auditLogs[0]).toMatchObject({ actorAccount: 'root', actorDisplayName: 'Root', targetName: 'Bob Binder', after: { displayName: 'Bob Binder' } });
    const logins = await root.call('GET', `/admin/audit-logs?action=session.login&actorSubjectId=${people.ada.subjectId}&limit=1`);
    expect(logins.body.auditLogs).toHaveLength(1);
    expect(logins.body.auditLogs[0]).toMatchObject({ action: 'session.login', actorSubjectId: people.ada.subjectId });
    const older = await root.call('GET', `/admin/audit-logs?action=session.login&actorSubjectId=${people.ada.subjectId}&before=${logins.body.auditLogs[0].auditId}`);
    expect(older.status).toBe(200);
    expect(older.body.auditLogs).toEqual([]);
  });

  it('refuses a malformed action filter with 400 and the field', async () => {
    for (const action of ['', 'DROP TABLE', 'x'.repeat(101)]) {
      const refused = await root.call('GET', `/admin/audit-logs?action=${encodeURIComponent(action)}`);
      expect(refused.status, `action=${action}`).toBe(400);
      expect(Object.keys(refused.body.field_errors)).toEqual(['action']);
    }
  });
});
