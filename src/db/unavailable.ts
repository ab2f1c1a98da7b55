// Recognises errors that mean "the database is not reachable right now" (server restarting,
// connection lost or refused, pool cannot connect), as opposed to a bad query: callers turn these
// into a retryable berth.unavailable answer instead of an internal error.

/** The message clients get for such errors. */
export const DATABASE_UNAVAILABLE = 'The database is temporarily unavailable; retry.';

/** SQLSTATEs of a server that is shutting down, starting or lost the connection. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown (fast shutdown / pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up / shutting down)
  '53300', // too_many_connections
  // read_only_sql_transaction: a standby answered (a failover in progress, or a crashed primary
  // restarting read-only before it is promoted again); the next attempt reaches the primary.
  '25006',
]);

/** Socket-level error codes from node:net. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTCONN',
  'EHOSTUNREACH',
]);

/** Messages node-postgres (pg / pg-pool) uses for lost or impossible connections (no code). */
const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Client was closed/,
  /^Cannot use a pool after calling end/,
];

/**
 * TypeORM errors that follow a lost connection: its query runner releases itself when the pg
 * client emits 'error', so the next query of the same transaction throws this instead.
 */
const TYPEORM_AFTER_LOST_CONNECTION = new Set([
  'QueryRunnerProviderAlreadyReleasedError',
  // ...or, when the connection dies between the last statement and COMMIT (seen in the soak's
  // pg-restart), the COMMIT itself: the outcome is unknown, which is what berth.unavailable says.
  'QueryRunnerAlreadyReleasedError',
]);

/** True when `err` (or the driver error a TypeORM error wraps) means the database is unreachable. */
export function isDatabaseUnavailableError(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || SOCKET_CODES.has(code)) {
        return true;
      }
    }
    if (TYPEORM_AFTER_LOST_CONNECTION.has((e as { name?: unknown }).name as string)) {
      return true;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && PG_MESSAGES.some((re) => re.test(message))) {
      return true;
    }
    e =
      (e as { driverError?: unknown; cause?: unknown }).driverError ??
      (e as { cause?: unknown }).cause;
  }
  return false;
}
