import { DatabaseSync } from 'node:sqlite';
import { workerData } from 'node:worker_threads';
import type { CheckpointWorkerData } from './sqlite-dialect.ts';

// Started by sqlite-dialect.ts, which says why. Node loads this file itself (also under vitest): no value imports.
const { path, intervalMs, state, states } = workerData as CheckpointWorkerData;

// The serving thread may have closed the database before this thread got here.
if (Atomics.compareExchange(state, 0, states.starting, states.running) === states.starting) {
  let database: DatabaseSync | undefined;
  try {
    database = new DatabaseSync(path);
    database.exec('PRAGMA busy_timeout = 5000');
    const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    // Sleeps between checkpoints; the serving thread wakes it by setting `stopping`.
    while (Atomics.wait(state, 0, states.running, intervalMs) === 'timed-out') checkpoint.get();
  } finally {
    database?.close();
    Atomics.store(state, 0, states.stopped);
    Atomics.notify(state, 0);
  }
}
