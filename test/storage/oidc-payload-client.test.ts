import { Migrator, type Migration } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as initialSchema from '../../migrations/20261121000000-initial-schema.ts';
import * as payloadDigests from '../../migrations/20261126000000-oidc-payload-digests.ts';
import { openDatabase, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import type { OidcArtifact } from '../../src/storage/repositories/oidc-payload-repository.ts';
import { createStore, type Store } from '../../src/storage/store.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

const NOW = Date.UTC(2026, 11, 10, 12);
const LATER = NOW + 3600_000;

const artifact = (kind: string, id: string, clientId: string | null, grantId: string | null): OidcArtifact => ({
  kind,
  id,
  payload: { kind, ...(clientId ? { clientId } : {}), ...(grantId ? { grantId } : {}), accountId: 'subject-1' },
  grantId,
  uid: null,
  accountId: 'subject-1',
  expiresAt: LATER,
});

describe.each(TEST_ENGINES)('the artifacts of one client on %s', (engine) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    opened = openDatabase(database.url);
    // A database from before the client column, holding a grant and its token already.
    const migrator = new Migrator({
      db: opened.db,
      provider: { getMigrations: async () => ({ '20261121000000-initial-schema': initialSchema as Migration, '20261126000000-oidc-payload-digests': payloadDigests as Migration }) },
      migrationTableName: 'schema_migrations',
      migrationLockTableName: 'schema_migrations_lock',
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
    const old = (kind: string, id: string, payload: Record<string, unknown>) => ({ kind, id, payload: JSON.stringify(payload), grant_id: 'old-grant', uid: null, account_id: 'subject-1', expires_at: LATER, consumed_at: null });
    await opened.db.insertInto('oidc_payloads' as never).values([
      old('Grant', 'digest-of-old-grant', { clientId: 'old-client', accountId: 'subject-1' }),
      old('AccessToken', 'digest-of-old-token', { clientId: 'old-client', grantId: 'old-grant' }),
      old('Session', 'digest-of-old-session', { accountId: 'subject-1' }),
    ] as never).execute();
    await migrateToLatest(opened.db);
    store = createStore(opened.db, engine);
  });
  afterAll(async () => {
    await opened.close();
    await database.drop();
  });

  const kindsOf = async (clientId: string) => (await opened.db.selectFrom('oidc_payloads').select('kind').where('client_id', '=', clientId).orderBy('kind').execute()).map((r) => r.kind);

  it('gives existing rows their client from the payload', async () => {
    expect(await kindsOf('old-client')).toEqual(['AccessToken', 'Grant']);
    const session = await opened.db.selectFrom('oidc_payloads').select('client_id').where('kind', '=', 'Session').executeTakeFirstOrThrow();
    expect(session.client_id).toBeNull();
    expect(await store.repos.oidcPayloads.revokeAllForClient('old-client')).toBe(1);
    expect(await kindsOf('old-client')).toEqual([]);
  });

  it('ends every grant, code and token of the client, keeps what people allowed it, and touches no other client', async () => {
    const repo = store.repos.oidcPayloads;
    for (const [client, n] of [['cli_a', 1], ['cli_a', 2], ['cli_b', 3]] as const) {
      await repo.upsert(artifact('Grant', `grant-${n}`, client, null));
      await repo.upsert(artifact('AuthorizationCode', `code-${n}`, client, `grant-${n}`));
      await repo.upsert(artifact('AccessToken', `at-${n}`, client, `grant-${n}`));
      await repo.upsert(artifact('RefreshToken', `rt-${n}`, client, `grant-${n}`));
    }
    await store.repos.rememberedConsents.save('subject-1', 'cli_a', ['openid'], LATER, NOW);

    expect(await repo.revokeAllForClient('cli_a')).toBe(2);
    expect(await kindsOf('cli_a')).toEqual([]);
    expect(await store.repos.rememberedConsents.scopes('subject-1', 'cli_a', NOW)).toEqual(['openid']);
    expect(await kindsOf('cli_b')).toEqual(['AccessToken', 'AuthorizationCode', 'Grant', 'RefreshToken']);

    expect(await repo.revokeAllForClient('cli_a')).toBe(0);
    expect(await repo.revokeAllForClient('no\u0000such')).toBe(0);
  });
});
