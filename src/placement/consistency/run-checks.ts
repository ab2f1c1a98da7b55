// src/placement/consistency/ is `berth check`: the named read-only checks of the database
// (checks.ts) and this runner.
//
// Runs the consistency checks in one READ ONLY, REPEATABLE READ transaction, so every check sees
// the same snapshot and none can write; each statement under a timeout, and cancelled on the
// server when the caller aborts.
// Upstream: placement-status upgrade check (placement/cmd/status.py) and nova-manage placement
// audit (nova/cmd/manage.py).
import type { DataSource, QueryRunner } from 'typeorm';
import { type CheckSeverity, CONSISTENCY_CHECKS, type ConsistencyCheck } from './checks';

/** What one check found (field names are stable: `berth check --json` prints them). */
export interface CheckResult {
  readonly check: string;
  readonly severity: CheckSeverity;
  /** True when nothing was found. */
  readonly ok: boolean;
  /** Number of findings (rows of the check's query). */
  readonly count: number;
  /** Up to `examples` distinct subjects (uuids), sorted. */
  readonly examples: readonly string[];
  /** What the examples are ('provider', 'consumer', …). */
  readonly subject: string;
  readonly description: string;
}

/** The worst finding: 'problem' beats 'warning' beats 'ok'. */
export type CheckStatus = 'ok' | 'warning' | 'problem';

/** The whole audit. */
export interface CheckReport {
  readonly status: CheckStatus;
  readonly checks: readonly CheckResult[];
}

/** Options of {@link runConsistencyChecks}. */
export interface CheckOptions {
  /** Most example subjects per check (default 5). */
  readonly examples?: number;
  /** The checks to run (default: all of {@link CONSISTENCY_CHECKS}). */
  readonly checks?: readonly ConsistencyCheck[];
  /** Longest one statement may run, in ms (PostgreSQL statement_timeout); 0 = no limit. */
  readonly statementTimeoutMs?: number;
  /** Aborting it cancels the running statement on the server (pg_cancel_backend). */
  readonly signal?: AbortSignal;
}

/** Default {@link CheckOptions.statementTimeoutMs}: one minute. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 60_000;

/** The checks stopped before the end: a statement ran past the timeout, or the caller aborted. */
export class CheckInterruptedError extends Error {
  constructor(
    readonly reason: 'timeout' | 'cancelled',
    /** The check whose statement was running. */
    readonly check: string,
    /** The statement timeout in force, ms. */
    readonly timeoutMs: number,
  ) {
    super(
      reason === 'timeout'
        ? `check ${check} ran longer than the statement timeout of ${timeoutMs} ms`
        : `check ${check} was cancelled`,
    );
    this.name = 'CheckInterruptedError';
  }
}

/** The check that runs first: without every migration applied the others cannot be trusted. */
const SCHEMA_CHECK = 'schema-migrated';

/** Default number of examples per check. */
export const DEFAULT_EXAMPLES = 5;

/**
 * Runs the checks against `ds` in one read-only snapshot. When migrations are pending, only the
 * schema check is reported (the other queries would fail or mislead). The session shows as
 * `berth check <pid>` in pg_stat_activity while it runs.
 * @throws CheckInterruptedError when a statement outlives `statementTimeoutMs` or `signal` aborts
 * (the statement is cancelled on the server either way).
 * @throws when the database cannot be queried.
 */
