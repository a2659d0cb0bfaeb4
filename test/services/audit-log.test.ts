import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createCast, createCastProject, expectRefusedUnchanged, webClientInput, type Cast } from './fixtures.ts';
import type { Project } from '../../src/services/shared/types.ts';

describe.each(TEST_ENGINES)('audit log listing on %s', (engine) => {
  let ctx: TestContext;
  let cast: Cast;
  let project: Project;
  let secretValue: string;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    cast = await createCast(ctx);
    project = await createCastProject(ctx, cast, 'Audited');
    ctx.clock.advance(1000);
    const { client, secret } = await ctx.services.clients.registerClient(cast.maintainer, project.projectId, webClientInput);
    ctx.clock.advance(1000);
    const rotated = await ctx.services.clients.rotateClientSecret(cast.maintainer, project.projectId, client.clientId, { clientVersion: 1 });
    secretValue = `${secret!.value} ${rotated.secret.value}`;
    ctx.clock.advance(1000);
    await ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: project.version, description: 'audited' });
  });
  afterAll(() => ctx.close());

  it('lists a project\'s entries newest first to any member, viewer included', async () => {
    const entries = await ctx.services.audit.listAuditLogs(cast.viewer, project.projectId);
    expect(entries.slice(0, 3).map((e) => e.action)).toEqual(['project.update', 'client.secret_rotate', 'client.create']);
    // The project and its first members were written at the same instant of the test clock.
    expect(entries.slice(3).map((e) => e.action).sort()).toEqual(['member.add', 'member.add', 'project.create']);
    expect(entries[0]).toMatchObject({
      actorSubjectId: cast.owner.subjectId,
      surface: 'agent',
      targetType: 'project',
      targetId: project.projectId,
      before: { description: '' },
      after: { description: 'audited' },
      // A viewer reads what was done and by whom, but not from where.
      ip: null,
    });
    for (const entry of entries.slice(1)) expect(entry.at).toBeLessThanOrEqual(entries[entries.indexOf(entry) - 1]!.at);
    const text = JSON.stringify(entries);
    for (const value of secretValue.split(' ')) expect(text).not.toContain(value);
  });

  it('shows the addresses people acted from to the project\'s owner and administrators only', async () => {
    const addressesSeenBy = async (role: 'owner' | 'admin' | 'maintainer' | 'viewer') =>
      (await ctx.services.audit.listAuditLogs(cast[role], project.projectId, { limit: 200 })).map((entry) => entry.ip);
    const withAddresses = await addressesSeenBy('owner');
    expect(withAddresses).toContain('192.0.2.7');
    expect(await addressesSeenBy('admin')).toEqual(withAddresses);
    for (const role of ['maintainer', 'viewer'] as const) expect(await addressesSeenBy(role)).toEqual(withAddresses.map(() => null));
    const paged = await ctx.services.audit.listAuditLogs(cast.viewer, project.projectId, { before: { auditId: (await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { limit: 1 }))[0]!.auditId } });
    expect(paged.length).toBeGreaterThan(0);
    expect(paged.every((entry) => entry.ip === null)).toBe(true);
  });

  it('pages with limit and before', async () => {
    const all = await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { limit: 200 });
    const first = await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { limit: 2 });
    expect(first).toEqual(all.slice(0, 2));
    const older = await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { before: { at: first[1]!.at } });
    expect(older.map((e) => e.auditId)).toEqual(all.filter((e) => e.at < first[1]!.at).map((e) => e.auditId));
    expect(older[0]!.action).toBe('client.create');
  });

  it('pages by auditId through entries written in the same millisecond without skipping or repeating one', async () => {
    const all = await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { limit: 200 });
    // The project and its first members share one instant of the test clock: a time cursor would skip some.
    expect(new Set(all.slice(-3).map((e) => e.at)).size).toBe(1);
    const paged: string[] = [];
    let before: { auditId: string } | undefined;
    for (;;) {
      const page = await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { limit: 1, before });
      if (page.length === 0) break;
      paged.push(page[0]!.auditId);
      before = { auditId: page[0]!.auditId };
    }
    expect(paged).toEqual(all.map((e) => e.auditId));
    await expect(ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { before: { auditId: 'aud_0_unknown' } })).rejects.toMatchObject({
      code: 'invalid_request',
      fieldErrors: { before: expect.any(String) },
    });
  });

  it('names each actor\'s account', async () => {
    const entries = await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { limit: 200 });
    const accounts = new Map<string, string>();
    for (const actor of [cast.owner, cast.maintainer]) accounts.set(actor.subjectId!, (await ctx.services.users.getUser(actor.subjectId!))!.account);
    expect(entries.map((e) => [e.action, e.actorAccount])).toContainEqual(['client.create', accounts.get(cast.maintainer.subjectId!)]);
    for (const entry of entries) expect(entry.actorAccount).toBe(accounts.get(entry.actorSubjectId!) ?? null);
  });

  it('hides the trail from non-members and refuses bad paging values', async () => {
    await expectRefusedUnchanged(ctx, 'not_found', () => ctx.services.audit.listAuditLogs(cast.outsider, project.projectId));
    expect((await ctx.services.audit.listAuditLogs(cast.admin, project.projectId)).length).toBeGreaterThan(0);
    await expect(ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { limit: 0 })).rejects.toMatchObject({ code: 'invalid_request', fieldErrors: { limit: expect.any(String) } });
    await expect(ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { limit: 201 })).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { before: { at: Number.NaN } })).rejects.toMatchObject({ fieldErrors: { before: expect.any(String) } });
  });

  it('keeps other projects\' entries out', async () => {
    const other = await ctx.services.projects.createProject(cast.outsider, { name: 'Other' });
    const entries = await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, { limit: 200 });
    expect(entries.some((e) => e.targetId === other.projectId)).toBe(false);
  });
});
