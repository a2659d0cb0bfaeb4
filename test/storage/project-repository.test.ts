import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import type { ProjectRecord } from '../../src/storage/repositories/project-repository.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

// Ids no row can hold: PostgreSQL refuses a NUL in text outright, and an unpaired surrogate is not Unicode.
const UNSTORABLE_IDS = ['prj_\u0000x', 'prj_\ud800x', '\udfff'];

let counter = 0;
const project = (overrides: Partial<ProjectRecord> = {}): ProjectRecord => {
  counter += 1;
  return { projectId: `prj_test${counter}`, name: `Project ${counter}`, description: '', status: 'active', version: 1, createdAt: 1000 + counter, updatedAt: 1000 + counter, ...overrides };
};

describe.each(TEST_ENGINES)('project and member repositories on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  let store: Store;
  const people = { ann: 'sub-ann', bob: 'sub-bob', cy: 'sub-cy', dee: 'sub-dee' };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
    await migrateToLatest(opened.db);
    store = createStore(opened.db, engine);
    const user = (subjectId: string, account: string, createdAt: number, extra: { is_admin?: number; status?: 'active' | 'disabled' } = {}) => ({
      subject_id: subjectId,
      account,
      account_normalized: account.toLowerCase(),
      password_hash: 'x',
      display_name: `${account} name`,
      email: null,
      email_verified: 0,
      student_status: 'unknown' as const,
      is_admin: extra.is_admin ?? 0,
      status: extra.status ?? 'active',
      created_at: createdAt,
      updated_at: createdAt,
    });
    await opened.db
      .insertInto('users')
      .values([
        user(people.ann, 'ann', 1),
        user(people.bob, 'bob', 2, { is_admin: 1, status: 'disabled' }),
        user(people.cy, 'cy', 3, { is_admin: 1 }),
        user(people.dee, 'dee', 4, { is_admin: 1 }),
      ])
      .execute();
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  describe('projects', () => {
    it('inserts and finds a project by id, with or without a row lock inside a transaction', async () => {
      const record = project({ description: 'About it' });
      await store.repos.projects.insert(record);
      expect(await store.repos.projects.find(record.projectId)).toEqual(record);
      const locked = await store.transaction(async (repos) => [await repos.projects.find(record.projectId, { lock: 'share' }), await repos.projects.find(record.projectId, { lock: 'update' })]);
      expect(locked).toEqual([record, record]);
      expect(await store.repos.projects.find('prj_missing')).toBeUndefined();
    });

    it('lists every project oldest first, or only the ones asked for', async () => {
      const older = project({ createdAt: 10 });
      const newer = project({ createdAt: 20 });
      const sameTime = project({ createdAt: 20, projectId: 'prj_0same' });
      for (const record of [newer, older, sameTime]) await store.repos.projects.insert(record);
      const all = await store.repos.projects.list();
      const ids = all.map((p) => p.projectId);
      expect(ids.indexOf(older.projectId)).toBeLessThan(ids.indexOf(sameTime.projectId));
      expect(ids.indexOf(sameTime.projectId)).toBeLessThan(ids.indexOf(newer.projectId));
      expect(await store.repos.projects.list([newer.projectId, older.projectId, 'prj_missing'])).toEqual([older, newer]);
      expect(await store.repos.projects.list([])).toEqual([]);
      expect(await store.repos.projects.list(UNSTORABLE_IDS)).toEqual([]);
    });

    it('updates only at the expected version, bumping it; a stale version changes nothing', async () => {
      const record = project();
      await store.repos.projects.insert(record);
      expect(await store.repos.projects.updateIfVersion(record.projectId, 1, { name: 'Renamed', status: 'archived', updatedAt: 5000 })).toBe(true);
      const updated = { ...record, name: 'Renamed', status: 'archived' as const, version: 2, updatedAt: 5000 };
      expect(await store.repos.projects.find(record.projectId)).toEqual(updated);

      expect(await store.repos.projects.updateIfVersion(record.projectId, 1, { name: 'Lost update', updatedAt: 6000 })).toBe(false);
      expect(await store.repos.projects.find(record.projectId)).toEqual(updated);
      // Only the version and time move when nothing else is given (a member change bumps its project).
      expect(await store.repos.projects.updateIfVersion(record.projectId, 2, { updatedAt: 7000 })).toBe(true);
      expect(await store.repos.projects.find(record.projectId)).toEqual({ ...updated, version: 3, updatedAt: 7000 });
      expect(await store.repos.projects.updateIfVersion('prj_missing', 1, { updatedAt: 1 })).toBe(false);
    });

    it('rolls an insert back with its transaction', async () => {
      const record = project();
      await expect(store.transaction(async (repos) => {
        await repos.projects.insert(record);
        throw new Error('refused');
      })).rejects.toThrow('refused');
      expect(await store.repos.projects.find(record.projectId)).toBeUndefined();
    });

    it('finds nothing, and never fails, for ids holding NUL or unpaired surrogates', async () => {
      for (const id of UNSTORABLE_IDS) {
        expect(await store.repos.projects.find(id)).toBeUndefined();
        expect(await store.repos.projects.find(id, { lock: 'update' })).toBeUndefined();
        expect(await store.repos.projects.updateIfVersion(id, 1, { updatedAt: 1 })).toBe(false);
      }
    });
  });

  describe('members', () => {
    let projectId: string;
    beforeAll(async () => {
      const record = project();
      projectId = record.projectId;
      await store.repos.projects.insert(record);
    });

    it('adds a member once: a second membership of the same person is refused without breaking the transaction', async () => {
      expect(await store.repos.members.add({ projectId, subjectId: people.ann, role: 'owner', createdAt: 100 })).toBe(true);
      const inTransaction = await store.transaction(async (repos) => {
        const again = await repos.members.add({ projectId, subjectId: people.ann, role: 'viewer', createdAt: 200 });
        // On PostgreSQL a failed statement would abort the transaction: this one must still run.
        return { again, role: await repos.members.roleOf(projectId, people.ann) };
      });
      expect(inTransaction).toEqual({ again: false, role: 'owner' });
      expect(await store.repos.members.add({ projectId, subjectId: people.cy, role: 'maintainer', createdAt: 150 })).toBe(true);
    });

    it('reads roles, members with their account and name, and owners', async () => {
      expect(await store.repos.members.roleOf(projectId, people.ann)).toBe('owner');
      expect(await store.repos.members.roleOf(projectId, people.dee)).toBeNull();
      expect(await store.repos.members.find(projectId, people.cy)).toEqual({ subjectId: people.cy, account: 'cy', displayName: 'cy name', role: 'maintainer', createdAt: 150 });
      expect(await store.repos.members.find(projectId, people.dee)).toBeUndefined();
      const listed = await store.repos.members.list(projectId);
      expect(listed.map((m) => [m.subjectId, m.role]).sort()).toEqual([[people.ann, 'owner'], [people.cy, 'maintainer']]);
      expect(await store.repos.members.list('prj_missing')).toEqual([]);
      expect(await store.repos.members.ownersOf(projectId)).toEqual([people.ann]);

      const other = project();
      await store.repos.projects.insert(other);
      await store.repos.members.add({ projectId: other.projectId, subjectId: people.cy, role: 'viewer', createdAt: 300 });
      expect(await store.repos.members.rolesOf(people.cy)).toEqual(new Map([[projectId, 'maintainer'], [other.projectId, 'viewer']]));
      expect(await store.repos.members.rolesOf(people.dee)).toEqual(new Map());
    });

    it('changes roles of the people named only, and removes a member', async () => {
      expect(await store.repos.members.setRole(projectId, [people.ann], 'maintainer')).toBe(1);
      expect(await store.repos.members.setRole(projectId, [people.cy], 'owner')).toBe(1);
      expect(await store.repos.members.ownersOf(projectId)).toEqual([people.cy]);
      expect(await store.repos.members.setRole(projectId, [], 'viewer')).toBe(0);
      expect(await store.repos.members.setRole(projectId, [people.dee], 'viewer')).toBe(0);

      expect(await store.repos.members.remove(projectId, people.ann)).toBe(true);
      expect(await store.repos.members.remove(projectId, people.ann)).toBe(false);
      expect(await store.repos.members.roleOf(projectId, people.ann)).toBeNull();
    });

    it('the people the member rules ask about come from the user repository: who is active, the oldest active administrator', async () => {
      expect((await store.repos.users.findBySubjectId(people.ann))?.status).toBe('active');
      expect((await store.repos.users.findBySubjectId(people.bob))?.status).toBe('disabled');
      expect(await store.repos.users.findBySubjectId('sub-nobody')).toBeUndefined();
      // bob is older but disabled.
      expect((await store.repos.users.findOldestActiveAdmin())?.subjectId).toBe(people.cy);
    });

    it('finds nothing, and never fails, for ids holding NUL or unpaired surrogates', async () => {
      for (const id of UNSTORABLE_IDS) {
        expect(await store.repos.members.roleOf(id, people.cy)).toBeNull();
        expect(await store.repos.members.roleOf(projectId, id)).toBeNull();
        expect(await store.repos.members.rolesOf(id)).toEqual(new Map());
        expect(await store.repos.members.find(projectId, id)).toBeUndefined();
        expect(await store.repos.members.list(id)).toEqual([]);
        expect(await store.repos.members.ownersOf(id)).toEqual([]);
        expect(await store.repos.members.setRole(projectId, [id], 'viewer')).toBe(0);
        expect(await store.repos.members.remove(projectId, id)).toBe(false);
      }
    });
  });
});
