import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../src/domain/actor.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { createCast, createCastProject, expectRefusedUnchanged, type Cast } from './fixtures.ts';

describe.each(TEST_ENGINES)('member service on %s', (engine) => {
  let ctx: TestContext;
  let cast: Cast;
  beforeAll(async () => {
    ctx = await createTestContext(engine);
    cast = await createCast(ctx);
  });
  afterAll(() => ctx.close());

  async function newUser(account: string) {
    return ctx.services.users.createUser(cliActor, { account, displayName: account, password: 'a long enough password' });
  }

  it('adds a member as maintainer by default, bumps the version and audits the change', async () => {
    const project = await ctx.services.projects.createProject(cast.owner, { name: 'Team' });
    const carol = await newUser('carol');
    const { member, project: after } = await ctx.services.members.addMember(cast.owner, project.projectId, { subjectId: carol.subjectId, expectedProjectVersion: 1 });
    expect(member).toMatchObject({ subjectId: carol.subjectId, account: 'carol', displayName: 'carol', role: 'maintainer' });
    expect(after).toMatchObject({ version: 2, role: 'owner' });
    const dave = await newUser('dave');
    const viewer = await ctx.services.members.addMember(cast.owner, project.projectId, { subjectId: dave.subjectId, role: 'viewer', expectedProjectVersion: 2 });
    expect(viewer.member.role).toBe('viewer');

    const members = await ctx.services.members.listMembers(cast.owner, project.projectId);
    expect(members.map((m) => [m.account, m.role])).toEqual([
      [expect.stringMatching(/^owner-/), 'owner'],
      ['carol', 'maintainer'],
      ['dave', 'viewer'],
    ]);
    const audit = await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, {});
    const add = audit.find((a) => a.action === 'member.add' && a.targetId === carol.subjectId);
    expect(add).toMatchObject({ actorSubjectId: cast.owner.subjectId, before: null, after: { subjectId: carol.subjectId, role: 'maintainer' } });
  });

  it('refuses the owner role, unknown or disabled users, and existing members, writing nothing', async () => {
    const project = await createCastProject(ctx, cast, 'Refusals');
    const v = project.version;
    const erin = await newUser('erin');
    await expectRefusedUnchanged(ctx, 'invalid_request', () =>
      ctx.services.members.addMember(cast.owner, project.projectId, { subjectId: erin.subjectId, role: 'owner', expectedProjectVersion: v }),
    );
    await expectRefusedUnchanged(ctx, 'invalid_request', () =>
      ctx.services.members.addMember(cast.owner, project.projectId, { subjectId: erin.subjectId, role: 'admin', expectedProjectVersion: v }),
    );
    await expectRefusedUnchanged(ctx, 'not_found', () =>
      ctx.services.members.addMember(cast.owner, project.projectId, { subjectId: 'no-such-subject', expectedProjectVersion: v }),
    );
    const frank = await newUser('frank');
    await ctx.services.users.updateUser(cliActor, frank.subjectId, { status: 'disabled' });
    await expectRefusedUnchanged(ctx, 'not_found', () =>
      ctx.services.members.addMember(cast.owner, project.projectId, { subjectId: frank.subjectId, expectedProjectVersion: v }),
    );
    await expectRefusedUnchanged(ctx, 'member_exists', () =>
      ctx.services.members.addMember(cast.owner, project.projectId, { subjectId: cast.viewer.subjectId!, expectedProjectVersion: v }),
    );
    await expectRefusedUnchanged(ctx, 'version_conflict', () =>
      ctx.services.members.addMember(cast.owner, project.projectId, { subjectId: erin.subjectId, expectedProjectVersion: v - 1 }),
    );
  });

  it('lets only the owner and admins manage members; non-members get 404', async () => {
    const project = await createCastProject(ctx, cast, 'Permissions');
    const gina = await newUser('gina');
    for (const role of ['maintainer', 'viewer'] as const) {
      await expectRefusedUnchanged(ctx, 'forbidden', () =>
        ctx.services.members.addMember(cast[role], project.projectId, { subjectId: gina.subjectId, expectedProjectVersion: project.version }),
      );
      await expectRefusedUnchanged(ctx, 'forbidden', () =>
        ctx.services.members.changeMemberRole(cast[role], project.projectId, cast.viewer.subjectId!, { role: 'maintainer', expectedProjectVersion: project.version }),
      );
      await expectRefusedUnchanged(ctx, 'forbidden', () =>
        ctx.services.members.removeMember(cast[role], project.projectId, cast.viewer.subjectId!, { expectedProjectVersion: project.version }),
      );
      await expectRefusedUnchanged(ctx, 'forbidden', () =>
        ctx.services.members.transferOwnership(cast[role], project.projectId, { toSubjectId: cast.maintainer.subjectId!, expectedProjectVersion: project.version }),
      );
    }
    await expectRefusedUnchanged(ctx, 'not_found', () =>
      ctx.services.members.addMember(cast.outsider, project.projectId, { subjectId: gina.subjectId, expectedProjectVersion: project.version }),
    );
    await expectRefusedUnchanged(ctx, 'not_found', () => ctx.services.members.listMembers(cast.outsider, project.projectId));
    expect(await ctx.services.members.listMembers(cast.viewer, project.projectId)).toHaveLength(3);

    const added = await ctx.services.members.addMember(cast.admin, project.projectId, { subjectId: gina.subjectId, expectedProjectVersion: project.version });
    expect(added.project).toMatchObject({ version: project.version + 1, role: null });
  });

  it('changes roles and removes members, but never demotes or removes the owner', async () => {
    const project = await createCastProject(ctx, cast, 'Roles');
    const changed = await ctx.services.members.changeMemberRole(cast.owner, project.projectId, cast.viewer.subjectId!, { role: 'maintainer', expectedProjectVersion: project.version });
    expect(changed.member.role).toBe('maintainer');
    expect(changed.project.version).toBe(project.version + 1);
    let version = changed.project.version;

    await expectRefusedUnchanged(ctx, 'last_owner', () =>
      ctx.services.members.changeMemberRole(cast.admin, project.projectId, cast.owner.subjectId!, { role: 'maintainer', expectedProjectVersion: version }),
    );
    await expectRefusedUnchanged(ctx, 'last_owner', () =>
      ctx.services.members.removeMember(cast.admin, project.projectId, cast.owner.subjectId!, { expectedProjectVersion: version }),
    );
    await expectRefusedUnchanged(ctx, 'invalid_request', () =>
      ctx.services.members.changeMemberRole(cast.owner, project.projectId, cast.viewer.subjectId!, { role: 'owner', expectedProjectVersion: version }),
    );
    await expectRefusedUnchanged(ctx, 'not_found', () =>
      ctx.services.members.removeMember(cast.owner, project.projectId, cast.outsider.subjectId!, { expectedProjectVersion: version }),
    );

    const removed = await ctx.services.members.removeMember(cast.owner, project.projectId, cast.viewer.subjectId!, { expectedProjectVersion: version });
    expect(removed.project.version).toBe(version + 1);
    version = removed.project.version;
    await expect(ctx.services.projects.getProject(cast.viewer, project.projectId)).rejects.toMatchObject({ code: 'not_found' });

    const audit = await ctx.services.audit.listAuditLogs(cast.owner, project.projectId, {});
    expect(audit.find((a) => a.action === 'member.change_role')).toMatchObject({ targetId: cast.viewer.subjectId, before: { role: 'viewer' }, after: { role: 'maintainer' } });
    expect(audit.find((a) => a.action === 'member.remove')).toMatchObject({ targetId: cast.viewer.subjectId, before: { role: 'maintainer' }, after: null });
  });

  it('transfers ownership to a member; the old owner becomes maintainer', async () => {
    const project = await createCastProject(ctx, cast, 'Transfer');
    await expectRefusedUnchanged(ctx, 'invalid_request', () =>
      ctx.services.members.transferOwnership(cast.owner, project.projectId, { toSubjectId: cast.outsider.subjectId!, expectedProjectVersion: project.version }),
    );
    await expectRefusedUnchanged(ctx, 'invalid_request', () =>
      ctx.services.members.transferOwnership(cast.owner, project.projectId, { toSubjectId: cast.owner.subjectId!, expectedProjectVersion: project.version }),
    );
    await expectRefusedUnchanged(ctx, 'version_conflict', () =>
      ctx.services.members.transferOwnership(cast.owner, project.projectId, { toSubjectId: cast.viewer.subjectId!, expectedProjectVersion: project.version + 1 }),
    );

    const { project: after } = await ctx.services.members.transferOwnership(cast.owner, project.projectId, { toSubjectId: cast.viewer.subjectId!, expectedProjectVersion: project.version });
    expect(after).toMatchObject({ version: project.version + 1, role: 'maintainer', capabilities: ['read', 'write_clients'] });
    const roles = Object.fromEntries((await ctx.services.members.listMembers(cast.viewer, project.projectId)).map((m) => [m.subjectId, m.role]));
    expect(roles).toEqual({ [cast.owner.subjectId!]: 'maintainer', [cast.viewer.subjectId!]: 'owner', [cast.maintainer.subjectId!]: 'maintainer' });
    const owners = await ctx.db.selectFrom('project_members').select('subject_id').where('project_id', '=', project.projectId).where('role', '=', 'owner').execute();
    expect(owners).toHaveLength(1);

    // The previous owner no longer manages members.
    await expectRefusedUnchanged(ctx, 'forbidden', () =>
      ctx.services.members.removeMember(cast.owner, project.projectId, cast.maintainer.subjectId!, { expectedProjectVersion: after.version }),
    );
    const audit = await ctx.services.audit.listAuditLogs(cast.viewer, project.projectId, {});
    expect(audit.find((a) => a.action === 'member.transfer_ownership')).toMatchObject({
      before: { owner: cast.owner.subjectId, roles: { [cast.owner.subjectId!]: 'owner', [cast.viewer.subjectId!]: 'viewer' } },
      after: { owner: cast.viewer.subjectId, roles: { [cast.owner.subjectId!]: 'maintainer', [cast.viewer.subjectId!]: 'owner' } },
    });
  });

  it('refuses every member change on an archived project', async () => {
    const project = await createCastProject(ctx, cast, 'Frozen');
    const archived = await ctx.services.projects.updateProject(cast.owner, project.projectId, { expectedProjectVersion: project.version, status: 'archived' });
    const helen = await newUser('helen');
    const v = archived.version;
    await expectRefusedUnchanged(ctx, 'project_archived', () =>
      ctx.services.members.addMember(cast.owner, project.projectId, { subjectId: helen.subjectId, expectedProjectVersion: v }),
    );
    await expectRefusedUnchanged(ctx, 'project_archived', () =>
      ctx.services.members.changeMemberRole(cast.admin, project.projectId, cast.viewer.subjectId!, { role: 'maintainer', expectedProjectVersion: v }),
    );
    await expectRefusedUnchanged(ctx, 'project_archived', () =>
      ctx.services.members.removeMember(cast.owner, project.projectId, cast.viewer.subjectId!, { expectedProjectVersion: v }),
    );
    await expectRefusedUnchanged(ctx, 'project_archived', () =>
      ctx.services.members.transferOwnership(cast.owner, project.projectId, { toSubjectId: cast.maintainer.subjectId!, expectedProjectVersion: v }),
    );
    expect(await ctx.services.members.listMembers(cast.viewer, project.projectId)).toHaveLength(3);
  });
});
