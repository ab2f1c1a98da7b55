// `berth import compute-nodes`: imports a legacy Nova compute_nodes table from PostgreSQL or
// MySQL/MariaDB into providers and inventories (seed 001), with a progress bar and a summary.

import { type Command, InvalidArgumentError } from 'commander';
import type { DataSource } from 'typeorm';
import { createServices } from '../app/services';
import { cliActor } from '../auth/audit-actor';
import { loadConfig } from '../config/config';
import { migrateDatabase } from '../db/migrate';
import { seedStandard } from '../db/seed';
import {
  ComputeNodeImporter,
  type ImportOptions,
  type ImportSummary,
} from '../import/import-service';
import { redactUrl } from '../import/legacy-source';
import { openLegacySource } from '../import/open-source';
import { ProgressBar, type ProgressStream } from '../import/progress';
import { renderSummary } from '../import/summary-table';
import { escapeForTerminal, jsonForTerminal } from '../lib/text-table';
import { runAudited } from '../placement/audit';
import { openDatabase } from './database';
import { describeStartupError } from './errors';
import { registerImportPlacementCommand } from './import-placement-command';
import { nonNegativeInt, positiveInt } from './int-options';

/** Options of `berth import compute-nodes`, as commander parses them. */
export interface ComputeNodesCommandOptions {
  readonly from: string;
  readonly table: string;
  readonly pciTable?: string;
  readonly dryRun?: boolean;
  readonly writeBack: boolean;
  readonly sharedStorage?: string[];
  readonly pciMaxUnit?: Record<string, number>;
  readonly reservedHostCpus?: number;
  readonly reservedHostMemoryMb?: number;
  readonly reservedHostDiskMb?: number;
  readonly batchSize: number;
  readonly json?: boolean;
}

/** Exit status when the import finished but some rows failed. */
export const EXIT_ROWS_FAILED = 2;

function hostList(v: string): string[] {
  return v
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
}

function pciCaps(v: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of hostList(v)) {
    const m = /^([A-Z0-9_]+)=(\d+)$/.exec(part);
    if (!m || Number(m[2]) < 1) {
      throw new InvalidArgumentError(`expected CLASS=N with N >= 1 (got '${part}')`);
    }
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

/**
 * Runs the import into `dataSource` and writes the summary (text or JSON) to `out`; the bar
 * goes to `progress` when it is a TTY.
 * @returns the summary and the process exit status (0, or {@link EXIT_ROWS_FAILED}).
 * @throws when the source cannot be opened or read.
 */
export async function runComputeNodesImport(
  dataSource: DataSource,
  opts: ComputeNodesCommandOptions,
  out: { write(chunk: string): unknown },
  progress: ProgressStream,
): Promise<{ summary: ImportSummary; exitCode: number }> {
  let source: Awaited<ReturnType<typeof openLegacySource>>;
  try {
    source = await openLegacySource(opts.from, { table: opts.table, pciTable: opts.pciTable });
  } catch (err) {
    throw new Error(`cannot read ${redactUrl(opts.from)}: ${(err as Error).message}`);
  }
  const bar = new ProgressBar(progress);
  const importOpts: ImportOptions = {
    dryRun: opts.dryRun ?? false,
    writeBack: opts.writeBack,
    batchSize: opts.batchSize,
    sharedStorageHosts: opts.sharedStorage,
    pciMaxUnit: opts.pciMaxUnit,
    reservedHostCpus: opts.reservedHostCpus,
    reservedHostMemoryMb: opts.reservedHostMemoryMb,
    reservedHostDiskMb: opts.reservedHostDiskMb,
    onProgress: (done, total, label) => bar.update(done, total, label),
  };
  try {
    const importer = new ComputeNodeImporter(createServices(dataSource));
    const summary = await runAudited(
      { actor: cliActor(), operation: 'cli import compute-nodes' },
      () => importer.fromSource(source, importOpts),
    );
    bar.finish();
    out.write(`${opts.json ? jsonForTerminal(summary) : renderSummary(summary)}\n`);
    return { summary, exitCode: summary.counts.failed > 0 ? EXIT_ROWS_FAILED : 0 };
  } finally {
    bar.finish();
    await source.close();
  }
}

/** Adds `import compute-nodes` to the berth program. */
export function registerImportCommand(program: Command): void {
  const importCmd = program.command('import').description('import capacity from legacy systems');
  registerImportPlacementCommand(importCmd);
  importCmd
    .command('compute-nodes')
    .description(
      "create a provider with inventories for every row of Nova's legacy compute_nodes table",
    )
    .requiredOption('--from <url>', 'legacy database: postgres://..., mysql://... or mariadb://...')
    .option('--table <name>', 'compute nodes table, [schema.]name', 'compute_nodes')
    .option('--pci-table <name>', 'PCI devices table (default: pci_devices next to --table)')
    .option('--dry-run', 'report what would change; write nothing to berth or the source')
    .option('--no-write-back', 'do not save generated uuids to source rows that have none')
    .option(
      '--shared-storage <hosts>',
      'hosts whose disk is shared storage (comma list, * = all)',
      hostList,
    )
    .option('--pci-max-unit <caps>', 'per-instance PCI caps, e.g. SRIOV_NET_VF=8', pciCaps)
    .option('--reserved-host-cpus <n>', 'nova.conf reserved_host_cpus', nonNegativeInt)
    .option('--reserved-host-memory-mb <n>', 'nova.conf reserved_host_memory_mb', nonNegativeInt)
    .option('--reserved-host-disk-mb <n>', 'nova.conf reserved_host_disk_mb', nonNegativeInt)
    .option('--batch-size <n>', 'rows read per query', positiveInt, 500)
    .option('--json', 'print the summary as JSON')
    .action(async (opts: ComputeNodesCommandOptions) => {
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
        const run = await runComputeNodesImport(
          db.dataSource,
          opts,
          process.stdout,
          process.stderr,
        );
        process.exitCode = run.exitCode;
      } catch (err) {
        process.stderr.write(
          `berth: import failed: ${escapeForTerminal((err as Error).message)}\n`,
        );
        process.exitCode = 1;
      } finally {
        await db.close();
      }
    });
}