export async function runConsistencyChecks(
  ds: DataSource,
  opts: CheckOptions = {},
): Promise<CheckReport> {
  const limit = opts.examples ?? DEFAULT_EXAMPLES;
  const timeoutMs = opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const qr = ds.createQueryRunner();
  await qr.connect();
  let open = false;
  let current = SCHEMA_CHECK;
  let stopCancelling = () => {};
  try {
    if (opts.signal) {
      stopCancelling = cancelOnAbort(ds, await backendPid(qr), opts.signal);
    }
    await qr.query('BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    open = true;
    // SET LOCAL takes no bind parameters; both values are built here, not taken from input.
    await qr.query(`SET LOCAL statement_timeout = ${Math.max(0, Math.trunc(timeoutMs))}`);
    await qr.query(`SET LOCAL application_name = 'berth check ${process.pid}'`);
    // The checks' cost estimates (JSON expanded per move, tables without statistics) pass the JIT
    // threshold even on an empty database, and compiling costs ~1.5 s a query; each runs once.
    await qr.query('SET LOCAL jit = off');
    // A client that dies without cancelling (SIGKILL) is noticed by the server within a second,
    // even in a lock wait; where the platform lacks the setting, it is skipped.
    await qr.query(
      `DO $$ BEGIN PERFORM set_config('client_connection_check_interval', '1000', true);
       EXCEPTION WHEN OTHERS THEN NULL; END $$`,
    );
    const schema = await schemaResult(
      qr,
      ds.migrations.map((m) => m.name ?? m.constructor.name),
      limit,
    );
    const results = [schema];
    if (schema.ok) {
      for (const check of opts.checks ?? CONSISTENCY_CHECKS) {
        current = check.name;
        throwIfAborted(opts.signal, current, timeoutMs);
        results.push(await runOne(qr, check, limit));
      }
    }
    await qr.query('COMMIT');
    open = false;
    return { status: statusOf(results), checks: results };
  } catch (err) {
    throw interruption(err, opts.signal, current, timeoutMs) ?? err;
  } finally {
    stopCancelling();
    if (open) {
      await qr.query('ROLLBACK').catch(() => undefined);
    }
    await qr.release();
  }
}

function throwIfAborted(signal: AbortSignal | undefined, check: string, timeoutMs: number): void {
  if (signal?.aborted) {
    throw new CheckInterruptedError('cancelled', check, timeoutMs);
  }
}

/** `err` as a CheckInterruptedError when it is PostgreSQL's query_canceled (57014), else null. */
function interruption(
  err: unknown,
  signal: AbortSignal | undefined,
  check: string,
  timeoutMs: number,
): CheckInterruptedError | null {
  if (err instanceof CheckInterruptedError) {
    return err;
  }
  const e = err as { code?: string; driverError?: { code?: string } };
  if ((e.code ?? e.driverError?.code) !== '57014') {
    return null;
  }
  return new CheckInterruptedError(signal?.aborted ? 'cancelled' : 'timeout', check, timeoutMs);
}

/** How often an abort re-sends the cancel until the run has stopped (one may land between statements). */
const CANCEL_REPEAT_MS = 500;

/**
 * When `signal` aborts, cancels the statement the session `pid` is running, from another pooled
 * connection (the session's own is busy), and again every CANCEL_REPEAT_MS until the returned
 * function is called.
 */
// SELECT pg_cancel_backend($1)
function cancelOnAbort(ds: DataSource, pid: number | undefined, signal?: AbortSignal): () => void {
  if (!signal || pid === undefined) {
    return () => {};
  }
  let timer: NodeJS.Timeout | undefined;
  const cancel = () => {
    void ds.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
  };
  const onAbort = () => {
    cancel();
    timer = setInterval(cancel, CANCEL_REPEAT_MS);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    signal.removeEventListener('abort', onAbort);
    clearInterval(timer);
  };
}

// SELECT pg_backend_pid()
async function backendPid(qr: QueryRunner): Promise<number | undefined> {
  const rows: { pid: number }[] = await qr.query('SELECT pg_backend_pid() AS pid');
  return rows[0]?.pid;
}

/** The worst severity among the checks that found something. */
export function statusOf(results: readonly CheckResult[]): CheckStatus {
  if (results.some((r) => !r.ok && r.severity === 'problem')) {
    return 'problem';
  }
  return results.some((r) => !r.ok) ? 'warning' : 'ok';
}

// SELECT count(*), (array_agg(DISTINCT subject ORDER BY subject))[1:$1] FROM (<check>) found
async function runOne(
  qr: QueryRunner,
  check: ConsistencyCheck,
  limit: number,
): Promise<CheckResult> {
  const rows: { n: number; examples: string[] | null }[] = await qr.query(
    `SELECT count(*)::int AS n,
       (array_agg(DISTINCT found.subject ORDER BY found.subject))[1:$1::int] AS examples
     FROM (${check.sql}) AS found`,
    [limit],
  );
  const n = rows[0]?.n ?? 0;
  return {
    check: check.name,
    severity: check.severity,
    ok: n === 0,
    count: n,
    examples: rows[0]?.examples ?? [],
    subject: check.subject,
    description: check.description,
  };
}

// Pending = the DataSource's migrations missing from berth_migrations (a missing table: all).
async function schemaResult(
  qr: QueryRunner,
  known: readonly string[],
  limit: number,
): Promise<CheckResult> {
  const table = qr.connection.options.migrationsTableName ?? 'migrations';
  const exists: { t: string | null }[] = await qr.query('SELECT to_regclass($1)::text AS t', [
    table,
  ]);
  const applied = new Set<string>();
  if (exists[0]?.t) {
    const rows: { name: string }[] = await qr.query(`SELECT name FROM "${table}"`);
    for (const r of rows) {
      applied.add(r.name);
    }
  }
  const pending = known.filter((name) => !applied.has(name));
  return {
    check: SCHEMA_CHECK,
    severity: 'problem',
    ok: pending.length === 0,
    count: pending.length,
    examples: pending.slice(0, limit),
    subject: 'migration',
    description:
      'migrations of this berth version not applied to the database (run `berth migrate`); the other checks run only on a migrated schema',
  };
}
