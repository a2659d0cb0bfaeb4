import { versionConflictText } from '../../domain/refusal-texts.ts';
import { AppError } from '../../errors.ts';
import type { ClientMetadataChanges } from '../../storage/repositories/client-repository.ts';
import type { ProjectChanges } from '../../storage/repositories/project-repository.ts';
import type { Repositories } from '../../storage/store.ts';

export const projectVersionConflict = (): AppError => new AppError('version_conflict', versionConflictText('project'));

export const clientVersionConflict = (): AppError => new AppError('version_conflict', versionConflictText('client'));

/**
 * The optimistic lock: ONE conditional write (the repository's updateIfVersion). Losing it means another
 * writer got there first, so the loser gets 409, never a lost update.
 */
export async function bumpProjectVersion(repos: Repositories, projectId: string, expectedVersion: number, changes: ProjectChanges): Promise<void> {
  if (!(await repos.projects.updateIfVersion(projectId, expectedVersion, changes))) throw projectVersionConflict();
}

export async function bumpClientVersion(repos: Repositories, clientId: string, expectedVersion: number, changes: ClientMetadataChanges): Promise<void> {
  if (!(await repos.clients.updateIfVersion(clientId, expectedVersion, changes))) throw clientVersionConflict();
}

/** Refuses early, before any validation, when the caller's version is already stale. */
export function checkExpectedVersion(kind: 'project' | 'client', expected: unknown, current: number): void {
  const field = kind === 'project' ? 'expectedProjectVersion' : 'clientVersion';
  if (typeof expected !== 'number' || !Number.isInteger(expected) || expected < 1) {
    throw new AppError('invalid_request', `${field} must be the positive integer version read from the ${kind}.`, {
      fieldErrors: { [field]: 'must be a positive integer' },
    });
  }
  if (expected !== current) throw kind === 'project' ? projectVersionConflict() : clientVersionConflict();
}
