import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { User } from '../../src/domain/accounts.ts';
import { sha256Hex } from '../../src/domain/digests.ts';
import type { Session } from '../../src/storage/repositories/session-repository.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

const aDigest = () => sha256Hex(randomUUID());

describe.each(TEST_ENGINES)('session repository on %s', (engine) => {
  const suite = useMigratedStore(engine);

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
    await suite.store.repos.users.insert(user, 'hash');
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
    provenAt: 1_000,
    ...overrides,
  });

  it('finds a session by its digest together with its user, in their own fields', async () => {
    const user = await aUser({ isAdmin: true });
    const session = aSession(user, { kind: 'console', createdAt: 1_500, lastSeenAt: 1_600, expiresAt: 80_000 });
    const digest = aDigest();
    await suite.store.repos.sessions.insert(digest, session);
    // The session's and the user's created times differ: neither may take the other's.
    expect(await suite.store.repos.sessions.findWithUser(digest)).toEqual({ session, user });
    expect(await suite.store.repos.sessions.findWithUser(aDigest())).toBeUndefined();
  });

  it('records when a session was last seen', async () => {
    const user = await aUser();
    const digest = aDigest();
    await suite.store.repos.sessions.insert(digest, aSession(user));
    await suite.store.repos.sessions.touch(digest, 61_000);
    expect((await suite.store.repos.sessions.findWithUser(digest))?.session.lastSeenAt).toBe(61_000);
  });

  it('records when a live session proved the person again, and never for an ended one', async () => {
    const user = await aUser();
    const digest = aDigest();
    await suite.store.repos.sessions.insert(digest, aSession(user, { kind: 'console' }));
    expect(await suite.store.repos.sessions.markProven(digest, 7_000)).toBe(true);
    expect((await suite.store.repos.sessions.findWithUser(digest))?.session.provenAt).toBe(7_000);
    await suite.store.repos.sessions.revoke(digest, 8_000);
    expect(await suite.store.repos.sessions.markProven(digest, 9_000)).toBe(false);
    expect((await suite.store.repos.sessions.findWithUser(digest))?.session.provenAt).toBe(7_000);
    expect(await suite.store.repos.sessions.markProven(aDigest(), 9_000)).toBe(false);
  });

  it('revokes a live session once, giving back the session it ended', async () => {
    const user = await aUser();
    const digest = aDigest();
    const session = aSession(user);
    await suite.store.repos.sessions.insert(digest, session);
    expect(await suite.store.repos.sessions.revoke(digest, 5_000)).toEqual({ ...session, revokedAt: 5_000 });
    expect(await suite.store.repos.sessions.revoke(digest, 6_000)).toBeUndefined();
    expect((await suite.store.repos.sessions.findWithUser(digest))?.session.revokedAt).toBe(5_000);
    expect(await suite.store.repos.sessions.revoke(aDigest(), 6_000)).toBeUndefined();
  });

  it('lets only one of two racing revocations of one session end it', async () => {
    const user = await aUser();
    const digest = aDigest();
    await suite.store.repos.sessions.insert(digest, aSession(user));
    const outcomes = await Promise.all([7_000, 7_001].map((at) => suite.store.transaction((repos) => repos.sessions.revoke(digest, at))));
    expect(outcomes.filter((outcome) => outcome !== undefined)).toHaveLength(1);
  });

  it('revokes every live session of one user and no one else\'s, keeping earlier revocation times', async () => {
    const [user, other] = [await aUser(), await aUser()];
    const live = [aDigest(), aDigest()];
    const ended = aDigest();
    const others = aDigest();
    for (const digest of live) await suite.store.repos.sessions.insert(digest, aSession(user));
    await suite.store.repos.sessions.insert(ended, aSession(user, { kind: 'console', revokedAt: 2_000 }));
    await suite.store.repos.sessions.insert(others, aSession(other));

    expect(await suite.store.repos.sessions.revokeAllOf(user.subjectId, 8_000)).toBe(2);
    for (const digest of live) expect((await suite.store.repos.sessions.findWithUser(digest))?.session.revokedAt).toBe(8_000);
    expect((await suite.store.repos.sessions.findWithUser(ended))?.session.revokedAt).toBe(2_000);
    expect((await suite.store.repos.sessions.findWithUser(others))?.session.revokedAt).toBeNull();
    expect(await suite.store.repos.sessions.revokeAllOf(user.subjectId, 9_000)).toBe(0);
  });

  it('writes nothing when the transaction it wrote in rolls back', async () => {
    const user = await aUser();
    const digest = aDigest();
    await suite.store.repos.sessions.insert(digest, aSession(user));
    await expect(
      suite.store.transaction(async (repos) => {
        await repos.sessions.revokeAllOf(user.subjectId, 3_000);
        await repos.sessions.insert(aDigest(), aSession(user));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await suite.store.repos.sessions.findWithUser(digest))?.session.revokedAt).toBeNull();
  });
});
