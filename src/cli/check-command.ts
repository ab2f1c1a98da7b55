// `berth check [--json] [--examples N] [--statement-timeout D]`: a read-only consistency audit of
// the database (src/placement/consistency/), printed as a table or as JSON. Exit status as
// placement-status upgrade check: 0 all ok, 1 warnings only, 2 a problem, 255 could not run (a
// statement past the timeout included); SIGINT/SIGTERM cancel the running statement on the
// server before the process exits (130/143).
import type { Command } from 'commander';
import type { DataSource } from 'typeorm';
import { alignedRows, jsonForTerminal } from '../lib/text-table';
import {
  CheckInterruptedError,
  type CheckReport,
  type CheckStatus,
  DEFAULT_EXAMPLES,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  runConsistencyChecks,
} from '../placement/consistency/run-checks';
import { openDatabase } from './database';
import { configOrExit, describeStartupError } from './errors';
import { durationMs, positiveInt } from './int-options';

/** Exit status per overall status (placement-status upgrade check's codes). */
export const CHECK_EXIT: Readonly<Record<CheckStatus, number>> = { ok: 0, warning: 1, problem: 2 };
/** Exit status when the checks could not run (database unreachable, query failed). */
export const CHECK_EXIT_ERROR = 255;

/** Options of `berth check`, as commander parses them. */
export interface CheckCommandOptions {
  readonly json?: boolean;
  readonly examples: number;
  /** Longest one check statement may run, ms; 0 = no limit. */
  readonly statementTimeout?: number;
  /** Aborting it cancels the running statement (the CLI aborts on SIGINT/SIGTERM). */
  readonly signal?: AbortSignal;
}

/** How long an interrupted check waits for its statement to be cancelled before exiting anyway. */
const CANCEL_WAIT_MS = 5000;

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
  const report = await runConsistencyChecks(dataSource, {
    examples: opts.examples,
    statementTimeoutMs: opts.statementTimeout,
    signal: opts.signal,
  });
  out.write(`${opts.json ? jsonForTerminal(report) : renderCheckTable(report)}\n`);
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
    .option(
      '--statement-timeout <duration>',
      'longest one check query may run: 500ms, 30s, 2m (0 = none)',
      durationMs,
      DEFAULT_STATEMENT_TIMEOUT_MS,
    )
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
      const stop = new AbortController();
      let signalled: NodeJS.Signals | undefined;
      const onSignal = (sig: NodeJS.Signals) => {
        signalled ??= sig;
        stop.abort();
        // The statement is cancelled within a round trip; never hang on a dead server.
        setTimeout(() => process.exit(exitCodeOf(sig)), CANCEL_WAIT_MS).unref();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      try {
        process.exitCode = await runCheck(
          db.dataSource,
          { ...opts, signal: stop.signal },
          process.stdout,
        );
      } catch (err) {
        if (signalled) {
          process.stderr.write(
            `berth: check interrupted (${signalled}); its query was cancelled\n`,
          );
          process.exitCode = exitCodeOf(signalled);
        } else if (err instanceof CheckInterruptedError && err.reason === 'timeout') {
          process.stderr.write(
            `berth: check could not run: ${err.check} took longer than --statement-timeout ${formatMs(err.timeoutMs)}; raise it (e.g. --statement-timeout 5m, 0 = none) or run the check when the database is less busy\n`,
          );
          process.exitCode = CHECK_EXIT_ERROR;
        } else {
          process.stderr.write(`berth: check could not run: ${describeStartupError(err)}\n`);
          process.exitCode = CHECK_EXIT_ERROR;
        }
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await db.close();
      }
    });
}

/** The shell's exit status for a process ended by `sig` (128 + its number). */
function exitCodeOf(sig: NodeJS.Signals): number {
  return sig === 'SIGINT' ? 130 : 143;
}

/** `ms` as the flag would be written: 1500ms, 30s, 2m. */
function formatMs(ms: number): string {
  if (ms % 60_000 === 0) {
    return `${ms / 60_000}m`;
  }
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
