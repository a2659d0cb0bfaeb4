import type { ProjectRole } from '../../domain/roles.ts';
import { isStorableText } from '../../domain/text-rules.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

/** A member as the APIs list them: the membership with the person's account and name. */
export interface MemberRecord {
  subjectId: string;
  account: string;
  displayName: string;
  role: ProjectRole;
  createdAt: number;
}

export interface Membership {
  projectId: string;
  subjectId: string;
  role: ProjectRole;
  createdAt: number;
}

export interface MemberRepository {
  /** The person's role in the project, or null when they are not a member. */
  roleOf(projectId: string, subjectId: string): Promise<ProjectRole | null>;
  /** Every project the person is a member of, with their role there. */
  rolesOf(subjectId: string): Promise<Map<string, ProjectRole>>;
  find(projectId: string, subjectId: string): Promise<MemberRecord | undefined>;
  list(projectId: string): Promise<MemberRecord[]>;
  ownersOf(projectId: string): Promise<string[]>;
  /** False when the person is already a member (one membership per person and project). */
  add(membership: Membership): Promise<boolean>;
  setRole(projectId: string, subjectIds: readonly string[], role: ProjectRole): Promise<number>;
  remove(projectId: string, subjectId: string): Promise<boolean>;
  /** Removes every membership of the project (when the project itself goes). */
  removeAll(projectId: string): Promise<void>;
}

const storable = (...values: string[]) => values.every(isStorableText);

export const memberRepository: RepositoryFactory<MemberRepository> = () => (executor: Executor) => {
  const withPeople = () =>
    executor
      .selectFrom('project_members')
      .innerJoin('users', 'users.subject_id', 'project_members.subject_id')
      .select(['project_members.subject_id', 'users.account', 'users.display_name', 'project_members.role', 'project_members.created_at']);
  type PersonRow = Awaited<ReturnType<ReturnType<typeof withPeople>['executeTakeFirstOrThrow']>>;
  const toMember = (row: PersonRow): MemberRecord => ({
    subjectId: row.subject_id,
    account: row.account,
    displayName: row.display_name,
    role: row.role,
    createdAt: row.created_at,
  });

  return {
    async roleOf(projectId, subjectId) {
      if (!storable(projectId, subjectId)) return null;
      const row = await executor
        .selectFrom('project_members')
        .select('role')
        .where('project_id', '=', projectId)
        .where('subject_id', '=', subjectId)
        .executeTakeFirst();
      return row?.role ?? null;
    },

    async rolesOf(subjectId) {
      if (!storable(subjectId)) return new Map();
      const rows = await executor.selectFrom('project_members').select(['project_id', 'role']).where('subject_id', '=', subjectId).execute();
      return new Map(rows.map((row) => [row.project_id, row.role]));
    },

    async find(projectId, subjectId) {
      if (!storable(projectId, subjectId)) return undefined;
      const row = await withPeople().where('project_members.project_id', '=', projectId).where('project_members.subject_id', '=', subjectId).executeTakeFirst();
      return row && toMember(row);
    },

    async list(projectId) {
      if (!storable(projectId)) return [];
      return (await withPeople().where('project_members.project_id', '=', projectId).execute()).map(toMember);
    },

    async ownersOf(projectId) {
      if (!storable(projectId)) return [];
      const rows = await executor.selectFrom('project_members').select('subject_id').where('project_id', '=', projectId).where('role', '=', 'owner').orderBy('subject_id').execute();
      return rows.map((row) => row.subject_id);
    },

    async add(membership) {
      // ON CONFLICT DO NOTHING: a duplicate must not abort a PostgreSQL transaction the caller still uses.
      const result = await executor
        .insertInto('project_members')
        .values({ project_id: membership.projectId, subject_id: membership.subjectId, role: membership.role, created_at: membership.createdAt })
        .onConflict((oc) => oc.columns(['project_id', 'subject_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async setRole(projectId, subjectIds, role) {
      const ids = subjectIds.filter(isStorableText);
      if (!storable(projectId) || ids.length === 0) return 0;
      const result = await executor.updateTable('project_members').set({ role }).where('project_id', '=', projectId).where('subject_id', 'in', ids).executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async remove(projectId, subjectId) {
      if (!storable(projectId, subjectId)) return false;
      const result = await executor.deleteFrom('project_members').where('project_id', '=', projectId).where('subject_id', '=', subjectId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async removeAll(projectId) {
      if (!isStorableText(projectId)) return;
      await executor.deleteFrom('project_members').where('project_id', '=', projectId).execute();
    },
  };
};
