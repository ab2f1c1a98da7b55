// `berth import placement --from URL [--dry-run] [--batch N] [--replace]`: migrates a running
// Placement 8.0 database into berth (src/import/placement), with a progress bar on a TTY
// (cli-progress) and a summary table at the end.

import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import type { DataSource } from 'typeorm';
import { cliActor } from '../auth/audit-actor';
import { loadConfig } from '../config';
import { migrateDatabase } from '../db/migrate';
import { seedStandard } from '../db/seed';
import {
  DEFAULT_BATCH,
  importPlacement,
  type PlacementImportSummary,
} from '../import/placement/import-placement';
import { renderPlacementSummary } from '../import/placement/summary';
import type { ProgressStream } from '../import/progress';
import { runAudited } from '../placement/audit';
import { createServices } from '../services';
import { openDatabase } from './database';
import { describeStartupError } from './errors';
import { positiveInt } from './int-options';

/** Options of `berth import placement`, as commander parses them. */
export interface PlacementCommandOptions {
  readonly from: string;
  readonly dryRun?: boolean;
  readonly batch: number;
  readonly replace?: boolean;
  readonly json?: boolean;
}

/**
 * Runs the import into `dataSource`, writing the summary to `out` and a bar to `progress` when
 * it is a TTY.
 * @throws when the source cannot be read, or on a conflict (nothing written).
 */
export async function runPlacementImport(
  dataSource: DataSource,
  opts: PlacementCommandOptions,
  out: { write(chunk: string): unknown },
  progress: ProgressStream,
): Promise<PlacementImportSummary> {
  const bar =
    progress.isTTY === true
      ? new cliProgress.SingleBar(
          {
            stream: progress as unknown as NodeJS.WritableStream,
            format: '[{bar}] {value}/{total} {percentage}% {label}',
            hideCursor: true,
          },
          cliProgress.Presets.legacy,
        )
      : undefined;
  let started = false;
  try {
    const audit = { actor: cliActor(), operation: 'cli import placement' };
    const summary = await runAudited(audit, () =>
      importPlacement(createServices(dataSource), opts.from, {
        dryRun: opts.dryRun ?? false,
        batch: opts.batch,
        replace: opts.replace ?? false,
        onProgress: (done, total, label) => {
          if (!bar) return;
          if (!started) {
            bar.start(total, 0, { label });
            started = true;
          }
          bar.update(done, { label });
        },
      }),
    );
    bar?.stop();
    out.write(
      `${opts.json ? JSON.stringify(summary, null, 2) : renderPlacementSummary(summary)}\n`,
    );
    return summary;
  } finally {
    bar?.stop();
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
    .option('--json', 'print the summary as JSON')
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
        await runPlacementImport(db.dataSource, opts, process.stdout, process.stderr);
      } catch (err) {
        process.stderr.write(`berth: import failed: ${(err as Error).message}\n`);
        process.exitCode = 1;
      } finally {
        await db.close();
      }
    });
}
