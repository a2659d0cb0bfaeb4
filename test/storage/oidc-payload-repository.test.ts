import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/digests.ts';
import type { ClientRecord } from '../../src/storage/repositories/client-repository.ts';
import type { OidcArtifact } from '../../src/storage/repositories/oidc-payload-repository.ts';
import { TEST_ENGINES } from '../helpers/engines.ts';
import { useMigratedStore } from '../helpers/migrated-store.ts';

const NOW = Date.UTC(2026, 10, 26, 12);
const HOUR = 3600_000;

const artifact = (kind: string, id: string, fields: Partial<OidcArtifact> = {}): OidcArtifact => ({
  kind,
  id,
  payload: { jti: id, kind, ...(fields.accountId ? { accountId: fields.accountId } : {}), ...(fields.grantId ? { grantId: fields.grantId } : {}) },
  grantId: null,
  uid: null,
  accountId: null,
  expiresAt: NOW + HOUR,
  ...fields,
});

describe.each(TEST_ENGINES)('oidc_payloads repository on %s', (engine) => {
  const suite = useMigratedStore(engine);

  const payloads = () => suite.store.repos.oidcPayloads;
  const rowsOf = (kind: string) => suite.db.selectFrom('oidc_payloads').selectAll().where('kind', '=', kind).execute();

  it('stores only the digest of an id: the row and its payload never hold the id, and a find by the id fills jti in again', async () => {
    const token = 'at-token-value-0123456789abcdefghijklmnop';
    await payloads().upsert(artifact('AccessToken', token, { grantId: 'grant-1', accountId: 'subject-1', payload: { jti: token, kind: 'AccessToken', grantId: 'grant-1', accountId: 'subject-1', scope: 'openid' } }));
    const [row] = await rowsOf('AccessToken');
    expect(row!.id).toBe(sha256Hex(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.parse(row!.payload)).toEqual({ kind: 'AccessToken', grantId: 'grant-1', accountId: 'subject-1', scope: 'openid' });
    expect(row).toMatchObject({ grant_id: 'grant-1', account_id: 'subject-1', expires_at: NOW + HOUR, consumed_at: null });

    expect(await payloads().find('AccessToken', token, NOW)).toEqual({
      payload: { jti: token, kind: 'AccessToken', grantId: 'grant-1', accountId: 'subject-1', scope: 'openid' },
      consumedAt: null,
    });
    // The digest itself is no key: presenting what a database reader sees finds nothing.
    expect(await payloads().find('AccessToken', sha256Hex(token), NOW)).toBeUndefined();
    expect(await payloads().find('RefreshToken', token, NOW)).toBeUndefined();
  });

  it('replaces an artifact on upsert (un-consuming it), hides it once expired, and destroys it', async () => {
    await payloads().upsert(artifact('AuthorizationCode', 'code-1', { expiresAt: NOW + 60_000 }));
    expect(await payloads().consume('AuthorizationCode', 'code-1', NOW)).toBe(true);
    expect((await payloads().find('AuthorizationCode', 'code-1', NOW))?.consumedAt).toBe(NOW);
    await payloads().upsert(artifact('AuthorizationCode', 'code-1', { expiresAt: NOW + 60_000, payload: { jti: 'code-1', scope: 'openid email' } }));
    expect(await payloads().find('AuthorizationCode', 'code-1', NOW)).toEqual({ payload: { jti: 'code-1', scope: 'openid email' }, consumedAt: null });
    expect(await payloads().find('AuthorizationCode', 'code-1', NOW + 60_000)).toBeUndefined();
    await payloads().destroy('AuthorizationCode', 'code-1');
    expect(await rowsOf('AuthorizationCode')).toEqual([]);
  });

  it('keeps a payload without expiry for ever', async () => {
    await payloads().upsert(artifact('Grant', 'grant-forever', { expiresAt: null }));
    expect(await payloads().find('Grant', 'grant-forever', NOW + 10 * 365 * 24 * HOUR)).toBeDefined();
    await payloads().destroy('Grant', 'grant-forever');
  });

  it('consumes once: of concurrent consumers exactly one wins', async () => {
    await payloads().upsert(artifact('RefreshToken', 'rt-race'));
    const results = await Promise.all(Array.from({ length: 8 }, () => payloads().consume('RefreshToken', 'rt-race', NOW)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await payloads().consume('RefreshToken', 'absent', NOW)).toBe(false);
  });

  it('finds a session by uid, without the id it cannot know', async () => {
    await payloads().upsert(artifact('Session', 'session-cookie-value', { uid: 'uid-1', accountId: 'subject-1', payload: { jti: 'session-cookie-value', uid: 'uid-1', accountId: 'subject-1' } }));
    expect(await payloads().findByUid('Session', 'uid-1', NOW)).toEqual({ payload: { uid: 'uid-1', accountId: 'subject-1' }, consumedAt: null });
    expect(await payloads().findByUid('Session', 'uid-2', NOW)).toBeUndefined();
    expect(await payloads().findByUid('Session', 'uid-1', NOW + 2 * HOUR)).toBeUndefined();
  });

  it('revokes by grant id per kind, and a grant with its codes and tokens from one of them', async () => {
    await payloads().upsert(artifact('Grant', 'grant-a', { accountId: 'subject-2' }));
    await payloads().upsert(artifact('AccessToken', 'at-a', { grantId: 'grant-a' }));
    await payloads().upsert(artifact('RefreshToken', 'rt-a', { grantId: 'grant-a' }));
    await payloads().upsert(artifact('AuthorizationCode', 'code-a', { grantId: 'grant-a' }));
    await payloads().upsert(artifact('AccessToken', 'at-b', { grantId: 'grant-b' }));
    await payloads().upsert(artifact('Grant', 'grant-b'));

    await payloads().revokeByGrantId('AccessToken', 'grant-a');
    expect(await payloads().find('AccessToken', 'at-a', NOW)).toBeUndefined();
    expect(await payloads().find('RefreshToken', 'rt-a', NOW)).toBeDefined();

    await payloads().revokeGrantOf('RefreshToken', 'rt-a');
    for (const [kind, id] of [['Grant', 'grant-a'], ['RefreshToken', 'rt-a'], ['AuthorizationCode', 'code-a']] as const) {
      expect(await payloads().find(kind, id, NOW)).toBeUndefined();
    }
    expect(await payloads().find('AccessToken', 'at-b', NOW)).toBeDefined();
    expect(await payloads().find('Grant', 'grant-b', NOW)).toBeDefined();
  });

  it('revokes every artifact of one person, kind by kind, inside a transaction, and nothing of anyone else', async () => {
    const kinds = ['Session', 'Grant', 'AccessToken', 'RefreshToken', 'AuthorizationCode', 'Interaction'];
    for (const person of ['leaver', 'stayer']) {
      for (const kind of kinds) await payloads().upsert(artifact(kind, `${person}-${kind}`, { accountId: person, grantId: kind === 'Grant' ? null : `${person}-Grant` }));
    }
    // An artifact that already expired is the person's too.
    await payloads().upsert(artifact('AccessToken', 'leaver-expired', { accountId: 'leaver', expiresAt: NOW - 1 }));

    // Rolled back with the transaction it ran in: nothing goes.
    await expect(suite.store.transaction(async (repos) => {
      expect(await repos.oidcPayloads.revokeAllForAccount('leaver')).toBe(7);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    for (const kind of kinds) expect(await payloads().find(kind, `leaver-${kind}`, NOW)).toBeDefined();

    expect(await suite.store.transaction((repos) => repos.oidcPayloads.revokeAllForAccount('leaver'))).toBe(7);
    for (const kind of kinds) {
      expect(await payloads().find(kind, `leaver-${kind}`, NOW), kind).toBeUndefined();
      expect(await payloads().find(kind, `stayer-${kind}`, NOW), kind).toBeDefined();
    }
    expect(await suite.db.selectFrom('oidc_payloads').select('kind').where('account_id', '=', 'leaver').execute()).toEqual([]);
    expect(await payloads().revokeAllForAccount('leaver')).toBe(0);
  });

  it('prunes expired rows in batches and keeps live and unexpiring ones', async () => {
    for (let i = 0; i < 25; i += 1) await payloads().upsert(artifact('Interaction', `old-${i}`, { expiresAt: NOW - 1 }));
    await payloads().upsert(artifact('Interaction', 'live', { expiresAt: NOW + 1 }));
    await payloads().upsert(artifact('Grant', 'unexpiring', { expiresAt: null }));
    const expiredBefore = (await suite.db.selectFrom('oidc_payloads').select('id').where('expires_at', '<', NOW).execute()).length;
    expect(expiredBefore).toBeGreaterThanOrEqual(25);
    expect(await payloads().pruneExpired(NOW, 10)).toBe(expiredBefore);
    expect(await suite.db.selectFrom('oidc_payloads').select('id').where('expires_at', '<', NOW).execute()).toEqual([]);
    expect(await payloads().find('Interaction', 'live', NOW)).toBeDefined();
    expect(await payloads().find('Grant', 'unexpiring', NOW)).toBeDefined();
    expect(await payloads().pruneExpired(NOW, 10)).toBe(0);
  });

  it('lists the grants of native clients only, newest first and in pages, notes their use at most once an interval, and finds one by id', async () => {
    await suite.store.repos.projects.insert({ projectId: 'prj_grants', name: 'Grants', description: '', status: 'active', version: 1, createdAt: 1, updatedAt: 1 });
    const client = (clientId: string, clientType: 'web' | 'native'): ClientRecord => ({
      clientId, projectId: 'prj_grants', clientType, displayName: `Client ${clientId}`, description: '', redirectUris: ['http://127.0.0.1/cb'],
      postLogoutRedirectUris: [], scopeWhitelist: ['openid'], requirePkce: true, claimsInIdToken: false, status: 'active', revision: 1, clientVersion: 1, createdAt: 1, updatedAt: 1,
    });
    await suite.store.repos.clients.insert(client('cli_native', 'native'), null);
    await suite.store.repos.clients.insert(client('cli_web', 'web'), null);
    await suite.store.repos.users.insert({ subjectId: 'sub-grants', account: 'grace', displayName: 'Grace', email: null, emailVerified: false, studentStatus: 'unknown', isAdmin: false, status: 'active', createdAt: 1, updatedAt: 1 }, 'hash');
    const grant = (grantId: string, clientId: string, expiresAt: number) =>
      payloads().upsert(artifact('Grant', grantId, { grantId, accountId: 'sub-grants', expiresAt, payload: { jti: grantId, accountId: 'sub-grants', clientId, iat: 1 } }));
    await grant('grant-a', 'cli_native', NOW + 3 * HOUR);
    await grant('grant-b', 'cli_native', NOW + 2 * HOUR);
    await grant('grant-c', 'cli_native', NOW + 2 * HOUR);
    await grant('grant-web', 'cli_web', NOW + 4 * HOUR);
    await grant('grant-old', 'cli_native', NOW - 1);
    await payloads().upsert(artifact('AccessToken', 'at-of-b', { grantId: 'grant-b', accountId: 'sub-grants', payload: { jti: 'at-of-b', grantId: 'grant-b', clientId: 'cli_native', iat: 100 } }));

    const all = await payloads().listAssistantGrants(NOW, { limit: 10 });
    expect(all.map((g) => g.grantId)).toEqual(['grant-a', 'grant-c', 'grant-b']);
    expect(all[0]).toMatchObject({ clientId: 'cli_native', clientDisplayName: 'Client cli_native', subjectId: 'sub-grants', account: 'grace', expiresAt: NOW + 3 * HOUR, lastUsedAt: null });
    expect(all[2]!.lastUsedAt).toBe(100_000);
    const first = await payloads().listAssistantGrants(NOW, { limit: 2 });
    expect(first.map((g) => g.grantId)).toEqual(['grant-a', 'grant-c']);
    const rest = await payloads().listAssistantGrants(NOW, { limit: 2, before: { expiresAt: first[1]!.expiresAt, grantId: first[1]!.grantId } });
    expect(rest.map((g) => g.grantId)).toEqual(['grant-b']);

    expect(await payloads().findAssistantGrant('grant-a', NOW)).toEqual({ accountId: 'sub-grants', clientId: 'cli_native' });
    expect(await payloads().findAssistantGrant('grant-web', NOW)).toBeUndefined();
    expect(await payloads().findAssistantGrant('grant-old', NOW)).toBeUndefined();
    expect(await payloads().findAssistantGrant('\u0000', NOW)).toBeUndefined();

    const lastUsedOf = async (grantId: string) => (await payloads().listAssistantGrants(NOW, { limit: 10 })).find((g) => g.grantId === grantId)!.lastUsedAt;
    await payloads().noteGrantUsed('grant-a', NOW, 60_000);
    expect(await lastUsedOf('grant-a')).toBe(NOW);
    await payloads().noteGrantUsed('grant-a', NOW + 59_999, 60_000);
    expect(await lastUsedOf('grant-a')).toBe(NOW);
    await payloads().noteGrantUsed('grant-a', NOW + 60_000, 60_000);
    expect(await lastUsedOf('grant-a')).toBe(NOW + 60_000);
    // A grant written again by oidc-provider keeps its last use; a person's own list shows it too.
    await grant('grant-a', 'cli_native', NOW + 3 * HOUR);
    expect(await lastUsedOf('grant-a')).toBe(NOW + 60_000);
    expect((await payloads().listGrantsOf('sub-grants', NOW)).find((g) => g.grantId === 'grant-a')!.lastIssuedAt).toBe(NOW + 60_000);
  });

  it('finds nothing, and fails nothing, for ids, uids and accounts no row can hold (NUL, unpaired surrogates)', async () => {
    for (const strange of ['nul\u0000id', 'lone\uD800surrogate', '\uDC00']) {
      expect(await payloads().find('AccessToken', strange, NOW)).toBeUndefined();
      expect(await payloads().findByUid('Session', strange, NOW)).toBeUndefined();
      expect(await payloads().consume('RefreshToken', strange, NOW)).toBe(false);
      await payloads().destroy('AccessToken', strange);
      await payloads().revokeByGrantId('AccessToken', strange);
      await payloads().revokeGrantOf('RefreshToken', strange);
      expect(await payloads().revokeAllForAccount(strange)).toBe(0);
    }
  });
});
