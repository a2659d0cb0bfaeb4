import { describe, expect, it } from 'vitest';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

const NOW = Date.UTC(2026, 10, 28, 12);
const HOUR = 3600_000;

describe.each(TEST_ENGINES)('remembered_consents repository on %s', (engine) => {
  const suite = useMigratedStore(engine);
  const consents = () => suite.store.repos.rememberedConsents;
  const rowsOf = (subjectId: string) => suite.db.selectFrom('remembered_consents').selectAll().where('subject_id', '=', subjectId).orderBy('client_id').execute();

  it('remembers the scopes per person and client until they expire, the last save replacing the one before', async () => {
    expect(await consents().scopes('subject-1', 'client-1', NOW)).toEqual([]);
    await consents().save('subject-1', 'client-1', ['openid'], NOW + HOUR, NOW);
    await consents().save('subject-1', 'client-1', ['openid', 'email'], NOW + 2 * HOUR, NOW);
    await consents().save('subject-1', 'client-2', ['openid'], NOW + HOUR, NOW);
    expect(await consents().scopes('subject-1', 'client-1', NOW)).toEqual(['openid', 'email']);
    expect(await consents().scopes('subject-1', 'client-2', NOW)).toEqual(['openid']);
    expect(await consents().scopes('subject-2', 'client-1', NOW)).toEqual([]);
    expect(await consents().scopes('subject-1', 'client-2', NOW + HOUR)).toEqual([]);
    expect(await rowsOf('subject-1')).toEqual([
      { subject_id: 'subject-1', client_id: 'client-1', scopes: '["openid","email"]', expires_at: NOW + 2 * HOUR },
      { subject_id: 'subject-1', client_id: 'client-2', scopes: '["openid"]', expires_at: NOW + HOUR },
    ]);
  });

  it('drops the expired ones when another is saved', async () => {
    await consents().save('subject-old', 'client-1', ['openid'], NOW - 1, NOW - HOUR);
    await consents().save('subject-old', 'client-2', ['openid'], NOW + HOUR, NOW - HOUR);
    expect(await rowsOf('subject-old')).toHaveLength(2);
    await consents().save('subject-new', 'client-1', ['openid'], NOW + HOUR, NOW);
    expect((await rowsOf('subject-old')).map((row) => row.client_id)).toEqual(['client-2']);
  });

  it('forgets one person\'s consent for one client, or everyone\'s for a client, and nothing else', async () => {
    for (const subject of ['subject-a', 'subject-b']) {
      for (const client of ['client-x', 'client-y']) await consents().save(subject, client, ['openid'], NOW + HOUR, NOW);
    }
    await consents().forget('subject-a', 'client-x');
    expect(await consents().scopes('subject-a', 'client-x', NOW)).toEqual([]);
    expect(await consents().scopes('subject-a', 'client-y', NOW)).toEqual(['openid']);
    expect(await consents().scopes('subject-b', 'client-x', NOW)).toEqual(['openid']);

    // Inside a transaction that rolls back, nothing is forgotten.
    await expect(suite.store.transaction(async (repos) => {
      await repos.rememberedConsents.forgetClient('client-y');
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(await consents().scopes('subject-a', 'client-y', NOW)).toEqual(['openid']);

    await suite.store.transaction((repos) => repos.rememberedConsents.forgetClient('client-y'));
    expect(await consents().scopes('subject-a', 'client-y', NOW)).toEqual([]);
    expect(await consents().scopes('subject-b', 'client-y', NOW)).toEqual([]);
    expect(await consents().scopes('subject-b', 'client-x', NOW)).toEqual(['openid']);
  });

  it('outlasts the end of every artifact of the person: consent is no credential', async () => {
    await consents().save('leaver', 'client-1', ['openid', 'profile'], NOW + HOUR, NOW);
    await suite.store.repos.oidcPayloads.upsert({ kind: 'Grant', id: 'leaver-grant', payload: { accountId: 'leaver', clientId: 'client-1' }, grantId: 'leaver-grant', uid: null, accountId: 'leaver', expiresAt: NOW + HOUR });
    expect(await suite.store.transaction((repos) => repos.oidcPayloads.revokeAllForAccount('leaver'))).toBe(1);
    expect(await suite.store.transaction((repos) => repos.oidcPayloads.revokeAllForClient('client-1'))).toBe(0);
    expect(await consents().scopes('leaver', 'client-1', NOW)).toEqual(['openid', 'profile']);
  });

  it('finds nothing, and fails nothing, for people and clients no row can hold (NUL, unpaired surrogates)', async () => {
    for (const strange of ['nul\u0000id', 'lone\uD800surrogate', '\uDC00']) {
      expect(await consents().scopes(strange, 'client-1', NOW)).toEqual([]);
      expect(await consents().scopes('subject-1', strange, NOW)).toEqual([]);
      await consents().forget(strange, strange);
      await consents().forgetClient(strange);
    }
  });
});
