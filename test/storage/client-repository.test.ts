import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import type { ClientRecord } from '../../src/storage/repositories/client-repository.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

// Ids no row can hold: PostgreSQL refuses a NUL in text outright, and an unpaired surrogate is not Unicode.
const UNSTORABLE_IDS = ['cli_\u0000x', 'cli_\ud800x', '\udfff'];

describe.each(TEST_ENGINES)('client and client secret repositories on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  let store: Store;
  const projectId = 'prj_clients';
  const archivedProjectId = 'prj_archived';
  let counter = 0;
  const client = (overrides: Partial<ClientRecord> = {}): ClientRecord => {
    counter += 1;
    return {
      clientId: `cli_test${counter}`,
      projectId,
      clientType: 'web',
      displayName: `Client ${counter}`,
      description: 'A client',
      redirectUris: ['https://rp.example.com/cb', 'com.example.app:/cb'],
      postLogoutRedirectUris: ['https://rp.example.com/bye'],
      scopeWhitelist: ['openid', 'profile', 'offline_access'],
      requirePkce: false,
      claimsInIdToken: false,
      status: 'active',
      revision: 1,
      clientVersion: 1,
      createdAt: 1000 + counter,
      updatedAt: 1000 + counter,
      ...overrides,
    };
  };

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
    await migrateToLatest(opened.db);
    store = createStore(opened.db, engine);
    await store.repos.projects.insert({ projectId, name: 'Clients', description: '', status: 'active', version: 1, createdAt: 1, updatedAt: 1 });
    await store.repos.projects.insert({ projectId: archivedProjectId, name: 'Old', description: '', status: 'archived', version: 1, createdAt: 1, updatedAt: 1 });
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  describe('clients and their revisions', () => {
    it('knows whether any client exists', async () => {
      expect(await store.repos.clients.anyExists()).toBe(false);
      await store.repos.clients.insert(client(), null);
      expect(await store.repos.clients.anyExists()).toBe(true);
    });

    it('inserts a client as revision 1 of its history and reads it back whole, only through its own project', async () => {
      const record = client({ clientType: 'spa', requirePkce: true, scopeWhitelist: ['openid', 'email'] });
      await store.repos.clients.insert(record, 'sub-creator');
      expect(await store.repos.clients.find(projectId, record.clientId)).toEqual(record);
      expect(await store.transaction((repos) => repos.clients.find(projectId, record.clientId, { forUpdate: true }))).toEqual(record);
      expect(await store.repos.clients.find(archivedProjectId, record.clientId)).toBeUndefined();
      expect(await store.repos.clients.find(projectId, 'cli_missing')).toBeUndefined();
      expect(await store.repos.clients.listRevisions(record.clientId)).toEqual([
        { clientId: record.clientId, revision: 1, redirectUris: record.redirectUris, postLogoutRedirectUris: record.postLogoutRedirectUris, scopeWhitelist: record.scopeWhitelist, requirePkce: true, createdBy: 'sub-creator', createdAt: record.createdAt },
      ]);
    });

    it('lists a project\'s clients oldest first', async () => {
      const otherProject = 'prj_list';
      await store.repos.projects.insert({ projectId: otherProject, name: 'List', description: '', status: 'active', version: 1, createdAt: 1, updatedAt: 1 });
      const late = client({ projectId: otherProject, createdAt: 50 });
      const early = client({ projectId: otherProject, createdAt: 40 });
      await store.repos.clients.insert(late, null);
      await store.repos.clients.insert(early, null);
      expect(await store.repos.clients.listByProject(otherProject)).toEqual([early, late]);
      expect(await store.repos.clients.listByProject('prj_missing')).toEqual([]);
    });

    it('changes metadata only at the expected client version, bumping it; a stale version changes nothing', async () => {
      const record = client();
      await store.repos.clients.insert(record, null);
      expect(await store.repos.clients.updateIfVersion(record.clientId, 1, { displayName: 'Renamed', status: 'disabled', updatedAt: 9000 })).toBe(true);
      const changed = { ...record, displayName: 'Renamed', status: 'disabled' as const, clientVersion: 2, updatedAt: 9000 };
      expect(await store.repos.clients.find(projectId, record.clientId)).toEqual(changed);
      expect(await store.repos.clients.updateIfVersion(record.clientId, 1, { description: 'Lost update', updatedAt: 9500 })).toBe(false);
      expect(await store.repos.clients.find(projectId, record.clientId)).toEqual(changed);
      expect(await store.repos.clients.updateIfVersion('cli_missing', 1, { updatedAt: 1 })).toBe(false);
    });

    it('revises the configuration at the expected version and records the revision; a stale version records nothing', async () => {
      const record = client();
      await store.repos.clients.insert(record, null);
      const configuration = { redirectUris: ['https://rp.example.com/new'], postLogoutRedirectUris: [], scopeWhitelist: ['openid' as const], requirePkce: true, claimsInIdToken: true };
      expect(await store.repos.clients.reviseIfVersion(record.clientId, 1, { revision: 2, configuration, createdBy: 'sub-reviser', updatedAt: 7000 })).toBe(true);
      expect(await store.repos.clients.find(projectId, record.clientId)).toEqual({ ...record, ...configuration, revision: 2, clientVersion: 2, updatedAt: 7000 });

      expect(await store.repos.clients.reviseIfVersion(record.clientId, 1, { revision: 2, configuration: { ...configuration, requirePkce: false }, createdBy: null, updatedAt: 8000 })).toBe(false);
      const history = await store.repos.clients.listRevisions(record.clientId);
      expect(history.map((r) => [r.revision, r.redirectUris, r.createdBy])).toEqual([
        [1, record.redirectUris, null],
        [2, ['https://rp.example.com/new'], 'sub-reviser'],
      ]);
      expect((await store.repos.clients.find(projectId, record.clientId))?.requirePkce).toBe(true);
    });

    it('reads a client for the protocol in one statement: its project\'s status and its live secrets with their digests', async () => {
      const record = client();
      await store.repos.clients.insert(record, null);
      expect(await store.repos.clients.findForProtocol(record.clientId)).toEqual({ client: record, projectStatus: 'active', secrets: [] });

      const secrets = store.repos.clientSecrets;
      await secrets.insert({ secretId: 'sec_a', clientId: record.clientId, digest: 'digest-a', createdAt: 10 });
      await secrets.insert({ secretId: 'sec_b', clientId: record.clientId, digest: 'digest-b', createdAt: 20 });
      await secrets.insert({ secretId: 'sec_c', clientId: record.clientId, digest: 'digest-c', createdAt: 30 });
      await secrets.retire('sec_b', 5000);
      await secrets.revoke(['sec_c'], 40);
      const found = await store.repos.clients.findForProtocol(record.clientId);
      expect(found?.client).toEqual(record);
      expect(found?.secrets).toEqual([
        { secretId: 'sec_a', clientId: record.clientId, digest: 'digest-a', status: 'active', createdAt: 10, expiresAt: null, lastUsedAt: null },
        { secretId: 'sec_b', clientId: record.clientId, digest: 'digest-b', status: 'retiring', createdAt: 20, expiresAt: 5000, lastUsedAt: null },
      ]);

      const suspended = client({ projectId: archivedProjectId });
      await store.repos.clients.insert(suspended, null);
      expect((await store.repos.clients.findForProtocol(suspended.clientId))?.projectStatus).toBe('archived');
      expect(await store.repos.clients.findForProtocol('cli_missing')).toBeUndefined();
    });

    it('finds nothing, and never fails, for ids holding NUL or unpaired surrogates', async () => {
      for (const id of UNSTORABLE_IDS) {
        expect(await store.repos.clients.find(projectId, id, { forUpdate: true })).toBeUndefined();
        expect(await store.repos.clients.find(id, 'cli_test1')).toBeUndefined();
        expect(await store.repos.clients.listByProject(id)).toEqual([]);
        expect(await store.repos.clients.findForProtocol(id)).toBeUndefined();
        expect(await store.repos.clients.listRevisions(id)).toEqual([]);
        expect(await store.repos.clients.updateIfVersion(id, 1, { updatedAt: 1 })).toBe(false);
      }
    });
  });

  describe('client secrets', () => {
    let clientId: string;
    beforeAll(async () => {
      const record = client();
      clientId = record.clientId;
      await store.repos.clients.insert(record, null);
    });

    it('stores a new secret as active and shows its metadata, never its digest', async () => {
      const inserted = await store.repos.clientSecrets.insert({ secretId: 'sec_one', clientId, digest: 'digest-one', createdAt: 100 });
      const expected = { secretId: 'sec_one', clientId, status: 'active', createdAt: 100, expiresAt: null, lastUsedAt: null };
      expect(inserted).toEqual(expected);
      expect(await store.repos.clientSecrets.find(clientId, 'sec_one')).toEqual(expected);
      expect(await store.repos.clientSecrets.listForClients([clientId, 'cli_missing'])).toEqual([expected]);
      expect(JSON.stringify(await store.repos.clientSecrets.listForClients([clientId]))).not.toContain('digest-one');
      expect(await store.repos.clientSecrets.listForClients([])).toEqual([]);
      // A secret is found only through its own client.
      expect(await store.repos.clientSecrets.find('cli_other', 'sec_one')).toBeUndefined();
    });

    it('moves through its statuses: active -> retiring -> revoked, never back', async () => {
      await store.repos.clientSecrets.insert({ secretId: 'sec_two', clientId, digest: 'digest-two', createdAt: 200 });
      expect(await store.repos.clientSecrets.retire('sec_two', 900)).toBe(true);
      expect(await store.repos.clientSecrets.find(clientId, 'sec_two')).toMatchObject({ status: 'retiring', expiresAt: 900 });
      // Only an active secret retires.
      expect(await store.repos.clientSecrets.retire('sec_two', 1900)).toBe(false);
      expect(await store.repos.clientSecrets.find(clientId, 'sec_two')).toMatchObject({ status: 'retiring', expiresAt: 900 });

      // Revoking an expired retiring secret keeps the moment it stopped.
      expect(await store.repos.clientSecrets.revoke(['sec_two'])).toBe(1);
      expect(await store.repos.clientSecrets.find(clientId, 'sec_two')).toMatchObject({ status: 'revoked', expiresAt: 900 });
      expect(await store.repos.clientSecrets.revoke(['sec_two'], 1000)).toBe(0);
      expect(await store.repos.clientSecrets.retire('sec_two', 2000)).toBe(false);
      expect(await store.repos.clientSecrets.find(clientId, 'sec_two')).toMatchObject({ status: 'revoked', expiresAt: 900 });

      // Revoking a working secret at once records when.
      await store.repos.clientSecrets.insert({ secretId: 'sec_three', clientId, digest: 'digest-three', createdAt: 300 });
      expect(await store.repos.clientSecrets.revoke(['sec_three', 'sec_missing'], 350)).toBe(1);
      expect(await store.repos.clientSecrets.find(clientId, 'sec_three')).toMatchObject({ status: 'revoked', expiresAt: 350 });
      expect(await store.repos.clientSecrets.revoke([])).toBe(0);
    });

    it('notes when a secret was last used', async () => {
      await store.repos.clientSecrets.noteUsed('sec_one', 4242);
      expect(await store.repos.clientSecrets.find(clientId, 'sec_one')).toMatchObject({ lastUsedAt: 4242 });
    });

    it('finds nothing, and never fails, for ids holding NUL or unpaired surrogates', async () => {
      for (const id of UNSTORABLE_IDS) {
        expect(await store.repos.clientSecrets.find(clientId, id)).toBeUndefined();
        expect(await store.repos.clientSecrets.find(id, 'sec_one')).toBeUndefined();
        expect(await store.repos.clientSecrets.listForClients([id])).toEqual([]);
        expect(await store.repos.clientSecrets.revoke([id], 1)).toBe(0);
        expect(await store.repos.clientSecrets.retire(id, 1)).toBe(false);
        await store.repos.clientSecrets.noteUsed(id, 1);
      }
    });
  });
});
