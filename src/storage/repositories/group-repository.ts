import type { Group, GroupMember, MembershipSource } from '../../domain/groups.ts';
import { isStorableText } from '../../domain/text-rules.ts';
import type { Executor, RepositoryFactory } from '../store.ts';

export interface GroupChanges {
  displayName: string;
  description: string;
  updatedAt: number;
}

export interface GroupRepository {
  /** Every group with its member count, by name. */
  list(): Promise<Group[]>;
  find(name: string): Promise<Group | undefined>;
  /** Of `names`, those that name a group. */
  existing(names: readonly string[]): Promise<string[]>;
  /** False, and nothing written, when a group of this name exists. */
  insert(group: Omit<Group, 'memberCount'>): Promise<boolean>;
  /** Writes the changes (version + 1) only if the stored group is still at `expectedVersion`. */
  updateIfVersion(name: string, expectedVersion: number, changes: GroupChanges): Promise<boolean>;
  /** Deletes the group and its memberships if it is still at `expectedVersion`. */
  removeIfVersion(name: string, expectedVersion: number): Promise<boolean>;

  /** The group's members by account; empty for a group that does not exist. */
  listMembers(name: string): Promise<GroupMember[]>;
  /** The membership's source, or undefined when the person is not in the group. */
  membershipSource(name: string, subjectId: string): Promise<MembershipSource | undefined>;
  /** Adds the person with this source, or changes the source of their membership. */
  putMember(name: string, subjectId: string, source: MembershipSource, createdAt: number): Promise<void>;
  removeMember(name: string, subjectId: string): Promise<boolean>;

  /** One person's group names, sorted by code point (the same order on both engines). */
  groupNamesOf(subjectId: string): Promise<string[]>;
  /** Several people's group names, each list sorted; a person in no group has an empty list. */
  groupNamesOfPeople(subjectIds: readonly string[]): Promise<Map<string, string[]>>;
  /** The groups one source manages for one person, sorted. */
  namesFromSource(subjectId: string, source: MembershipSource): Promise<string[]>;
  /** Removes every membership a source manages (its provider is being removed); how many. */
  removeAllFromSource(source: MembershipSource): Promise<number>;
}

// The column is a 32-bit integer on PostgreSQL: a version it cannot hold is simply not the current one.
const storableVersion = (version: number) => Number.isInteger(version) && version >= 1 && version <= 2_147_483_647;
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface GroupRowWithCount {
  name: string;
  display_name: string;
  description: string;
  version: number;
  created_at: number;
  updated_at: number;
  member_count: number | string | bigint | null;
}

