import type { Clock } from '../domain/clock.ts';
import type { Store } from '../storage/store.ts';

// Pruning expired rows is housekeeping, not correctness (expired rows read as absent), so it runs
// now and then on writes rather than on a timer every instance would need to own.
const PRUNE_EVERY_WRITES = 500;

/** Returns what to call after each write: every PRUNE_EVERY_WRITES-th call prunes in the background. */
export function pruneExpiredNowAndThen(store: Store, clock: Clock): () => void {
  let writes = 0;
  return () => {
    writes += 1;
    if (writes % PRUNE_EVERY_WRITES !== 0) return;
    void store.repos.oidcPayloads.pruneExpired(clock.now()).catch(() => {});
  };
}
