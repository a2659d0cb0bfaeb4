import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Engine, type OpenedDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrate.ts';
import { createStore } from '../../src/storage/store.ts';
import { createTestDatabase, TEST_ENGINES, type TestDatabase } from '../helpers/engines.ts';

const NOW = Date.UTC(2026, 10, 21, 12);

async function insertPayloads(opened: OpenedDatabase, prefix: string, count: number, expiresAt: number | null) {
  for (let start = 0; start < count; start += 400) {
    const rows = Array.from({ length: Math.min(400, count - start) }, (_, i) => ({
      kind: i % 2 === 0 ? 'AuthorizationCode' : 'Session',
      id: `${prefix}-${String(start + i).padStart(6, '0')}`,
      payload: '{}',
      grant_id: null,
      uid: null,
      expires_at: expiresAt,
      consumed_at: null,
    }));
    await opened.db.insertInto('oidc_payloads').values(rows).execute();
  }
}

const pruneExpiredPayloads = (db: OpenedDatabase['db'], engine: Engine, now: number, batchSize: number) =>
  createStore(db, engine).repos.oidcPayloads.pruneExpired(now, batchSize);

const countWhere = async (opened: OpenedDatabase, prefix: string) =>
  Number((await opened.db.selectFrom('oidc_payloads').select((eb) => eb.fn.countAll().as('n')).where('id', 'like', `${prefix}-%`).executeTakeFirstOrThrow()).n);

/**
 * Expired OIDC artifacts are deleted by whichever instance happens to prune; two instances pruning
 * at once (two connection pools on one database) split the rows instead of fighting over them.
 */
describe.each(TEST_ENGINES)('pruning expired OIDC artifacts on %s', (engine) => {
  let database: TestDatabase;
  let first: OpenedDatabase;
  let second: OpenedDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(engine);
    first = openDatabase(database.url);
    await migrateToLatest(first.db);
    second = openDatabase(database.url);
  });
  afterEach(async () => {
    await second.close();
    await first.close();
    await database.drop();
  });

  it('deletes every expired row in batches and keeps the live and the unexpiring ones', async () => {
    await insertPayloads(first, 'expired', 1234, NOW - 1);
    await insertPayloads(first, 'live', 40, NOW + 60_000);
    await insertPayloads(first, 'forever', 10, null);
    expect(await pruneExpiredPayloads(first.db, engine, NOW, 500)).toBe(1234);
    expect([await countWhere(first, 'expired'), await countWhere(first, 'live'), await countWhere(first, 'forever')]).toEqual([0, 40, 10]);
    expect(await pruneExpiredPayloads(first.db, engine, NOW, 500)).toBe(0);
  });

  it('two instances pruning at the same time delete every expired row once between them, without errors', { timeout: 60_000 }, async () => {
    await insertPayloads(first, 'expired', 4000, NOW - 1);
    await insertPayloads(first, 'live', 100, NOW + 60_000);
    const rounds = await Promise.all([first, second, first, second].map((opened) => pruneExpiredPayloads(opened.db, engine, NOW, 100)));
    expect(rounds.reduce((sum, n) => sum + n, 0)).toBe(4000);
    expect([await countWhere(first, 'expired'), await countWhere(first, 'live')]).toEqual([0, 100]);
  });

  it.skipIf(engine !== 'postgres')('an instance takes only the rows another instance is not already deleting, and does not wait for it', { timeout: 60_000 }, async () => {
    await insertPayloads(first, 'expired', 1000, NOW - 1);
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstHolds!: () => void;
    const firstHoldsItsBatch = new Promise<void>((resolve) => (firstHolds = resolve));
    // The first instance is in the middle of its batch: 300 expired rows locked by its open transaction.
    const firstInstance = first.db.transaction().execute(async (trx) => {
      const batch = await trx.selectFrom('oidc_payloads').select(['kind', 'id']).where('expires_at', '<', NOW).orderBy('id').limit(300).forUpdate().execute();
      firstHolds();
      await firstMayCommit;
      return batch;
    });
    await firstHoldsItsBatch;

    // It goes around the first instance's rows rather than queueing behind its transaction.
    const pruning = pruneExpiredPayloads(second.db, engine, NOW, 100).then((deleted) => ({ deleted }));
    const outcome = await Promise.race([pruning, new Promise((resolve) => setTimeout(() => resolve('blocked behind the other instance'), 5_000))]);
    releaseFirst();
    await pruning;
    expect(outcome).toEqual({ deleted: 700 });
    const locked = await firstInstance;
    const left = await second.db.selectFrom('oidc_payloads').select(['kind', 'id']).orderBy('id').execute();
    expect(left).toEqual(locked);
  });
});
