import type { Actor } from '../domain/actor.ts';
import { newProjectId } from '../domain/ids.ts';
import { capabilitiesOf, type ProjectRole } from '../domain/roles.ts';
import { PROJECT_STATUSES } from '../domain/statuses.ts';
import { PROJECT_LIMITS, textProblem } from '../domain/text-fields.ts';
import { AppError } from '../errors.ts';
import type { ProjectRow } from '../storage/schema.ts';
import { changedFields } from './audit-diff.ts';
import { writeAudit } from './audit.ts';
import type { ServiceDeps } from './deps.ts';
import { bumpProjectVersion, checkExpectedVersion } from './optimistic-lock.ts';
import { requireActiveProject, requireCapability, requireSignedIn, resolveProjectAccess } from './project-access.ts';
import type { Project } from './types.ts';

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

// Capabilities follow the role only; an archived project still reports them, and its status says writes are refused.
export function toProject(row: ProjectRow, role: ProjectRole | null, isAdmin: boolean): Project {
  return {
    projectId: row.project_id,
    name: row.name,
    description: row.description,
    status: row.status,
    version: row.version,
    role,
    capabilities: capabilitiesOf(role, isAdmin),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const auditedFields = (row: Pick<ProjectRow, 'name' | 'description' | 'status'>) => ({ name: row.name, description: row.description, status: row.status });

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
  if (Object.keys(fieldErrors).length > 0) throw new AppError('invalid_request', 'Some project fields are invalid.', { fieldErrors });
}

export function createProjectService({ db, clock }: ServiceDeps) {
  return {
    /** The caller's projects; every project for an administrator. */
    async listProjects(actor: Actor): Promise<Project[]> {
      requireSignedIn(actor);
      const memberships = actor.subjectId
        ? await db.selectFrom('project_members').select(['project_id', 'role']).where('subject_id', '=', actor.subjectId).execute()
        : [];
      const roles = new Map(memberships.map((m) => [m.project_id, m.role]));
      let query = db.selectFrom('projects').selectAll().orderBy('created_at').orderBy('project_id');
      if (!actor.isAdmin) {
        if (roles.size === 0) return [];
        query = query.where('project_id', 'in', [...roles.keys()]);
      }
      const rows = await query.execute();
      return rows.map((row) => toProject(row, roles.get(row.project_id) ?? null, actor.isAdmin));
    },

    async getProject(actor: Actor, projectId: string): Promise<Project> {
      const access = await resolveProjectAccess(db, actor, projectId);
      return toProject(access.project, access.role, actor.isAdmin);
    },

    /** Any signed-in user may create a project and becomes its owner. */
    async createProject(actor: Actor, input: NewProject): Promise<Project> {
      if (!actor.subjectId) throw new AppError('invalid_request', 'A project needs an owner: create it as a signed-in user.');
      checkProjectFields(input, true);
      const now = clock.now();
      const row: ProjectRow = {
        project_id: newProjectId(),
        name: input.name.trim(),
        description: input.description?.trim() ?? '',
        status: 'active',
        version: 1,
        created_at: now,
        updated_at: now,
      };
      const ownerId = actor.subjectId;
      return db.transaction().execute(async (trx) => {
        const owner = await trx.selectFrom('users').select('status').where('subject_id', '=', ownerId).executeTakeFirst();
        if (owner?.status !== 'active') throw new AppError('login_required', 'Your account is unknown or disabled; sign in again.');
        await trx.insertInto('projects').values(row).execute();
        await trx.insertInto('project_members').values({ project_id: row.project_id, subject_id: ownerId, role: 'owner', created_at: now }).execute();
        await writeAudit(trx, clock, actor, {
          action: 'project.create',
          targetType: 'project',
          targetId: row.project_id,
          projectId: row.project_id,
          after: { ...auditedFields(row), owner: ownerId },
        });
        return toProject(row, 'owner', actor.isAdmin);
      });
    },

    /** Edits, archives or un-archives; only un-archiving is allowed on an archived project. */
    async updateProject(actor: Actor, projectId: string, changes: ProjectChanges): Promise<Project> {
      return db.transaction().execute(async (trx) => {
        const access = await resolveProjectAccess(trx, actor, projectId, { lock: 'update' });
        requireCapability(access, 'manage_project');
        if (changes.status !== 'active') requireActiveProject(access);
        checkExpectedVersion('project', changes.expectedProjectVersion, access.project.version);
        checkProjectFields(changes, false);

        const before = access.project;
        const next: ProjectRow = {
          ...before,
          ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
          ...(changes.description !== undefined ? { description: changes.description.trim() } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
        };
        const diff = changedFields(auditedFields(before), auditedFields(next));
        if (!diff.changed) return toProject(before, access.role, actor.isAdmin);

        const now = clock.now();
        await bumpProjectVersion(trx, projectId, changes.expectedProjectVersion, {
          name: next.name,
          description: next.description,
          status: next.status,
          updated_at: now,
        });
        const action = diff.after.status === 'archived' ? 'project.archive' : diff.after.status === 'active' ? 'project.unarchive' : 'project.update';
        await writeAudit(trx, clock, actor, { action, targetType: 'project', targetId: projectId, projectId, before: diff.before, after: diff.after });
        return toProject({ ...next, version: before.version + 1, updated_at: now }, access.role, actor.isAdmin);
      });
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