function toGroup(row: GroupRowWithCount): Group {
  return {
    name: row.name,
    displayName: row.display_name,
    description: row.description,
    memberCount: Number(row.member_count ?? 0),
    version: Number(row.version),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export const groupRepository: RepositoryFactory<GroupRepository> = () => (executor: Executor) => {
  const withCounts = () =>
    executor
      .selectFrom('groups')
      .select(['groups.name', 'groups.display_name', 'groups.description', 'groups.version', 'groups.created_at', 'groups.updated_at'])
      .select((eb) => eb.selectFrom('group_members').select((inner) => inner.fn.countAll().as('n')).whereRef('group_members.group_name', '=', 'groups.name').as('member_count'));

  return {
    async list() {
      const rows = await withCounts().execute();
      return rows.map(toGroup).sort((a, b) => byCodePoint(a.name, b.name));
    },

    async find(name) {
      if (!isStorableText(name)) return undefined;
      const row = await withCounts().where('groups.name', '=', name).executeTakeFirst();
      return row && toGroup(row);
    },

    async existing(names) {
      const storable = names.filter(isStorableText);
      if (storable.length === 0) return [];
      const rows = await executor.selectFrom('groups').select('name').where('name', 'in', storable).execute();
      return rows.map((row) => row.name).sort(byCodePoint);
    },

    async insert(group) {
      const inserted = await executor
        .insertInto('groups')
        .values({ name: group.name, display_name: group.displayName, description: group.description, version: group.version, created_at: group.createdAt, updated_at: group.updatedAt })
        .onConflict((oc) => oc.column('name').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async updateIfVersion(name, expectedVersion, changes) {
      if (!storableVersion(expectedVersion) || !isStorableText(name)) return false;
      const updated = await executor
        .updateTable('groups')
        .set((eb) => ({ display_name: changes.displayName, description: changes.description, updated_at: changes.updatedAt, version: eb('version', '+', 1) }))
        .where('name', '=', name)
        .where('version', '=', expectedVersion)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    },

    async removeIfVersion(name, expectedVersion) {
      if (!storableVersion(expectedVersion) || !isStorableText(name)) return false;
      const current = await executor.selectFrom('groups').select('version').where('name', '=', name).executeTakeFirst();
      if (!current || Number(current.version) !== expectedVersion) return false;
      await executor.deleteFrom('group_members').where('group_name', '=', name).execute();
      const deleted = await executor.deleteFrom('groups').where('name', '=', name).where('version', '=', expectedVersion).executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },

    async listMembers(name) {
      if (!isStorableText(name)) return [];
      const rows = await executor
        .selectFrom('group_members')
        .innerJoin('users', 'users.subject_id', 'group_members.subject_id')
        .select(['users.subject_id', 'users.account', 'users.display_name', 'group_members.source'])
        .where('group_members.group_name', '=', name)
        .execute();
      return rows
        .map((row) => ({ subjectId: row.subject_id, account: row.account, displayName: row.display_name, source: row.source as MembershipSource }))
        .sort((a, b) => byCodePoint(a.account.toLowerCase(), b.account.toLowerCase()) || byCodePoint(a.subjectId, b.subjectId));
    },

    async membershipSource(name, subjectId) {
      if (!isStorableText(name) || !isStorableText(subjectId)) return undefined;
      const row = await executor.selectFrom('group_members').select('source').where('group_name', '=', name).where('subject_id', '=', subjectId).executeTakeFirst();
      return row?.source as MembershipSource | undefined;
    },

    async putMember(name, subjectId, source, createdAt) {
      await executor
        .insertInto('group_members')
        .values({ group_name: name, subject_id: subjectId, source, created_at: createdAt })
        .onConflict((oc) => oc.columns(['group_name', 'subject_id']).doUpdateSet({ source }))
        .execute();
    },

    async removeMember(name, subjectId) {
      if (!isStorableText(name) || !isStorableText(subjectId)) return false;
      const deleted = await executor.deleteFrom('group_members').where('group_name', '=', name).where('subject_id', '=', subjectId).executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    },

    async groupNamesOf(subjectId) {
      if (!isStorableText(subjectId)) return [];
      const rows = await executor.selectFrom('group_members').select('group_name').where('subject_id', '=', subjectId).execute();
      return rows.map((row) => row.group_name).sort(byCodePoint);
    },

    async groupNamesOfPeople(subjectIds) {
      const people = new Map<string, string[]>(subjectIds.map((subjectId) => [subjectId, []]));
      const storable = [...people.keys()].filter(isStorableText);
      // Bounded batches: SQLite allows a limited number of bound parameters per statement.
      for (let start = 0; start < storable.length; start += 500) {
        const rows = await executor.selectFrom('group_members').select(['subject_id', 'group_name']).where('subject_id', 'in', storable.slice(start, start + 500)).execute();
        for (const row of rows) people.get(row.subject_id)?.push(row.group_name);
      }
      for (const names of people.values()) names.sort(byCodePoint);
      return people;
    },

    async namesFromSource(subjectId, source) {
      if (!isStorableText(subjectId)) return [];
      const rows = await executor.selectFrom('group_members').select('group_name').where('subject_id', '=', subjectId).where('source', '=', source).execute();
      return rows.map((row) => row.group_name).sort(byCodePoint);
    },

    async removeAllFromSource(source) {
      const deleted = await executor.deleteFrom('group_members').where('source', '=', source).executeTakeFirst();
      return Number(deleted.numDeletedRows);
    },
  };
};
