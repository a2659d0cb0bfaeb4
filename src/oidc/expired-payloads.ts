import type { Db, Engine } from '../storage/database.ts';

export const PRUNE_BATCH_SIZE = 500;

/**
 * Deletes expired oidc_payloads rows, a batch at a time, until none is left; returns how many this
 * call deleted. On PostgreSQL each batch takes only rows no other transaction holds (FOR UPDATE SKIP
 * LOCKED): instances pruning at the same moment split the expired rows between them instead of
 * queueing on, or deadlocking over, the same ones. SQLite has one writer at a time: nothing to split.
 */
export async function pruneExpiredPayloads(db: Db, engine: Engine, now: number, batchSize = PRUNE_BATCH_SIZE): Promise<number> {
  let deleted = 0;
  for (;;) {
    const expired = db.selectFrom('oidc_payloads').select(['kind', 'id']).where('expires_at', '<', now).limit(batchSize);
    const batch = engine === 'postgres' ? expired.forUpdate().skipLocked() : expired;
    const result = await db
      .deleteFrom('oidc_payloads')
      .where((eb) => eb(eb.refTuple('kind', 'id'), 'in', batch.$asTuple('kind', 'id')))
      .executeTakeFirst();
    const count = Number(result.numDeletedRows);
    deleted += count;
    if (count < batchSize) return deleted;
  }
}
