import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { ASSIGNABLE_ROLES, type AssignableRole, type ProjectRole } from '../../domain/roles.ts';
import { AppError } from '../../errors.ts';
import type { Repositories } from '../../storage/store.ts';
import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { bumpProjectVersion, checkExpectedVersion } from '../shared/optimistic-lock.ts';
import { requireActiveProject, requireCapability, resolveProjectAccess, type ProjectAccess } from './project-access.ts';
import { toProject } from './projects.ts';
import type { Member, Project } from '../shared/types.ts';

const ROLE_ORDER: Record<ProjectRole, number> = { owner: 0, maintainer: 1, viewer: 2 };

function checkAssignableRole(role: unknown): AssignableRole {
  if (role === 'owner') {
    throw new AppError('invalid_request', said`Ownership changes only by transfer: ${see('transferOwnership')} with \`toSubjectId\`.`, {
      fieldErrors: { role: 'owner is given only by transferring ownership' },
    });
  }
  if (!(ASSIGNABLE_ROLES as readonly unknown[]).includes(role)) {
    throw new AppError('invalid_request', `role must be one of ${ASSIGNABLE_ROLES.join(', ')}.`, { fieldErrors: { role: `must be one of ${ASSIGNABLE_ROLES.join(', ')}` } });
  }
  return role as AssignableRole;
}

function memberNotFound(subjectId: string): AppError {
  return new AppError('not_found', said`${subjectId} is not a member of this project; list the members with ${see('listMembers')} to find their \`subjectId\`.`);
}

export function createMemberService({ store, clock }: ServiceDeps) {
  /** Every member change opens the same way: visible (404), owner or admin (403), not archived (409), version current (409). */
  async function openMemberChange(repos: Repositories, actor: Actor, projectId: string, expectedProjectVersion: unknown): Promise<ProjectAccess> {
    const access = await resolveProjectAccess(repos, actor, projectId, { lock: 'update' });
    requireCapability(access, 'manage_members');
    requireActiveProject(access);
    checkExpectedVersion('project', expectedProjectVersion, access.project.version);
    return access;
  }

  /** Bumps the project version (the optimistic lock), applies the change, and returns the project with the caller's role after it. */
  async function commitMemberChange(
    repos: Repositories,
    actor: Actor,
    access: ProjectAccess,
    expectedVersion: number,
    apply: () => Promise<unknown>,
  ): Promise<Project> {
    const now = clock.now();
    const projectId = access.project.projectId;
    await bumpProjectVersion(repos, projectId, expectedVersion, { updatedAt: now });
    await apply();
    const role = actor.subjectId ? await repos.members.roleOf(projectId, actor.subjectId) : null;
    return toProject({ ...access.project, version: access.project.version + 1, updatedAt: now }, role, actor.isAdmin);
  }

  return {
    async listMembers(actor: Actor, projectId: string): Promise<Member[]> {
      await resolveProjectAccess(store.repos, actor, projectId);
      const members = await store.repos.members.list(projectId);
      return members.sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.createdAt - b.createdAt || a.account.localeCompare(b.account));
    },

    /** Adds an active user as maintainer (default) or viewer. */
    async addMember(
      actor: Actor,
      projectId: string,
      input: { subjectId: string; role?: string | undefined; expectedProjectVersion: number },
    ): Promise<{ member: Member; project: Project }> {
      return store.transaction(async (repos) => {
        const access = await openMemberChange(repos, actor, projectId, input.expectedProjectVersion);
        const role = checkAssignableRole(input.role ?? 'maintainer');
        if (typeof input.subjectId !== 'string') throw new AppError('invalid_request', 'subjectId must be a string.', { fieldErrors: { subjectId: 'must be a string' } });
        if ((await repos.users.findBySubjectId(input.subjectId))?.status !== 'active') {
          throw new AppError('not_found', said`No active user has subjectId ${input.subjectId}; find one by account name with ${see('lookupUser')}.`);
        }
        const alreadyMember = () => new AppError('member_exists', said`${input.subjectId} is already a member; to change their role use ${see('changeMemberRole')} with \`role\`.`);
        if (await repos.members.find(projectId, input.subjectId)) throw alreadyMember();

        const project = await commitMemberChange(repos, actor, access, input.expectedProjectVersion, async () => {
          if (!(await repos.members.add({ projectId, subjectId: input.subjectId, role, createdAt: clock.now() }))) throw alreadyMember();
        });
        await writeAudit(repos, clock, actor, {
          action: 'member.add',
          targetType: 'member',
          targetId: input.subjectId,
          projectId,
          before: null,
          after: { subjectId: input.subjectId, role },
        });
        const member = await repos.members.find(projectId, input.subjectId);
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
      return store.transaction(async (repos) => {
        const access = await openMemberChange(repos, actor, projectId, input.expectedProjectVersion);
        const role = checkAssignableRole(input.role);
        const member = await repos.members.find(projectId, subjectId);
        if (!member) throw memberNotFound(subjectId);
        if (member.role === 'owner') {
          throw new AppError('last_owner', said`The owner cannot be demoted: a project has exactly one owner. Transfer ownership to another member first (${see('transferOwnership')} with \`toSubjectId\`).`);
        }
        if (member.role === role) return { member, project: toProject(access.project, access.role, actor.isAdmin) };

        const project = await commitMemberChange(repos, actor, access, input.expectedProjectVersion, () => repos.members.setRole(projectId, [subjectId], role));
        await writeAudit(repos, clock, actor, {
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
      return store.transaction(async (repos) => {
        const access = await openMemberChange(repos, actor, projectId, input.expectedProjectVersion);
        const member = await repos.members.find(projectId, subjectId);
        if (!member) throw memberNotFound(subjectId);
        if (member.role === 'owner') {
          throw new AppError('last_owner', said`The owner cannot be removed: a project has exactly one owner. Transfer ownership to another member first (${see('transferOwnership')} with \`toSubjectId\`).`);
        }
        const project = await commitMemberChange(repos, actor, access, input.expectedProjectVersion, () => repos.members.remove(projectId, subjectId));
        await writeAudit(repos, clock, actor, {
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
      return store.transaction(async (repos) => {
        const access = await openMemberChange(repos, actor, projectId, input.expectedProjectVersion);
        const target = typeof input.toSubjectId === 'string' ? await repos.members.find(projectId, input.toSubjectId) : undefined;
        if (!target) {
          throw new AppError('invalid_request', said`Ownership can go only to a member of the project; add them first (${see('addMember')} with \`subjectId\`), then transfer.`, {
            fieldErrors: { toSubjectId: 'must be a member of the project' },
          });
        }
        if (target.role === 'owner') {
          throw new AppError('invalid_request', `${input.toSubjectId} already owns the project.`, { fieldErrors: { toSubjectId: 'is already the owner' } });
        }
        if ((await repos.users.findBySubjectId(input.toSubjectId))?.status !== 'active') {
          throw new AppError('invalid_request', 'Ownership cannot go to a disabled account.', { fieldErrors: { toSubjectId: 'the account is disabled' } });
        }
        const previousOwners = await repos.members.ownersOf(projectId);

        const project = await commitMemberChange(repos, actor, access, input.expectedProjectVersion, async () => {
          await repos.members.setRole(projectId, previousOwners, 'maintainer');
          await repos.members.setRole(projectId, [input.toSubjectId], 'owner');
        });
        await writeAudit(repos, clock, actor, {
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
