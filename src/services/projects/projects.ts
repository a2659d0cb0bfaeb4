import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { newProjectId } from '../../domain/ids.ts';
import { shownCapabilities, type ProjectRole } from '../../domain/roles.ts';
import { PROJECT_STATUSES } from '../../domain/statuses.ts';
import { PROJECT_LIMITS, textProblem } from '../../domain/text-fields.ts';
import { AppError } from '../../errors.ts';
import type { ProjectRecord } from '../../storage/repositories/project-repository.ts';
import { changedFields } from '../shared/audit-diff.ts';
import { writeAudit } from '../shared/audit.ts';
import type { ServiceDeps } from '../shared/deps.ts';
import { bumpProjectVersion, checkExpectedVersion, projectVersionConflict } from '../shared/optimistic-lock.ts';
import { requireActiveProject, requireCapability, requireSignedIn, resolveProjectAccess } from './project-access.ts';
import type { Project } from '../shared/types.ts';

export interface NewProject {
  name: string;
  description?: string | undefined;
}

export interface ProjectChanges {
  expectedProjectVersion: number;
  name?: string | undefined;
  description?: string | undefined;
  status?: 'active' | 'archived' | undefined;
}

export function toProject(record: ProjectRecord, role: ProjectRole | null, isAdmin: boolean): Project {
  return { ...record, role, capabilities: shownCapabilities(role, isAdmin, record.status) };
}

const auditedFields = (project: Pick<ProjectRecord, 'name' | 'description' | 'status'>) => ({ name: project.name, description: project.description, status: project.status });

function checkProjectFields(input: { name?: unknown; description?: unknown; status?: unknown }, creating: boolean): void {
  const fieldErrors: Record<string, string> = {};
  if (creating || input.name !== undefined) {
    const problem = textProblem(input.name, { required: true, maxLength: PROJECT_LIMITS.maxNameLength, singleLine: true });
    if (problem) fieldErrors.name = problem;
  }
  if (input.description !== undefined) {
    const problem = textProblem(input.description, { required: false, maxLength: PROJECT_LIMITS.maxDescriptionLength });
    if (problem) fieldErrors.description = problem;
  }
  if (input.status !== undefined && !(PROJECT_STATUSES as readonly unknown[]).includes(input.status)) {
    fieldErrors.status = `must be one of ${PROJECT_STATUSES.join(', ')}`;
  }
  if (Object.keys(fieldErrors).length > 0) throw new AppError('invalid_request', 'Some project fields are invalid; fix the fields named in field_errors and send again.', { fieldErrors });
}

