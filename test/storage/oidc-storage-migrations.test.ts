import { Migrator, type Migration } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as initialSchema from '../../migrations/20261121000000-initial-schema.ts';
import { sha256Hex } from '../../src/domain/digests.ts';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

const NOW = Date.UTC(2026, 10, 26, 12);
const LATER = NOW + 3600_000;
const SUBJECT = '6f1c2a9e-0000-4000-8000-000000000001';
const TOKENS = {
  access: 'AT-plain-access-token-value-0123456789abcdef',
  refresh: 'RT-plain-refresh-token-value-0123456789abcdef',
  code: 'AC-plain-code-value-0123456789abcdefghij',
  session: 'SE-plain-session-cookie-0123456789abcdefgh',
  interaction: 'IN-plain-interaction-uid-0123456789abcd',
};

/** A database as it was before the digests: the initial schema, with rows holding tokens in clear. */
async function databaseBeforeDigests(opened: OpenedDatabase): Promise<void> {
  const migrator = new Migrator({
    db: opened.db,
    provider: { getMigrations: async () => ({ '20261121000000-initial-schema': initialSchema as Migration }) },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  const row = (kind: string, id: string, payload: Record<string, unknown>, extra: { grant_id?: string; uid?: string } = {}) => ({
    kind,
    id,
    payload: JSON.stringify(payload),
    grant_id: extra.grant_id ?? null,
    uid: extra.uid ?? null,
    expires_at: LATER,
    consumed_at: null,
  });
  await opened.db.insertInto('oidc_payloads' as never).values([
    row('AccessToken', TOKENS.access, { jti: TOKENS.access, kind: 'AccessToken', accountId: SUBJECT, grantId: 'grant-1', clientId: 'cli_1', scope: 'openid' }, { grant_id: 'grant-1' }),
    row('RefreshToken', TOKENS.refresh, { jti: TOKENS.refresh, kind: 'RefreshToken', accountId: SUBJECT, grantId: 'grant-1' }, { grant_id: 'grant-1' }),
    row('AuthorizationCode', TOKENS.code, { jti: TOKENS.code, kind: 'AuthorizationCode', accountId: SUBJECT, grantId: 'grant-1' }, { grant_id: 'grant-1' }),
    row('Grant', 'grant-1', { jti: 'grant-1', kind: 'Grant', accountId: SUBJECT, clientId: 'cli_1' }),
    row('Session', TOKENS.session, { jti: TOKENS.session, kind: 'Session', uid: 'session-uid-1', accountId: SUBJECT }, { uid: 'session-uid-1' }),
    row('Interaction', TOKENS.interaction, { jti: TOKENS.interaction, kind: 'Interaction', session: { accountId: SUBJECT, uid: 'session-uid-1', cookie: TOKENS.session } }),
    row('RememberedConsent', `${SUBJECT} cli_1`, { scopes: ['openid', 'profile'] }),
    row('AccessToken', 'unreadable-row', 'not json' as never),
  ] as never).execute();
  await opened.db.insertInto('signing_keys' as never).values({
    kid: 'rs256-old', alg: 'RS256', public_jwk: '{}', private_jwk_encrypted: 'v1.a.b.c', status: 'active', created_at: NOW - 5000, retired_at: null,
  } as never).execute();
}

describe.each(TEST_ENGINES)('OIDC storage migrations of existing rows on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
    await databaseBeforeDigests(opened);
    // The two that carry these rows over run (later ones may follow them).
    expect(await migrateToLatest(opened.db)).toEqual(expect.arrayContaining(['20261126000000-oidc-payload-digests', '20261126000100-signing-key-signs-from']));
    store = createStore(opened.db, engine);
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  it('leaves no token, code or session cookie in any column of oidc_payloads, each row keyed by the digest of its id', async () => {
    const rows = await opened.db.selectFrom('oidc_payloads').selectAll().orderBy('kind').execute();
    const stored = JSON.stringify(rows);
    for (const token of Object.values(TOKENS)) expect(stored).not.toContain(token);
    expect(rows.map((row) => [row.kind, row.id])).toEqual([
      ['AccessToken', sha256Hex(TOKENS.access)],
      ['AuthorizationCode', sha256Hex(TOKENS.code)],
      ['Grant', sha256Hex('grant-1')],
      ['Interaction', sha256Hex(TOKENS.interaction)],
      ['RefreshToken', sha256Hex(TOKENS.refresh)],
      ['Session', sha256Hex(TOKENS.session)],
    ]);
    for (const row of rows) expect(row.account_id, row.kind).toBe(SUBJECT);
  });

  it('keeps every artifact readable by the id it was issued under, with the rest of its payload and columns', async () => {
    const oidc = store.repos.oidcPayloads;
    expect(await oidc.find('AccessToken', TOKENS.access, NOW)).toEqual({
      payload: { jti: TOKENS.access, kind: 'AccessToken', accountId: SUBJECT, grantId: 'grant-1', clientId: 'cli_1', scope: 'openid' },
      consumedAt: null,
    });
    expect((await oidc.find('RefreshToken', TOKENS.refresh, NOW))?.payload.grantId).toBe('grant-1');
    expect((await oidc.find('Session', TOKENS.session, NOW))?.payload.uid).toBe('session-uid-1');
    expect((await oidc.findByUid('Session', 'session-uid-1', NOW))?.payload.accountId).toBe(SUBJECT);
    expect((await oidc.find('Interaction', TOKENS.interaction, NOW))?.payload.session).toEqual({ accountId: SUBJECT, uid: 'session-uid-1' });
    // Remembered consent from before the client column, moved to its own table since: its client found again by its digest.
    expect(await store.repos.rememberedConsents.scopes(SUBJECT, 'cli_1', NOW)).toEqual(['openid', 'profile']);
    expect(await oidc.find('AccessToken', TOKENS.access, LATER)).toBeUndefined();

    await oidc.revokeGrantOf('RefreshToken', TOKENS.refresh);
    expect(await oidc.find('Grant', 'grant-1', NOW)).toBeUndefined();
    expect(await oidc.find('AccessToken', TOKENS.access, NOW)).toBeUndefined();
    expect(await store.transaction((repos) => repos.oidcPayloads.revokeAllForAccount(SUBJECT))).toBe(2);
  });

  it('gives a key created before signs_from its creation time as the time it started signing', async () => {
    expect(await store.repos.signingKeys.list()).toEqual([expect.objectContaining({ kid: 'rs256-old', createdAt: NOW - 5000, signsFrom: NOW - 5000, status: 'active' })]);
  });
});
