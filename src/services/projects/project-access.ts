import { said, see } from '../../domain/pointed-text.ts';
import type { Actor } from '../../domain/actor.ts';
import { capabilitiesOf, CAPABILITY_WITH_ROLES as CAPABILITY_WORDING, type Capability, type ProjectRole } from '../../domain/roles.ts';
import { PROJECT_ARCHIVED, SIGN_IN_FIRST } from '../../domain/refusal-texts.ts';
import { AppError } from '../../errors.ts';
import type { ProjectRecord } from '../../storage/repositories/project-repository.ts';
import type { Repositories } from '../../storage/store.ts';

export interface ProjectAccess {
  project: ProjectRecord;
  /** The caller's own membership role; null for an administrator who is not a member. */
  role: ProjectRole | null;
  capabilities: readonly Capability[];
}

export function requireSignedIn(actor: Actor): void {
  if (!actor.subjectId && !actor.isAdmin) throw new AppError('login_required', SIGN_IN_FIRST);
}

export function projectNotFound(projectId: string): AppError {
  return new AppError('not_found', said`No project ${projectId} that you can see; list your projects with ${see('listProjects')} to find its \`projectId\`.`);
}

/**
 * Loads the project and the caller's role in it. A caller who is neither a member nor an administrator
 * gets the same 404 as for a missing project, so project ids leak nothing.
 *
 * `lock` (PostgreSQL only) holds the project row until the transaction ends: `share` for client
 * writes, so none slips in beside an archive or a member removal; `update` for project writes, so
 * concurrent writers queue and each decides on the state its version names (the loser then fails the
 * version check instead of tripping over the winner's changes). The conditional version write stays
 * the guard. SQLite needs no lock: Kysely runs its single connection one transaction at a time.
 */
export async function resolveProjectAccess(
  repos: Repositories,
  actor: Actor,
  projectId: string,
  options: { lock?: 'share' | 'update' } = {},
): Promise<ProjectAccess> {
  requireSignedIn(actor);
  const project = await repos.projects.find(projectId, options);
  if (!project) throw projectNotFound(projectId);
  const role = actor.subjectId ? await repos.members.roleOf(projectId, actor.subjectId) : null;
  if (!role && !actor.isAdmin) throw projectNotFound(projectId);
  return { project, role, capabilities: capabilitiesOf(role, actor.isAdmin) };
}

export function requireCapability(access: ProjectAccess, capability: Capability): void {
  if (!access.capabilities.includes(capability)) {
    const role = access.role ?? 'none';
    throw new AppError('forbidden', said`Your role in this project (${role}) cannot ${CAPABILITY_WORDING[capability]}; ask the project owner (see ${see('listMembers')}) to do it or to give you a role that can.`);
  }
}

export function requireActiveProject(access: ProjectAccess): void {
  if (access.project.status === 'archived') {
    throw new AppError('project_archived', said`${PROJECT_ARCHIVED.meaning} ${PROJECT_ARCHIVED.action}`);
  }
}
