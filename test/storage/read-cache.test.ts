import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../src/domain/accounts.ts';
import type { ChangeFeed } from '../../src/storage/change-feed.ts';
import { followChanges, openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createReadCache, readCacheOf } from '../../src/storage/read-cache.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { aUser } from '../helpers/a-user.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

const user = (subjectId: string, displayName: string): User => aUser({ subjectId, account: subjectId, displayName });

describe('the read cache', () => {
  it('does not keep what a read that began before an invalidation returns', async () => {
    const cache = createReadCache();
    cache.attach({ fresh: () => true });
    let finish!: (value: User) => void;
    const slow = cache.user('u1', () => new Promise((resolve) => (finish = resolve)));
    cache.written([{ table: 'users', columns: ['status'] }]);
    finish(user('u1', 'old'));
    expect((await slow)?.displayName).toBe('old');
    expect((await cache.user('u1', async () => user('u1', 'new')))?.displayName).toBe('new');
    // Kept now, and frozen: every request shares it.
    const kept = await cache.user('u1', async () => user('u1', 'unread'));
    expect(kept?.displayName).toBe('new');
    expect(Object.isFrozen(kept)).toBe(true);
  });

  it("does not keep a read during which the change source's mark moved (another process committed meanwhile)", async () => {
    const cache = createReadCache();
    let mark = 0;
    let seen = 0;
    cache.attach({
      fresh: () => {
        if (mark !== seen) {
          seen = mark;
          cache.clear();
        }
        return true;
      },
    });
    await cache.user('u1', async () => {
      mark += 1;
      return user('u1', 'read as the other process committed');
    });
    expect((await cache.user('u1', async () => user('u1', 'read again')))?.displayName).toBe('read again');
  });

  it('answers nothing from memory while its change source cannot vouch for it, and keeps nothing read meanwhile', async () => {
    const cache = createReadCache();
    let fresh = false;
    cache.attach({ fresh: () => fresh });
    await cache.user('u1', async () => user('u1', 'read while down'));
    fresh = true;
    expect((await cache.user('u1', async () => user('u1', 'read')))?.displayName).toBe('read');
    fresh = false;
    expect((await cache.user('u1', async () => user('u1', 'down again')))?.displayName).toBe('down again');
  });
});

describe.each(TEST_ENGINES)('cached reads of a store on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  let store: Store;
  let feed: ChangeFeed;
  let statements: string[] = [];
  /** The notifications the cache heard, `<table>:<key>`. */
  const heard: string[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url, { log: (event) => { if (event.level === 'query') statements.push(event.query.sql); } });
    await migrateToLatest(opened.db);
    store = createStore(opened.db, engine);
    feed = await followChanges(opened.db, { warn: () => {}, info: () => {} });
    const cache = readCacheOf(opened.db)!;
    const changed = cache.changed;
    cache.changed = (change) => {
      heard.push(`${change.table}:${change.key}`);
      changed(change);
    };
  });
  afterAll(async () => {
    await feed?.stop();
    await opened?.close();
    await database?.drop();
  });

  async function readsOf<T>(read: () => Promise<T>): Promise<{ value: T; reads: number }> {
    statements = [];
    const value = await read();
    return { value, reads: statements.filter((sql) => sql.startsWith('select')).length };
  }

  /**
   * On PostgreSQL this process's own committed writes come back as notifications a moment later, each emptying
   * its entry once more: waits until these were heard, so they cannot land in the middle of what follows.
   */
  async function heardBack(...changes: string[]): Promise<void> {
    if (engine !== 'postgres') return;
    const start = Date.now();
    while (!changes.every((change) => heard.includes(change))) {
      if (Date.now() - start > 1_000) throw new Error(`not notified of ${changes.join(', ')} within 1 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    heard.length = 0;
  }

  /** Reads until served from memory: on PostgreSQL the notifications of this process's own writes arrive a moment later and empty it once more. */
  async function cachedBy(read: () => Promise<unknown>): Promise<void> {
    const start = Date.now();
    while ((await readsOf(read)).reads > 0) {
      if (Date.now() - start > 1_000) throw new Error('not served from memory within 1 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('reads a person once, again after a committed change, and not after a rolled-back one', async () => {
    heard.length = 0;
    await store.repos.users.insert(user('cached-1', 'First'), 'hash');
    await heardBack('users:cached-1');
    const find = () => store.repos.users.findBySubjectId('cached-1');
    await cachedBy(find);
    expect(await readsOf(find)).toMatchObject({ reads: 0, value: { displayName: 'First' } });

    await store.transaction((repos) => repos.users.update('cached-1', { displayName: 'Second' }, 2));
    expect(await readsOf(find)).toMatchObject({ reads: 1, value: { displayName: 'Second' } });
    await heardBack('users:cached-1');
    await cachedBy(find);

    await expect(
      store.transaction(async (repos) => {
        await repos.users.update('cached-1', { displayName: 'Never' }, 3);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await readsOf(find)).toMatchObject({ reads: 0, value: { displayName: 'Second' } });
    // Inside a transaction the read sees the transaction, never the cache.
    expect((await readsOf(() => store.transaction((repos) => repos.users.findBySubjectId('cached-1')))).reads).toBe(1);
  });

  it("keeps a client when only a secret's last use is noted, and reads it again when a secret is revoked", async () => {
    const now = Date.now();
    heard.length = 0;
    await store.transaction(async (repos) => {
      await repos.projects.insert({ projectId: 'p-cache', name: 'Cache', description: '', status: 'active', version: 1, createdAt: now, updatedAt: now });
      await repos.clients.insert(
        { clientId: 'c-cache', projectId: 'p-cache', clientType: 'web', displayName: 'Cache', description: '', redirectUris: ['https://rp.example/cb'], postLogoutRedirectUris: [], scopeWhitelist: ['openid'], requirePkce: true, claimsInIdToken: false, status: 'active', revision: 1, clientVersion: 1, createdAt: now, updatedAt: now },
        null,
      );
      await repos.clientSecrets.insert({ secretId: 's-cache', clientId: 'c-cache', digest: 'd'.repeat(64), createdAt: now });
    });
    await heardBack('projects:p-cache', 'clients:c-cache', 'client_secrets:c-cache');
    const find = () => store.repos.clients.findForProtocol('c-cache');
    await cachedBy(find);
    await store.repos.clientSecrets.noteUsed('s-cache', now + 1);
    // Long enough for a notification to arrive, if one were sent.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await readsOf(find)).toMatchObject({ reads: 0, value: { secrets: [{ lastUsedAt: null }] } });
    await store.repos.clientSecrets.revoke(['s-cache'], now + 2);
    expect(await readsOf(find)).toMatchObject({ reads: 1, value: { secrets: [] } });
  });
});