export function createProjectService({ store, clock }: ServiceDeps) {
  return {
    /** The caller's projects; every project for an administrator. */
    async listProjects(actor: Actor): Promise<Project[]> {
      requireSignedIn(actor);
      const roles = actor.subjectId ? await store.repos.members.rolesOf(actor.subjectId) : new Map<string, ProjectRole>();
      if (!actor.isAdmin && roles.size === 0) return [];
      const projects = await store.repos.projects.list(actor.isAdmin ? undefined : [...roles.keys()]);
      return projects.map((project) => toProject(project, roles.get(project.projectId) ?? null, actor.isAdmin));
    },

    async getProject(actor: Actor, projectId: string): Promise<Project> {
      const access = await resolveProjectAccess(store.repos, actor, projectId);
      return toProject(access.project, access.role, actor.isAdmin);
    },

    /** Any signed-in user may create a project and becomes its owner. */
    async createProject(actor: Actor, input: NewProject): Promise<Project> {
      if (!actor.subjectId) throw new AppError('invalid_request', 'A project needs an owner: create it as a signed-in user.');
      checkProjectFields(input, true);
      const now = clock.now();
      const project: ProjectRecord = {
        projectId: newProjectId(),
        name: input.name.trim(),
        description: input.description?.trim() ?? '',
        status: 'active',
        version: 1,
        createdAt: now,
        updatedAt: now,
      };
      const ownerId = actor.subjectId;
      return store.transaction(async (repos) => {
        if ((await repos.users.findBySubjectId(ownerId))?.status !== 'active') throw new AppError('login_required', 'Your account is unknown or disabled; sign in again.');
        await repos.projects.insert(project);
        await repos.members.add({ projectId: project.projectId, subjectId: ownerId, role: 'owner', createdAt: now });
        await writeAudit(repos, clock, actor, {
          action: 'project.create',
          targetType: 'project',
          targetId: project.projectId,
          projectId: project.projectId,
          after: { ...auditedFields(project), owner: ownerId },
        });
        return toProject(project, 'owner', actor.isAdmin);
      });
    },

    /** Edits, archives or un-archives; only un-archiving is allowed on an archived project. */
    async updateProject(actor: Actor, projectId: string, changes: ProjectChanges): Promise<Project> {
      return store.transaction(async (repos) => {
        const access = await resolveProjectAccess(repos, actor, projectId, { lock: 'update' });
        requireCapability(access, 'manage_project');
        if (changes.status !== 'active') requireActiveProject(access);
        checkExpectedVersion('project', changes.expectedProjectVersion, access.project.version);
        checkProjectFields(changes, false);

        const before = access.project;
        const next: ProjectRecord = {
          ...before,
          ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
          ...(changes.description !== undefined ? { description: changes.description.trim() } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
        };
        const diff = changedFields(auditedFields(before), auditedFields(next));
        if (!diff.changed) return toProject(before, access.role, actor.isAdmin);

        const now = clock.now();
        await bumpProjectVersion(repos, projectId, changes.expectedProjectVersion, { name: next.name, description: next.description, status: next.status, updatedAt: now });
        const action = diff.after.status === 'archived' ? 'project.archive' : diff.after.status === 'active' ? 'project.unarchive' : 'project.update';
        await writeAudit(repos, clock, actor, { action, targetType: 'project', targetId: projectId, projectId, before: diff.before, after: diff.after });
        return toProject({ ...next, version: before.version + 1, updatedAt: now }, access.role, actor.isAdmin);
      });
    },

    /**
     * Deletes an archived project with its members and clients (and the clients' grants and tokens).
     * The entry has no project: the project's own trail goes unread with it, so administrators keep it.
     */
    async deleteProject(actor: Actor, projectId: string, input: { expectedProjectVersion: number }): Promise<void> {
      await store.transaction(async (repos) => {
        const access = await resolveProjectAccess(repos, actor, projectId, { lock: 'update' });
        requireCapability(access, 'manage_project');
        checkExpectedVersion('project', input.expectedProjectVersion, access.project.version);
        if (access.project.status !== 'archived') {
          throw new AppError('project_not_archived', said`Only an archived project can be deleted: archive it first (${see('updateProject')} with \`status\` "archived"), then ${see('deleteProject')} with its new \`expectedProjectVersion\`.`);
        }
        const clients = await repos.clients.listByProject(projectId);
        let revokedGrants = 0;
        for (const client of clients) {
          revokedGrants += await repos.oidcPayloads.revokeAllForClient(client.clientId);
          await repos.rememberedConsents.forgetClient(client.clientId);
          await repos.clients.delete(client.clientId);
        }
        const members = await repos.members.list(projectId);
        await repos.members.removeAll(projectId);
        if (!(await repos.projects.deleteIfArchivedAtVersion(projectId, input.expectedProjectVersion))) throw projectVersionConflict();
        await writeAudit(repos, clock, actor, {
          action: 'project.delete',
          targetType: 'project',
          targetId: projectId,
          projectId: null,
          before: {
            ...auditedFields(access.project),
            version: access.project.version,
            clientIds: clients.map((c) => c.clientId),
            members: members.map((m) => ({ subjectId: m.subjectId, role: m.role })),
          },
          after: { revokedGrants },
        });
      });
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
