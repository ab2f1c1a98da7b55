// `berth import placement --from URL [--dry-run] [--batch N] [--replace] [--skip-invalid]`:
// migrates a running Placement 8.0 database into berth (src/import/placement), with a progress bar
// on a TTY (cli-progress) and a summary table at the end. Source rows berth's API would refuse stop
// the import before anything is written (exit 1, each row named) unless --skip-invalid.

import type { Command } from 'commander';
import type { DataSource } from 'typeorm';
import { createServices } from '../app/services';
import { cliActor } from '../auth/audit-actor';
import { loadConfig } from '../config/config';
import { migrateDatabase } from '../db/migrate';
import { seedStandard } from '../db/seed';
import {
  DEFAULT_BATCH,
  importPlacement,
  type PlacementImportSummary,
} from '../import/placement/import-placement';
import { PlacementImportInvalidError } from '../import/placement/invalid-source-error';
import { renderPlacementSummary } from '../import/placement/summary';
import { ProgressBar, type ProgressStream } from '../import/progress';
import { escapeForTerminal, jsonForTerminal } from '../lib/text-table';
import { runAudited } from '../placement/audit';
import { openDatabase } from './database';
import { describeStartupError } from './errors';
import { positiveInt } from './int-options';

/** Options of `berth import placement`, as commander parses them. */
export interface PlacementCommandOptions {
  readonly from: string;
  readonly dryRun?: boolean;
  readonly batch: number;
  readonly replace?: boolean;
  readonly skipInvalid?: boolean;
  readonly json?: boolean;
}

/**
 * Runs the import into `dataSource`, writing the summary to `out` and a bar to `progress` when
 * it is a TTY.
 * @throws when the source cannot be read, when it holds invalid rows (without skipInvalid), or on
 *   a conflict (nothing written in either case).
 */
export async function runPlacementImport(
  dataSource: DataSource,
  opts: PlacementCommandOptions,
  out: { write(chunk: string): unknown },
  progress: ProgressStream,
): Promise<PlacementImportSummary> {
  const bar = new ProgressBar(progress);
  try {
    const audit = { actor: cliActor(), operation: 'cli import placement' };
    const summary = await runAudited(audit, () =>
      importPlacement(createServices(dataSource), opts.from, {
        dryRun: opts.dryRun ?? false,
        batch: opts.batch,
        replace: opts.replace ?? false,
        skipInvalid: opts.skipInvalid ?? false,
        onProgress: (done, total, label) => bar.update(done, total, label),
      }),
    );
    bar.finish();
    out.write(`${opts.json ? jsonForTerminal(summary) : renderPlacementSummary(summary)}\n`);
    return summary;
  } finally {
    bar.finish();
  }
}

/** Adds `import placement` under the `import` command. */
export function registerImportPlacementCommand(importCmd: Command): void {
  importCmd
    .command('placement')
    .description(
      'migrate a Placement 8.0 database (providers, inventories, traits, aggregates, consumers, allocations) into berth',
    )
    .requiredOption('--from <url>', 'Placement database: postgresql://... or mysql://...')
    .option('--dry-run', 'report what would change; write nothing')
    .option('--batch <n>', 'providers (then consumers) per transaction', positiveInt, DEFAULT_BATCH)
    .option('--replace', "overwrite berth's providers and consumers that differ from the source")
    .option(
      '--skip-invalid',
      "import what is valid: leave out (and list) source rows berth's API would refuse and the " +
        'providers and consumers that depend on them; without it any such row refuses the whole ' +
        'import (exit 1, nothing written, each row named)',
    )
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      '\nExit status: 0 imported (or nothing to change); 1 failed: the source is unreadable, holds ' +
        "rows berth's API would refuse, or berth holds data that differs (without --replace), and " +
        'then nothing was written (a run interrupted part-way is completed by a re-run); 2 imported ' +
        'with --skip-invalid, some source rows left out (listed).\nThe rules every source row must ' +
        'pass: docs/import-and-quota.md, section 3.',
    )
    .action(async (opts: PlacementCommandOptions) => {
      let db: Awaited<ReturnType<typeof openDatabase>>;
      try {
        db = await openDatabase(loadConfig());
        await migrateDatabase(db.dataSource);
        await seedStandard(db.dataSource.manager);
      } catch (err) {
        process.stderr.write(`berth: ${describeStartupError(err)}\n`);
        process.exitCode = 1;
        return;
      }
      try {
        const summary = await runPlacementImport(
          db.dataSource,
          opts,
          process.stdout,
          process.stderr,
        );
        // As `berth import compute-nodes`: 2 = finished, but some source rows were left out.
        if ((summary.skipped ?? []).length > 0) {
          process.exitCode = 2;
        }
      } catch (err) {
        // Each line escaped on its own: the rows of an invalid source stay one per line, and
        // nothing taken from the source can start a line of its own.
        const lines =
          err instanceof PlacementImportInvalidError ? err.lines() : [(err as Error).message];
        process.stderr.write(`berth: import failed: ${lines.map(escapeForTerminal).join('\n')}\n`);
        process.exitCode = 1;
      } finally {
        await db.close();
      }
    });
}
