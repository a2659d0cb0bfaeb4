import { AppError } from '../errors.ts';

/** How long a client should wait before retrying while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// The network could not reach the server, or lost it mid-query.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);

// PostgreSQL SQLSTATEs meaning "the server cannot serve you now", not "your query is wrong".
const POSTGRES_UNAVAILABLE = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '57014', // query_canceled (statement_timeout)
  '53300', // too_many_connections
  '53100', // disk_full
  '53200', // out_of_memory
  '3D000', // invalid_catalog_name: the database is gone
  '55P03', // lock_not_available
  '58000', // system_error
  '58030', // io_error
]);

// node-postgres reports a lost or unopenable connection with a message and no code.
const POSTGRES_CONNECTION_MESSAGES = [
  'Connection terminated', // also "... unexpectedly" and "... due to connection timeout"
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
];

// SQLite primary result codes: BUSY, LOCKED, IOERR, FULL, CANTOPEN, PROTOCOL.
const SQLITE_UNAVAILABLE = new Set([5, 6, 10, 13, 14, 15]);

interface ErrorLike {
  code?: unknown;
  errcode?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function isUnavailable(error: ErrorLike, depth = 0): boolean {
  if (depth > 3 || error === null || typeof error !== 'object') return false;
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (code && (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.has(code) || code.startsWith('08'))) return true;
  if (code === 'ERR_SQLITE_ERROR' && typeof error.errcode === 'number' && SQLITE_UNAVAILABLE.has(error.errcode & 0xff)) return true;
  const message = typeof error.message === 'string' ? error.message : '';
  if (POSTGRES_CONNECTION_MESSAGES.some((text) => message.includes(text))) return true;
  // Node reports a refused connection to a host with several addresses as an AggregateError.
  if (Array.isArray(error.errors) && error.errors.some((inner) => isUnavailable(inner as ErrorLike, depth + 1))) return true;
  return error.cause !== undefined && isUnavailable(error.cause as ErrorLike, depth + 1);
}

/**
 * The AppError for an error that means the database is unreachable or overwhelmed (503 with
 * Retry-After: the client should simply retry), or undefined for any other error.
 */
export function databaseFaultToAppError(error: unknown): AppError | undefined {
  if (!isUnavailable(error as ErrorLike)) return undefined;
  return new AppError('service_unavailable', `The database is unavailable; retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`, {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  });
}
