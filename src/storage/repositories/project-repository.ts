import { PostgresAdapter } from 'kysely';
import type { ProjectRow } from '../schema.ts';
import { isStorableText } from '../../domain/text-rules.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

export interface ProjectRecord {
  projectId: string;
  name: string;
  description: string;
  status: 'active' | 'archived';
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface ProjectChanges {
  name?: string;
  description?: string;
  status?: ProjectRecord['status'];
  updatedAt: number;
}

export interface ProjectRepository {
  /**
   * `lock` (PostgreSQL only) holds the row until the transaction ends: `share` keeps it as it is
   * (client writes), `update` queues other writers of the project. SQLite runs one transaction at a time.
   */
  find(projectId: string, options?: { lock?: 'share' | 'update' }): Promise<ProjectRecord | undefined>;
  /** Oldest first; every project when `projectIds` is omitted. */
  list(projectIds?: readonly string[]): Promise<ProjectRecord[]>;
  insert(project: ProjectRecord): Promise<void>;
  /**
   * The optimistic lock, ONE conditional write: `version = version + 1 WHERE version = expectedVersion`.
   * False when another writer got there first (PostgreSQL re-checks the WHERE after waiting for the row lock).
   */
  updateIfVersion(projectId: string, expectedVersion: number, changes: ProjectChanges): Promise<boolean>;
  /** Deletes the project row when it is archived and still at this version (members and clients must be gone first). */
  deleteIfArchivedAtVersion(projectId: string, expectedVersion: number): Promise<boolean>;
}

export function toProjectRecord(row: ProjectRow): ProjectRecord {
  return {
    projectId: row.project_id,
    name: row.name,
    description: row.description,
    status: row.status,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export const projectRepository: RepositoryFactory<ProjectRepository> = (db) => {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return (executor: Executor) => ({
    async find(projectId, options = {}) {
      if (!isStorableText(projectId)) return undefined;
      let query = executor.selectFrom('projects').selectAll().where('project_id', '=', projectId);
      if (options.lock && postgres) query = options.lock === 'share' ? query.forShare() : query.forUpdate();
      const row = await query.executeTakeFirst();
      return row && toProjectRecord(row);
    },

    async list(projectIds) {
      const ids = projectIds?.filter(isStorableText);
      if (ids?.length === 0) return [];
      let query = executor.selectFrom('projects').selectAll().orderBy('created_at').orderBy('project_id');
      if (ids) query = query.where('project_id', 'in', ids);
      return (await query.execute()).map(toProjectRecord);
    },

    async insert(project) {
      await executor
        .insertInto('projects')
        .values({
          project_id: project.projectId,
          name: project.name,
          description: project.description,
          status: project.status,
          version: project.version,
          created_at: project.createdAt,
          updated_at: project.updatedAt,
        })
        .execute();
    },

    async updateIfVersion(projectId, expectedVersion, changes) {
      if (!isStorableText(projectId)) return false;
      const result = await executor
        .updateTable('projects')
        .set((eb) => ({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          updated_at: changes.updatedAt,
          version: eb('version', '+', 1),
        }))
        .where('project_id', '=', projectId)
        .where('version', '=', expectedVersion)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async deleteIfArchivedAtVersion(projectId, expectedVersion) {
      if (!isStorableText(projectId)) return false;
      const result = await executor
        .deleteFrom('projects')
        .where('project_id', '=', projectId)
        .where('version', '=', expectedVersion)
        .where('status', '=', 'archived')
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  });
};
