/**
 * How long Sesame waits for its database before the request answers 503 (see docs/operations.md, "The
 * database is unreachable"). A healthy database answers in milliseconds; these bound a silent one (a
 * server that stopped answering, packets dropped) and a locked one, so that every request answers within
 * DATABASE_ANSWER_BOUND_SECONDS and the event loop never blocks on a lock.
 */
export const DATABASE_TIMEOUTS = {
  /** PostgreSQL cancels a statement running longer (server side: a slow query, a lock wait). */
  statementMs: 1_000,
  /** The client gives up on an answer that does not come (the server or the network went silent). */
  queryMs: 1_500,
  /** Waiting for a pooled connection, or for a new one to open. */
  acquireMs: 1_500,
  /** SQLite: waiting for the connection and the file's write lock together (another process writing). */
  sqliteWaitMs: 1_500,
  /** After the database went silent, how often a probe checks whether it answers again. */
  probeIntervalMs: 1_000,
} as const;

/** The documented bound on a request's time while the database is away or locked. */
export const DATABASE_ANSWER_BOUND_SECONDS = 3;

/**
 * The database did not answer in time. The code is a network one, so src/ops/database-faults.ts maps it
 * to 503 service_unavailable like any other outage.
 */
export class DatabaseTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseTimeoutError';
  }
}
