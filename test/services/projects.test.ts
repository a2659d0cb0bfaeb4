import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createCast, createCastProject, expectRefusedUnchanged, type Cast } from './fixtures.ts';

describe.each(TEST_ENGINES)('project service on %s', (engine) => {
  let ctx: TestContext;
  let cast: Cast;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    cast = await createCast(ctx);
  });
  afterAll(() => ctx.close());

  it('creates a project with the caller as owner, version 1, and an audit entry', async () => {
    const project = await ctx.services.projects.createProject(cast.outsider, { name: '  Billing  ', description: 'Invoices' });
    expect(project).toMatchObject({ name: 'Billing', description: 'Invoices', status: 'active', version: 1, role: 'owner' });
    expect(project.capabilities).toEqual(['read', 'write_clients', 'manage_members', 'manage_project']);
    const members = await ctx.db.selectFrom('project_members').selectAll().where('project_id', '=', project.projectId).execute();
    expect(members).toEqual([expect.objectContaining({ subject_id: cast.outsider.subjectId, role: 'owner' })]);
    const audit = await ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', project.projectId).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'project.create', actor_subject_id: cast.outsider.subjectId, surface: 'agent', ip: '192.0.2.7', project_id: project.projectId });
    expect(JSON.parse(audit[0]!.after_json!)).toMatchObject({ name: 'Billing', owner: cast.outsider.subjectId });
  });

  it('refuses an invalid name with field errors and writes nothing', async () => {
    await expectRefusedUnchanged(ctx, 'invalid_request', () => ctx.services.projects.createProject(cast.owner, { name: '   ' }));
    await expectRefusedUnchanged(ctx, 'invalid_request', () => ctx.services.projects.createProject(cast.owner, { name: 'x'.repeat(201) }));
    await expect(ctx.services.projects.createProject(cast.owner, { name: 'a\nb' })).rejects.toMatchObject({ fieldErrors: { name: 'must be a single line' } });
  });

  it('shows a project to members and admins only; everyone else gets the same 404 as for a missing project', async () => {
    const project = await createCastProject(ctx, cast, 'Visible');
    for (const role of ['owner', 'maintainer', 'viewer'] as const) {
      const seen = await ctx.services.projects.getProject(cast[role], project.projectId);
      expect(seen.role).toBe(role);
    }
    const asAdmin = await ctx.services.projects.getProject(cast.admin, project.projectId);
    expect(asAdmin).toMatchObject({ role: null, capabilities: ['read', 'write_clients', 'manage_members', 'manage_project'] });
    expect((await ctx.services.projects.getProject(cast.viewer, project.projectId)).capabilities).toEqual(['read']);

    const hidden = ctx.services.projects.getProject(cast.outsider, project.projectId).catch((e: unknown) => e);
    const missing = ctx.services.projects.getProject(cast.outsider, 'prj_doesnotexist').catch((e: unknown) => e);
    const [hiddenError, missingError] = (await Promise.all([hidden, missing])) as [{ code: string; message: string }, { code: string; message: string }];
    expect(hiddenError.code).toBe('not_found');
    expect(missingError.code).toBe('not_found');
    expect(hiddenError.message.replace(project.projectId, 'ID')).toBe(missingError.message.replace('prj_doesnotexist', 'ID'));

    const outsiderList = await ctx.services.projects.listProjects(cast.outsider);
    expect(outsiderList.map((p) => p.projectId)).not.toContain(project.projectId);
    const viewerList = await ctx.services.projects.listProjects(cast.viewer);
    expect(viewerList.map((p) => p.projectId)).toContain(project.projectId);
    const adminList = await ctx.services.projects.listProjects(cast.admin);
    expect(adminList.map((p) => p.projectId)).toEqual(expect.arrayContaining([project.projectId, ...outsiderList.map((p) => p.projectId)]));
  });

  it('lets only the owner and admins edit, with the version bumped and the change audited', async () => {
    const project = await createCastProject(ctx, cast, 'Editable');
    await expectRefusedUnchanged(ctx, 'forbidden', () =>
      ctx.services.projects.updateProject(cast.maintainer, project.projectId, { expectedProjectVersion: project.version, name: 'By maintainer' }),
    );
    await expectRefusedUnchanged(ctx, 'forbidden', () =>
      ctx.services.projects.updateProject(cast.viewer, project.projectId, { expectedProjectVersion: project.version, name: 'By viewer' }),
    );
    await expectRefusedUnchanged(ctx, 'not_found', () =>
      ctx.services.projects.updateProject(cast.outsider, project.projectId, { expectedProjectVersion: project.version, name: 'By outsider' }),
    );

    const edited = await ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: project.version, name: 'Renamed', description: 'New text' });
    expect(edited).toMatchObject({ name: 'Renamed', description: 'New text', version: project.version + 1, role: 'owner' });
    const byAdmin = await ctx.services.projects.updateProject(cast.admin, project.projectId, { expectedProjectVersion: edited.version, description: 'Admin text' });
    expect(byAdmin).toMatchObject({ description: 'Admin text', version: edited.version + 1, role: null });

    const audit = await ctx.services.audit.listAuditLogs(cast.viewer, project.projectId, {});
    const update = audit.find((a) => a.action === 'project.update' && a.actorSubjectId === cast.owner.subjectId);
    expect(update).toMatchObject({ before: { name: 'Editable', description: '' }, after: { name: 'Renamed', description: 'New text' } });
  });

  it('refuses a stale version with 409 version_conflict and validates before writing', async () => {
    const project = await createCastProject(ctx, cast, 'Versioned');
    await expectRefusedUnchanged(ctx, 'version_conflict', () =>
      ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: project.version - 1, name: 'Stale' }),
    );
    await expectRefusedUnchanged(ctx, 'invalid_request', () =>
      ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: project.version, name: '' }),
    );
    await expectRefusedUnchanged(ctx, 'invalid_request', () =>
      ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: project.version, status: 'deleted' as 'archived' }),
    );
    await expectRefusedUnchanged(ctx, 'invalid_request', () =>
      ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: '3' as unknown as number, name: 'Text version' }),
    );
  });

  it('makes an archived project read-only except un-archiving by its owner or an admin', async () => {
    const project = await createCastProject(ctx, cast, 'Archivable');
    const archived = await ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: project.version, status: 'archived' });
    expect(archived).toMatchObject({ status: 'archived', version: project.version + 1 });

    await expectRefusedUnchanged(ctx, 'project_archived', () =>
      ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: archived.version, name: 'Renamed while archived' }),
    );
    await expectRefusedUnchanged(ctx, 'forbidden', () =>
      ctx.services.projects.updateProject(cast.maintainer, project.projectId, { expectedProjectVersion: archived.version, status: 'active' }),
    );
    await expectRefusedUnchanged(ctx, 'not_found', () =>
      ctx.services.projects.updateProject(cast.outsider, project.projectId, { expectedProjectVersion: archived.version, status: 'active' }),
    );
    // Still readable while archived.
    expect((await ctx.services.projects.getProject(cast.viewer, project.projectId)).status).toBe('archived');

    const restored = await ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: archived.version, status: 'active' });
    expect(restored).toMatchObject({ status: 'active', version: archived.version + 1 });
    const again = await ctx.services.projects.updateProject(cast.admin, project.projectId, { expectedProjectVersion: restored.version, status: 'archived' });
    const byAdmin = await ctx.services.projects.updateProject(cast.admin, project.projectId, { expectedProjectVersion: again.version, status: 'active' });
    expect(byAdmin.status).toBe('active');

    const actions = (await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, {})).map((a) => a.action);
    expect(actions.filter((a) => a === 'project.archive')).toHaveLength(2);
    expect(actions.filter((a) => a === 'project.unarchive')).toHaveLength(2);
  });

  it('returns the project unchanged (no version bump, no audit) when nothing differs', async () => {
    const project = await createCastProject(ctx, cast, 'Same');
    const before = await ctx.db.selectFrom('audit_log').select('audit_id').where('project_id', '=', project.projectId).execute();
    const same = await ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: project.version, name: 'Same' });
    expect(same.version).toBe(project.version);
    const after = await ctx.db.selectFrom('audit_log').select('audit_id').where('project_id', '=', project.projectId).execute();
    expect(after).toHaveLength(before.length);
  });
});
