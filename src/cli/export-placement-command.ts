// `berth export placement --to URL [--dry-run] [--batch N] [--replace] [--json]`: writes berth's
// whole model into a Placement 8.0 database (src/import/placement/export-placement.ts), the
// rollback path of a cutover, with a progress bar on a TTY and a summary table at the end.

import type { Command } from 'commander';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../config/config';
import {
  DEFAULT_EXPORT_BATCH,
  exportPlacement,
  type PlacementExportSummary,
} from '../import/placement/export-placement';
import { renderExportSummary } from '../import/placement/export-summary';
import { ProgressBar, type ProgressStream } from '../import/progress';
import { escapeForTerminal, jsonForTerminal } from '../lib/text-table';
import { openDatabase } from './database';
import { describeStartupError } from './errors';
import { positiveInt } from './int-options';

/** Options of `berth export placement`, as commander parses them. */
export interface ExportPlacementCommandOptions {
  readonly to: string;
  readonly dryRun?: boolean;
  readonly batch: number;
  readonly replace?: boolean;
  readonly json?: boolean;
}

/**
 * Runs the export from `dataSource`, writing the summary to `out` and a bar to `progress` when
 * it is a TTY.
 * @throws when the target is refused or a write fails (nothing committed).
 */
export async function runPlacementExport(
  dataSource: DataSource,
  opts: ExportPlacementCommandOptions,
  out: { write(chunk: string): unknown },
  progress: ProgressStream,
): Promise<PlacementExportSummary> {
  const bar = new ProgressBar(progress);
  try {
    const summary = await exportPlacement(dataSource, opts.to, {
      dryRun: opts.dryRun ?? false,
      batch: opts.batch,
      replace: opts.replace ?? false,
      onProgress: (done, total, label) => bar.update(done, total, label),
    });
    bar.finish();
    out.write(`${opts.json ? jsonForTerminal(summary) : renderExportSummary(summary)}\n`);
    return summary;
  } finally {
    bar.finish();
  }
}

/** Adds `export placement` to the berth program. */
export function registerExportCommand(program: Command): void {
  const exportCmd = program.command('export').description('export berth to other systems');
  exportCmd
    .command('placement')
    .description(
      "write berth's providers, inventories, traits, aggregates, consumers and allocations into a Placement 8.0 database (rollback of a cutover)",
    )
    .requiredOption(
      '--to <url>',
      'Placement database (schema by placement-manage db sync): postgresql://... or mysql://...',
    )
    .option('--dry-run', 'report what would be written; write nothing')
    .option('--batch <n>', 'rows per INSERT statement', positiveInt, DEFAULT_EXPORT_BATCH)
    .option('--replace', "empty the target's Placement tables first (same transaction)")
    .option('--json', 'print the summary as JSON')
    .action(async (opts: ExportPlacementCommandOptions) => {
      let db: Awaited<ReturnType<typeof openDatabase>>;
      try {
        db = await openDatabase(loadConfig());
      } catch (err) {
        process.stderr.write(`berth: ${describeStartupError(err)}\n`);
        process.exitCode = 1;
        return;
      }
      try {
        await runPlacementExport(db.dataSource, opts, process.stdout, process.stderr);
      } catch (err) {
        process.stderr.write(
          `berth: export failed: ${escapeForTerminal((err as Error).message)}\n`,
        );
        process.exitCode = 1;
      } finally {
        await db.close();
      }
    });
}
