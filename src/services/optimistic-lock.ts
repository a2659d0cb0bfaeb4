import type { Transaction } from 'kysely';
import { AppError } from '../errors.ts';
import type { ClientsTable, Database } from '../storage/schema.ts';

export function projectVersionConflict(expected: number, current?: number): AppError {
  const now = current === undefined ? '' : ` (it is now ${current})`;
  return new AppError(
    'version_conflict',
    `The project changed since version ${expected}${now}; GET the project, take its version as expectedProjectVersion, and retry.`,
  );
}

export function clientVersionConflict(expected: number, current?: number): AppError {
  const now = current === undefined ? '' : ` (it is now ${current})`;
  return new AppError('version_conflict', `The client changed since clientVersion ${expected}${now}; GET the client, take its clientVersion, and retry.`);
}

/**
 * The optimistic lock: ONE conditional write. Zero rows updated means another writer got there first
 * (PostgreSQL re-checks the WHERE after waiting for the row lock), so the loser gets 409, never a lost update.
 */
export async function bumpProjectVersion(
  trx: Transaction<Database>,
  projectId: string,
  expectedVersion: number,
  values: { name?: string; description?: string; status?: 'active' | 'archived'; updated_at: number },
): Promise<void> {
  const result = await trx
    .updateTable('projects')
    .set((eb) => ({ ...values, version: eb('version', '+', 1) }))
    .where('project_id', '=', projectId)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw projectVersionConflict(expectedVersion);
}

export async function bumpClientVersion(
  trx: Transaction<Database>,
  clientId: string,
  expectedVersion: number,
  values: Partial<Omit<ClientsTable, 'client_id' | 'project_id' | 'client_type' | 'client_version' | 'created_at'>> & { updated_at: number },
): Promise<void> {
  const result = await trx
    .updateTable('clients')
    .set((eb) => ({ ...values, client_version: eb('client_version', '+', 1) }))
    .where('client_id', '=', clientId)
    .where('client_version', '=', expectedVersion)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw clientVersionConflict(expectedVersion);
}

/** Refuses early, before any validation, when the caller's version is already stale. */
export function checkExpectedVersion(kind: 'project' | 'client', expected: unknown, current: number): void {
  const field = kind === 'project' ? 'expectedProjectVersion' : 'clientVersion';
  if (typeof expected !== 'number' || !Number.isInteger(expected) || expected < 1) {
    throw new AppError('invalid_request', `${field} must be the positive integer version read from the ${kind}.`, {
      fieldErrors: { [field]: 'must be a positive integer' },
    });
  }
  if (expected !== current) throw kind === 'project' ? projectVersionConflict(expected, current) : clientVersionConflict(expected, current);
}
