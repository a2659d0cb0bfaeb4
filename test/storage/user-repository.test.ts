import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createStore } from '../../src/storage/store.ts';
import { createTestDatabase, TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';
import { aUser } from '../helpers/a-user.ts';

const UNSTORABLE = ['ali\u0000ce', 'ali\uD800ce', '\uDC00'];

describe.each(TEST_ENGINES)('user repository on %s', (engine) => {
  const suite = useMigratedStore(engine);

  it('stores a user and gives back the same domain User by subjectId and by account, never the hash', async () => {
    const user = aUser({ account: 'Grace.Hopper', displayName: 'Grace', email: 'grace@example.com', emailVerified: true, studentStatus: 'not_student', isAdmin: true, createdAt: 5, updatedAt: 6 });
    expect(await suite.store.repos.users.insert(user, '$argon2id$hash-of-grace')).toBe(true);
    expect(await suite.store.repos.users.findBySubjectId(user.subjectId)).toEqual(user);
    expect(await suite.store.repos.users.findByAccount('Grace.Hopper')).toEqual(user);
    expect(JSON.stringify(await suite.store.repos.users.findByAccount('Grace.Hopper'))).not.toContain('argon2id');
    expect(await suite.store.repos.users.findCredentialsByAccount('grace.hopper')).toEqual({ user, passwordHash: '$argon2id$hash-of-grace' });
    expect(await suite.store.repos.users.findBySubjectId(randomUUID())).toBeUndefined();
    expect(await suite.store.repos.users.findByAccount('nobody-here')).toBeUndefined();
    expect(await suite.store.repos.users.findCredentialsByAccount('nobody-here')).toBeUndefined();
  });

  it('looks accounts up case-insensitively and by their NFKC form', async () => {
    const user = aUser({ account: 'Ada' });
    await suite.store.repos.users.insert(user, 'hash');
    for (const spelling of ['ada', 'ADA', 'aDa', '\uFF21\uFF44\uFF41' /* fullwidth "Ada" */]) {
      expect((await suite.store.repos.users.findByAccount(spelling))?.subjectId).toBe(user.subjectId);
      expect((await suite.store.repos.users.findCredentialsByAccount(spelling))?.user.subjectId).toBe(user.subjectId);
    }
    expect((await suite.store.repos.users.findByAccount('ada'))?.account).toBe('Ada');
  });

  it('refuses an account another user holds in any case, writing nothing', async () => {
    const first = aUser({ account: 'Linus' });
    expect(await suite.store.repos.users.insert(first, 'first hash')).toBe(true);
    const before = await suite.store.repos.users.count();
    for (const account of ['Linus', 'LINUS', 'linus']) {
      expect(await suite.store.repos.users.insert(aUser({ account }), 'other hash')).toBe(false);
    }
    expect(await suite.store.repos.users.count()).toBe(before);
    expect(await suite.store.repos.users.findCredentialsByAccount('linus')).toEqual({ user: first, passwordHash: 'first hash' });
  });

  it('lets exactly one of several parallel creations of one account win', async () => {
    const account = `race-${randomUUID().slice(0, 8)}`;
    const contenders = Array.from({ length: 6 }, (_, i) => aUser({ account: i % 2 === 0 ? account : account.toUpperCase() }));
    const outcomes = await Promise.all(contenders.map((user) => suite.store.transaction((repos) => repos.users.insert(user, 'hash'))));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const winner = contenders[outcomes.indexOf(true)]!;
    expect((await suite.store.repos.users.findByAccount(account))?.subjectId).toBe(winner.subjectId);
  });

  it('keeps the transaction usable after a refused account (PostgreSQL would abort it on a raised conflict)', async () => {
    const taken = aUser({ account: 'Taken' });
    await suite.store.repos.users.insert(taken, 'hash');
    const other = aUser();
    await suite.store.transaction(async (repos) => {
      expect(await repos.users.insert(aUser({ account: 'TAKEN' }), 'hash')).toBe(false);
      expect(await repos.users.insert(other, 'hash')).toBe(true);
    });
    expect(await suite.store.repos.users.findBySubjectId(other.subjectId)).toEqual(other);
  });

  it('writes nothing when the transaction it wrote in rolls back', async () => {
    const user = aUser();
    await expect(
      suite.store.transaction(async (repos) => {
        await repos.users.insert(user, 'hash');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await suite.store.repos.users.findBySubjectId(user.subjectId)).toBeUndefined();
  });

  it('finds nothing and changes nothing for a name or id no row can hold (NUL, unpaired surrogate)', async () => {
    for (const text of UNSTORABLE) {
      expect(await suite.store.repos.users.findByAccount(text)).toBeUndefined();
      expect(await suite.store.repos.users.findCredentialsByAccount(text)).toBeUndefined();
      expect(await suite.store.repos.users.findBySubjectId(text)).toBeUndefined();
      expect(await suite.store.repos.users.update(text, { displayName: 'x' }, 2)).toBe(false);
      expect(await suite.store.repos.users.setPasswordHash(text, 'hash', 2)).toBe(false);
    }
  });

  it('changes only the given profile fields and the update time', async () => {
    const user = aUser({ displayName: 'Before', email: 'before@example.com' });
    await suite.store.repos.users.insert(user, 'hash');
    expect(await suite.store.repos.users.update(user.subjectId, { displayName: 'After', emailVerified: true, isAdmin: true }, 9_000)).toBe(true);
    expect(await suite.store.repos.users.findBySubjectId(user.subjectId)).toEqual({ ...user, displayName: 'After', emailVerified: true, isAdmin: true, updatedAt: 9_000 });
    expect(await suite.store.repos.users.update(user.subjectId, { email: null, studentStatus: 'active', status: 'disabled' }, 9_500)).toBe(true);
    expect(await suite.store.repos.users.findBySubjectId(user.subjectId)).toMatchObject({ email: null, studentStatus: 'active', status: 'disabled', displayName: 'After', updatedAt: 9_500 });
    expect((await suite.store.repos.users.findCredentialsByAccount(user.account))?.passwordHash).toBe('hash');
    expect(await suite.store.repos.users.update(randomUUID(), { displayName: 'Nobody' }, 9_000)).toBe(false);
  });

  it('replaces the password hash and nothing else', async () => {
    const user = aUser();
    await suite.store.repos.users.insert(user, 'old hash');
    expect(await suite.store.repos.users.setPasswordHash(user.subjectId, 'new hash', 7_000)).toBe(true);
    expect(await suite.store.repos.users.findCredentialsByAccount(user.account)).toEqual({ user: { ...user, updatedAt: 7_000 }, passwordHash: 'new hash' });
    expect(await suite.store.repos.users.setPasswordHash(randomUUID(), 'new hash', 7_000)).toBe(false);
  });

  it('lists every user by account name, whatever its case, and counts them', async () => {
    for (const account of ['zz-Charlie', 'zz-alpha', 'ZZ-Bravo']) await suite.store.repos.users.insert(aUser({ account }), 'hash');
    const users = await suite.store.repos.users.list();
    expect(users).toHaveLength(await suite.store.repos.users.count());
    expect(users.map((user) => user.account).filter((account) => account.toLowerCase().startsWith('zz-'))).toEqual(['zz-alpha', 'ZZ-Bravo', 'zz-Charlie']);
    expect(users.some((user) => user.account === 'Grace.Hopper')).toBe(true);
  });

  it('names the first-created administrator who is still active', async () => {
    const fresh = await createTestDatabase(engine);
    const db = openDatabase(fresh.url);
    try {
      await migrateToLatest(db.db);
      const repos = createStore(db.db, engine).repos;
      expect(await repos.users.findOldestActiveAdmin()).toBeUndefined();
      await repos.users.insert(aUser({ createdAt: 1 }), 'hash');
      await repos.users.insert(aUser({ isAdmin: true, status: 'disabled', createdAt: 2 }), 'hash');
      const [tieB, tieA] = [aUser({ subjectId: 'b-admin', isAdmin: true, createdAt: 3 }), aUser({ subjectId: 'a-admin', isAdmin: true, createdAt: 3 })];
      await repos.users.insert(tieB, 'hash');
      await repos.users.insert(tieA, 'hash');
      await repos.users.insert(aUser({ isAdmin: true, createdAt: 4 }), 'hash');
      expect(await repos.users.findOldestActiveAdmin()).toEqual(tieA);
    } finally {
      await db.close();
      await fresh.drop();
    }
  });
});
