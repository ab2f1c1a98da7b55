// `berth check [--json] [--examples N]`: a read-only consistency audit of the database
// (src/placement/consistency-check.ts), printed as a table or as JSON. Exit status as
// placement-status upgrade check: 0 all ok, 1 warnings only, 2 a problem, 255 could not run.
import type { Command } from 'commander';
import type { DataSource } from 'typeorm';
import {
  type CheckReport,
  type CheckStatus,
  DEFAULT_EXAMPLES,
  runConsistencyChecks,
} from '../placement/consistency-check';
import { alignedRows } from '../text-table';
import { openDatabase } from './database';
import { configOrExit, describeStartupError } from './errors';
import { positiveInt } from './int-options';

/** Exit status per overall status (placement-status upgrade check's codes). */
export const CHECK_EXIT: Readonly<Record<CheckStatus, number>> = { ok: 0, warning: 1, problem: 2 };
/** Exit status when the checks could not run (database unreachable, query failed). */
export const CHECK_EXIT_ERROR = 255;

/** Options of `berth check`, as commander parses them. */
export interface CheckCommandOptions {
  readonly json?: boolean;
  readonly examples: number;
}

/** Examples shown per row of the table (JSON carries all of them). */
const TABLE_EXAMPLES = 2;

/** The report as a table: one row per check, then a status line. No trailing newline. */
export function renderCheckTable(report: CheckReport): string {
  const head = ['CHECK', 'STATUS', 'COUNT', 'EXAMPLES'];
  const rows = report.checks.map((c) => {
    const shown = c.examples.slice(0, TABLE_EXAMPLES);
    const more = c.count > shown.length ? ` (+${c.count - shown.length} more)` : '';
    return [
      c.check,
      c.ok ? 'ok' : c.severity,
      String(c.count),
      shown.length > 0 ? `${c.subject} ${shown.join(', ')}${more}` : '',
    ];
  });
  const problems = report.checks.filter((c) => !c.ok && c.severity === 'problem').length;
  const warnings = report.checks.filter((c) => !c.ok && c.severity === 'warning').length;
  const lines = alignedRows([head, ...rows], [2]);
  if (report.checks.length === 1 && !report.checks[0]!.ok) {
    lines.push('other checks skipped: the database schema is not migrated');
  }
  lines.push(
    `status: ${report.status} (${report.checks.length} checks, ${problems} problem(s), ${warnings} warning(s))`,
  );
  return lines.join('\n');
}

/**
 * Runs the audit on `dataSource` and writes the table (or JSON) to `out`.
 * @returns the exit status ({@link CHECK_EXIT}).
 * @throws when the database cannot be queried.
 */
export async function runCheck(
  dataSource: DataSource,
  opts: CheckCommandOptions,
  out: { write(chunk: string): unknown },
): Promise<number> {
  const report = await runConsistencyChecks(dataSource, { examples: opts.examples });
  out.write(`${opts.json ? JSON.stringify(report, null, 2) : renderCheckTable(report)}\n`);
  return CHECK_EXIT[report.status];
}

/** Adds `check` to the program. */
export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description(
      'audit the database for inconsistencies (read-only); exit 0 ok, 1 warnings, 2 problems, 255 could not run',
    )
    .option('--json', 'print the report as JSON')
    .option('--examples <n>', 'example uuids kept per check', positiveInt, DEFAULT_EXAMPLES)
    .action(async (opts: CheckCommandOptions) => {
      const cfg = configOrExit();
      let db: Awaited<ReturnType<typeof openDatabase>>;
      try {
        db = await openDatabase(cfg);
      } catch (err) {
        process.stderr.write(`berth: ${describeStartupError(err)}\n`);
        process.exitCode = CHECK_EXIT_ERROR;
        return;
      }
      try {
        process.exitCode = await runCheck(db.dataSource, opts, process.stdout);
      } catch (err) {
        process.stderr.write(`berth: check could not run: ${describeStartupError(err)}\n`);
        process.exitCode = CHECK_EXIT_ERROR;
      } finally {
        await db.close();
      }
    });
}
