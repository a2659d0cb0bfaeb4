import { PostgresAdapter, type Kysely, type Transaction } from 'kysely';
import type { Actor } from '../domain/actor.ts';
import { capabilitiesOf, type Capability, type ProjectRole } from '../domain/roles.ts';
import { AppError } from '../errors.ts';
import type { Database, ProjectRow } from '../storage/schema.ts';

type Queryable = Kysely<Database> | Transaction<Database>;

export interface ProjectAccess {
  project: ProjectRow;
  /** The caller's own membership role; null for an administrator who is not a member. */
  role: ProjectRole | null;
  capabilities: readonly Capability[];
}

const CAPABILITY_WORDING: Record<Capability, string> = {
  read: 'read this project',
  write_clients: 'change clients or their secrets (maintainer or owner)',
  manage_members: 'manage members (owner only)',
  manage_project: 'edit or archive the project (owner only)',
};

export function requireSignedIn(actor: Actor): void {
  if (!actor.subjectId && !actor.isAdmin) throw new AppError('login_required', 'Sign in first.');
}

export function projectNotFound(projectId: string): AppError {
  return new AppError('not_found', `No project ${projectId} that you can see; list your projects to find its projectId.`);
}

/**
 * Loads the project and the caller's role in it. A caller who is neither a member nor an administrator
 * gets the same 404 as for a missing project, so project ids leak nothing.
 *
 * `lockShared` (PostgreSQL) holds the project row against concurrent project writes until the
 * transaction ends, so a client change cannot slip in beside an archive or a member removal.
 * SQLite needs no lock: Kysely runs its single connection one transaction at a time.
 */
export async function resolveProjectAccess(
  db: Queryable,
  actor: Actor,
  projectId: string,
  options: { lockShared?: boolean } = {},
): Promise<ProjectAccess> {
  requireSignedIn(actor);
  let query = db.selectFrom('projects').selectAll().where('project_id', '=', projectId);
  if (options.lockShared && isPostgres(db)) query = query.forShare();
  const project = await query.executeTakeFirst();
  if (!project) throw projectNotFound(projectId);
  const membership = actor.subjectId
    ? await db
        .selectFrom('project_members')
        .select('role')
        .where('project_id', '=', projectId)
        .where('subject_id', '=', actor.subjectId)
        .executeTakeFirst()
    : undefined;
  const role = membership?.role ?? null;
  if (!role && !actor.isAdmin) throw projectNotFound(projectId);
  return { project, role, capabilities: capabilitiesOf(role, actor.isAdmin) };
}

export function requireCapability(access: ProjectAccess, capability: Capability): void {
  if (!access.capabilities.includes(capability)) {
    const role = access.role ?? 'none';
    throw new AppError('forbidden', `Your role in this project (${role}) cannot ${CAPABILITY_WORDING[capability]}; ask the project owner.`);
  }
}

export function requireActiveProject(access: ProjectAccess): void {
  if (access.project.status === 'archived') {
    throw new AppError('project_archived', 'The project is archived and read-only; its owner or an administrator can un-archive it (status "active").');
  }
}

export function isPostgres(db: Queryable): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
