import type { Transaction } from 'kysely';
import type { Actor } from '../domain/actor.ts';
import { ASSIGNABLE_ROLES, type AssignableRole, type ProjectRole } from '../domain/roles.ts';
import { AppError } from '../errors.ts';
import type { Database } from '../storage/schema.ts';
import { writeAudit } from './audit.ts';
import type { ServiceDeps } from './deps.ts';
import { bumpProjectVersion, checkExpectedVersion } from './optimistic-lock.ts';
import { requireActiveProject, requireCapability, resolveProjectAccess, type ProjectAccess } from './project-access.ts';
import { toProject } from './projects.ts';
import type { Member, Project } from './types.ts';

const ROLE_ORDER: Record<ProjectRole, number> = { owner: 0, maintainer: 1, viewer: 2 };

function checkAssignableRole(role: unknown): AssignableRole {
  if (role === 'owner') {
    throw new AppError('invalid_request', 'Ownership changes only by transfer: POST /projects/:projectId/ownership/transfer with toSubjectId.', {
      fieldErrors: { role: 'owner is given only by transferring ownership' },
    });
  }
  if (!(ASSIGNABLE_ROLES as readonly unknown[]).includes(role)) {
    throw new AppError('invalid_request', `role must be one of ${ASSIGNABLE_ROLES.join(', ')}.`, { fieldErrors: { role: `must be one of ${ASSIGNABLE_ROLES.join(', ')}` } });
  }
  return role as AssignableRole;
}

function memberNotFound(subjectId: string): AppError {
  return new AppError('not_found', `${subjectId} is not a member of this project; list the members to find their subjectIds.`);
}

