// Runs the consistency checks of `berth check` (src/placement/consistency-checks.ts) in one
// READ ONLY, REPEATABLE READ transaction, so every check sees the same snapshot and none can
// write. Upstream: placement-status upgrade check (placement/cmd/status.py) and nova-manage
// placement audit (nova/cmd/manage.py).
import type { DataSource, QueryRunner } from 'typeorm';
import {
  type CheckSeverity,
  CONSISTENCY_CHECKS,
  type ConsistencyCheck,
} from './consistency-checks';

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
}

/** The check that runs first: without every migration applied the others cannot be trusted. */
const SCHEMA_CHECK = 'schema-migrated';

/** Default number of examples per check. */
export const DEFAULT_EXAMPLES = 5;

/**
 * Runs the checks against `ds` in one read-only snapshot. When migrations are pending, only the
 * schema check is reported (the other queries would fail or mislead).
 * @throws when the database cannot be queried.
 */
export async function runConsistencyChecks(
  ds: DataSource,
  opts: CheckOptions = {},
): Promise<CheckReport> {
  const limit = opts.examples ?? DEFAULT_EXAMPLES;
  const qr = ds.createQueryRunner();
  await qr.connect();
  let open = false;
  try {
    await qr.query('BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
    open = true;
    const schema = await schemaResult(
      qr,
      ds.migrations.map((m) => m.name ?? m.constructor.name),
      limit,
    );
    const results = [schema];
    if (schema.ok) {
      for (const check of opts.checks ?? CONSISTENCY_CHECKS) {
        results.push(await runOne(qr, check, limit));
      }
    }
    await qr.query('COMMIT');
    open = false;
    return { status: statusOf(results), checks: results };
  } finally {
    if (open) {
      await qr.query('ROLLBACK').catch(() => undefined);
    }
    await qr.release();
  }
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
