import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/domain/accounts.ts';
import { sha256Hex } from '../../src/domain/digests.ts';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import type { Session } from '../../src/storage/repositories/session-repository.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

const aDigest = () => sha256Hex(randomUUID());

describe.each(TEST_ENGINES)('session repository on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
    await migrateToLatest(opened.db);
    store = createStore(opened.db, engine);
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  async function aUser(overrides: Partial<User> = {}): Promise<User> {
    const user: User = {
      subjectId: randomUUID(),
      account: `user-${randomUUID().slice(0, 8)}`,
      displayName: 'Session Holder',
      email: 'holder@example.com',
      emailVerified: true,
      studentStatus: 'active',
      isAdmin: false,
      status: 'active',
      locale: null,
      createdAt: 100,
      updatedAt: 200,
      ...overrides,
    };
    await store.repos.users.insert(user, 'hash');
    return user;
  }

  const aSession = (user: User, overrides: Partial<Session> = {}): Session => ({
    sessionId: `ses_${randomUUID()}`,
    subjectId: user.subjectId,
    kind: 'agent',
    createdAt: 1_000,
    lastSeenAt: 1_000,
    expiresAt: 90_000,
    revokedAt: null,
    ...overrides,
  });

  it('finds a session by its digest together with its user, in their own fields', async () => {
    const user = await aUser({ isAdmin: true });
    const session = aSession(user, { kind: 'console', createdAt: 1_500, lastSeenAt: 1_600, expiresAt: 80_000 });
    const digest = aDigest();
    await store.repos.sessions.insert(digest, session);
    // The session's and the user's created times differ: neither may take the other's.
    expect(await store.repos.sessions.findWithUser(digest)).toEqual({ session, user });
    expect(await store.repos.sessions.findWithUser(aDigest())).toBeUndefined();
  });

  it('records when a session was last seen', async () => {
    const user = await aUser();
    const digest = aDigest();
    await store.repos.sessions.insert(digest, aSession(user));
    await store.repos.sessions.touch(digest, 61_000);
    expect((await store.repos.sessions.findWithUser(digest))?.session.lastSeenAt).toBe(61_000);
  });

  it('revokes a live session once, giving back the session it ended', async () => {
    const user = await aUser();
    const digest = aDigest();
    const session = aSession(user);
    await store.repos.sessions.insert(digest, session);
    expect(await store.repos.sessions.revoke(digest, 5_000)).toEqual({ ...session, revokedAt: 5_000 });
    expect(await store.repos.sessions.revoke(digest, 6_000)).toBeUndefined();
    expect((await store.repos.sessions.findWithUser(digest))?.session.revokedAt).toBe(5_000);
    expect(await store.repos.sessions.revoke(aDigest(), 6_000)).toBeUndefined();
  });

  it('lets only one of two racing revocations of one session end it', async () => {
    const user = await aUser();
    const digest = aDigest();
    await store.repos.sessions.insert(digest, aSession(user));
    const outcomes = await Promise.all([7_000, 7_001].map((at) => store.transaction((repos) => repos.sessions.revoke(digest, at))));
    expect(outcomes.filter((outcome) => outcome !== undefined)).toHaveLength(1);
  });

  it('revokes every live session of one user and no one else\'s, keeping earlier revocation times', async () => {
    const [user, other] = [await aUser(), await aUser()];
    const live = [aDigest(), aDigest()];
    const ended = aDigest();
    const others = aDigest();
    for (const digest of live) await store.repos.sessions.insert(digest, aSession(user));
    await store.repos.sessions.insert(ended, aSession(user, { kind: 'console', revokedAt: 2_000 }));
    await store.repos.sessions.insert(others, aSession(other));

    expect(await store.repos.sessions.revokeAllOf(user.subjectId, 8_000)).toBe(2);
    for (const digest of live) expect((await store.repos.sessions.findWithUser(digest))?.session.revokedAt).toBe(8_000);
    expect((await store.repos.sessions.findWithUser(ended))?.session.revokedAt).toBe(2_000);
    expect((await store.repos.sessions.findWithUser(others))?.session.revokedAt).toBeNull();
    expect(await store.repos.sessions.revokeAllOf(user.subjectId, 9_000)).toBe(0);
  });

  it('writes nothing when the transaction it wrote in rolls back', async () => {
    const user = await aUser();
    const digest = aDigest();
    await store.repos.sessions.insert(digest, aSession(user));
    await expect(
      store.transaction(async (repos) => {
        await repos.sessions.revokeAllOf(user.subjectId, 3_000);
        await repos.sessions.insert(aDigest(), aSession(user));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await store.repos.sessions.findWithUser(digest))?.session.revokedAt).toBeNull();
  });
});