export function createMemberService({ db, clock }: ServiceDeps) {
  async function loadMember(trx: Transaction<Database>, projectId: string, subjectId: string): Promise<Member | undefined> {
    const row = await trx
      .selectFrom('project_members')
      .innerJoin('users', 'users.subject_id', 'project_members.subject_id')
      .select(['project_members.subject_id', 'users.account', 'users.display_name', 'project_members.role', 'project_members.created_at'])
      .where('project_members.project_id', '=', projectId)
      .where('project_members.subject_id', '=', subjectId)
      .executeTakeFirst();
    return row && { subjectId: row.subject_id, account: row.account, displayName: row.display_name, role: row.role, createdAt: row.created_at };
  }

  /** Every member change opens the same way: visible (404), owner or admin (403), not archived (409), version current (409). */
  async function openMemberChange(trx: Transaction<Database>, actor: Actor, projectId: string, expectedProjectVersion: unknown): Promise<ProjectAccess> {
    const access = await resolveProjectAccess(trx, actor, projectId, { lock: 'update' });
    requireCapability(access, 'manage_members');
    requireActiveProject(access);
    checkExpectedVersion('project', expectedProjectVersion, access.project.version);
    return access;
  }

  /** Bumps the project version (the optimistic lock), applies the change, and returns the project with the caller's role after it. */
  async function commitMemberChange(
    trx: Transaction<Database>,
    actor: Actor,
    access: ProjectAccess,
    expectedVersion: number,
    apply: () => Promise<unknown>,
  ): Promise<Project> {
    const now = clock.now();
    const projectId = access.project.project_id;
    await bumpProjectVersion(trx, projectId, expectedVersion, { updated_at: now });
    await apply();
    const role = actor.subjectId
      ? ((await trx.selectFrom('project_members').select('role').where('project_id', '=', projectId).where('subject_id', '=', actor.subjectId).executeTakeFirst())?.role ?? null)
      : null;
    return toProject({ ...access.project, version: access.project.version + 1, updated_at: now }, role, actor.isAdmin);
  }

  return {
    async listMembers(actor: Actor, projectId: string): Promise<Member[]> {
      await resolveProjectAccess(db, actor, projectId);
      const rows = await db
        .selectFrom('project_members')
        .innerJoin('users', 'users.subject_id', 'project_members.subject_id')
        .select(['project_members.subject_id', 'users.account', 'users.display_name', 'project_members.role', 'project_members.created_at'])
        .where('project_members.project_id', '=', projectId)
        .execute();
      return rows
        .map((row) => ({ subjectId: row.subject_id, account: row.account, displayName: row.display_name, role: row.role, createdAt: row.created_at }))
        .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.createdAt - b.createdAt || a.account.localeCompare(b.account));
    },

    /** Adds an active user as maintainer (default) or viewer. */
    async addMember(
      actor: Actor,
      projectId: string,
      input: { subjectId: string; role?: string | undefined; expectedProjectVersion: number },
    ): Promise<{ member: Member; project: Project }> {
      return db.transaction().execute(async (trx) => {
        const access = await openMemberChange(trx, actor, projectId, input.expectedProjectVersion);
        const role = checkAssignableRole(input.role ?? 'maintainer');
        if (typeof input.subjectId !== 'string') throw new AppError('invalid_request', 'subjectId must be a string.', { fieldErrors: { subjectId: 'must be a string' } });
        const user = await trx.selectFrom('users').select(['status']).where('subject_id', '=', input.subjectId).executeTakeFirst();
        if (user?.status !== 'active') {
          throw new AppError('not_found', `No active user has subjectId ${input.subjectId}; find one with GET /users/lookup?account=NAME.`);
        }
        if (await loadMember(trx, projectId, input.subjectId)) {
          throw new AppError('member_exists', `${input.subjectId} is already a member; change their role instead.`);
        }

        const project = await commitMemberChange(trx, actor, access, input.expectedProjectVersion, () =>
          trx.insertInto('project_members').values({ project_id: projectId, subject_id: input.subjectId, role, created_at: clock.now() }).execute(),
        );
        await writeAudit(trx, clock, actor, {
          action: 'member.add',
          targetType: 'member',
          targetId: input.subjectId,
          projectId,
          before: null,
          after: { subjectId: input.subjectId, role },
        });
        const member = await loadMember(trx, projectId, input.subjectId);
        if (!member) throw memberNotFound(input.subjectId);
        return { member, project };
      });
    },

    async changeMemberRole(
      actor: Actor,
      projectId: string,
      subjectId: string,
      input: { role: string; expectedProjectVersion: number },
    ): Promise<{ member: Member; project: Project }> {
      return db.transaction().execute(async (trx) => {
        const access = await openMemberChange(trx, actor, projectId, input.expectedProjectVersion);
        const role = checkAssignableRole(input.role);
        const member = await loadMember(trx, projectId, subjectId);
        if (!member) throw memberNotFound(subjectId);
        if (member.role === 'owner') {
          throw new AppError('last_owner', 'The owner cannot be demoted: a project has exactly one owner. Transfer ownership to another member first.');
        }
        if (member.role === role) return { member, project: toProject(access.project, access.role, actor.isAdmin) };

        const project = await commitMemberChange(trx, actor, access, input.expectedProjectVersion, () =>
          trx.updateTable('project_members').set({ role }).where('project_id', '=', projectId).where('subject_id', '=', subjectId).execute(),
        );
        await writeAudit(trx, clock, actor, {
          action: 'member.change_role',
          targetType: 'member',
          targetId: subjectId,
          projectId,
          before: { role: member.role },
          after: { role },
        });
        return { member: { ...member, role }, project };
      });
    },

    async removeMember(actor: Actor, projectId: string, subjectId: string, input: { expectedProjectVersion: number }): Promise<{ project: Project }> {
      return db.transaction().execute(async (trx) => {
        const access = await openMemberChange(trx, actor, projectId, input.expectedProjectVersion);
        const member = await loadMember(trx, projectId, subjectId);
        if (!member) throw memberNotFound(subjectId);
        if (member.role === 'owner') {
          throw new AppError('last_owner', 'The owner cannot be removed: a project has exactly one owner. Transfer ownership to another member first.');
        }
        const project = await commitMemberChange(trx, actor, access, input.expectedProjectVersion, () =>
          trx.deleteFrom('project_members').where('project_id', '=', projectId).where('subject_id', '=', subjectId).execute(),
        );
        await writeAudit(trx, clock, actor, {
          action: 'member.remove',
          targetType: 'member',
          targetId: subjectId,
          projectId,
          before: { subjectId, role: member.role },
          after: null,
        });
        return { project };
      });
    },

    /** Makes another member the owner; the previous owner stays on as maintainer. */
    async transferOwnership(actor: Actor, projectId: string, input: { toSubjectId: string; expectedProjectVersion: number }): Promise<{ project: Project }> {
      return db.transaction().execute(async (trx) => {
        const access = await openMemberChange(trx, actor, projectId, input.expectedProjectVersion);
        const target = typeof input.toSubjectId === 'string' ? await loadMember(trx, projectId, input.toSubjectId) : undefined;
        if (!target) {
          throw new AppError('invalid_request', 'Ownership can go only to a member of the project; add them as a member first.', {
            fieldErrors: { toSubjectId: 'must be a member of the project' },
          });
        }
        if (target.role === 'owner') {
          throw new AppError('invalid_request', `${input.toSubjectId} already owns the project.`, { fieldErrors: { toSubjectId: 'is already the owner' } });
        }
        const targetUser = await trx.selectFrom('users').select('status').where('subject_id', '=', input.toSubjectId).executeTakeFirst();
        if (targetUser?.status !== 'active') {
          throw new AppError('invalid_request', 'Ownership cannot go to a disabled account.', { fieldErrors: { toSubjectId: 'the account is disabled' } });
        }
        const previousOwners = (
          await trx.selectFrom('project_members').select('subject_id').where('project_id', '=', projectId).where('role', '=', 'owner').execute()
        ).map((o) => o.subject_id);

        const project = await commitMemberChange(trx, actor, access, input.expectedProjectVersion, async () => {
          if (previousOwners.length > 0) {
            await trx.updateTable('project_members').set({ role: 'maintainer' }).where('project_id', '=', projectId).where('subject_id', 'in', previousOwners).execute();
          }
          await trx.updateTable('project_members').set({ role: 'owner' }).where('project_id', '=', projectId).where('subject_id', '=', input.toSubjectId).execute();
        });
        await writeAudit(trx, clock, actor, {
          action: 'member.transfer_ownership',
          targetType: 'project',
          targetId: projectId,
          projectId,
          before: { owner: previousOwners[0] ?? null, roles: { ...Object.fromEntries(previousOwners.map((id) => [id, 'owner'])), [input.toSubjectId]: target.role } },
          after: { owner: input.toSubjectId, roles: { ...Object.fromEntries(previousOwners.map((id) => [id, 'maintainer'])), [input.toSubjectId]: 'owner' } },
        });
        return { project };
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
