// `berth export placement`: the way back from berth to Placement 8.0. Reads berth's whole model
// in one REPEATABLE READ snapshot and writes it, with the same uuids, names, generations and
// links, into a Placement database whose schema `placement-manage db sync` made. All or nothing:
// the whole export is ONE transaction on the target (committed at the end, rolled back on any
// error), so a failed run leaves Placement as it was and can simply be re-run; --batch only
// sizes the multi-row INSERT statements. A target that holds providers or consumers is refused
// unless --replace, which empties Placement's tables first in that same transaction.
import type { DataSource } from 'typeorm';
import { readBerthModel } from './berth-model';
import type { PlacementSnapshot } from './read-placement';
import { openPlacementTarget } from './target';
import {
  EXPORT_KINDS,
  type ExportCounts,
  emptyTarget,
  planPlacementWrite,
  targetContents,
  writePlacement,
} from './write-placement';

/** Default rows per INSERT statement. */
export const DEFAULT_EXPORT_BATCH = 500;

/** How to export. */
export interface PlacementExportOptions {
  /** Report what would be written; write nothing. */
  readonly dryRun?: boolean;
  /** Rows per INSERT statement (default {@link DEFAULT_EXPORT_BATCH}). */
  readonly batch?: number;
  /** Empty the target's Placement tables first (same transaction). */
  readonly replace?: boolean;
  /** After each statement: rows written so far, rows in total, the table written. */
  readonly onProgress?: (done: number, total: number, label: string) => void;
}

/** The outcome of an export (or, for a dry run, what it would write). */
export interface PlacementExportSummary {
  readonly target: string;
  readonly dryRun: boolean;
  readonly counts: ExportCounts;
  /** What the target held before (--replace removed it). */
  readonly removed: { providers: number; consumers: number; allocations: number };
  readonly seconds: number;
}

/** Berth's model, read in one consistent snapshot. */
export async function readBerth(ds: DataSource): Promise<PlacementSnapshot> {
  const qr = ds.createQueryRunner();
  await qr.connect();
  try {
    await qr.startTransaction('REPEATABLE READ');
    const snap = await readBerthModel(qr.manager);
    await qr.commitTransaction();
    return snap;
  } finally {
    if (qr.isTransactionActive) {
      await qr.rollbackTransaction();
    }
    await qr.release();
  }
}

/**
 * Writes berth's model into the Placement database at `to`.
 * @throws Error when the target is not a Placement database, holds providers or consumers
 * (without `replace`), or a write fails (nothing is committed then).
 */
export async function exportPlacement(
  ds: DataSource,
  to: string,
  opts: PlacementExportOptions = {},
): Promise<PlacementExportSummary> {
  const started = Date.now();
  const batch = opts.batch ?? DEFAULT_EXPORT_BATCH;
  if (!Number.isInteger(batch) || batch < 1) {
    throw new Error(`batch must be an integer of at least 1 (got ${batch})`);
  }
  const snap = await readBerth(ds);
  const target = await openPlacementTarget(to);
  try {
    const held = await targetContents(target);
    const holds = held.providers + held.consumers + held.allocations > 0;
    if (holds && !opts.replace) {
      throw new Error(
        `${target.description} already holds ${held.providers} provider(s), ${held.consumers} consumer(s) and ${held.allocations} allocation(s); nothing was written. ` +
          'Export into an empty Placement database (fresh `placement-manage db sync`), or re-run with --replace to empty its Placement tables first.',
      );
    }
    if (holds && !opts.dryRun) {
      await emptyTarget(target, snap);
    }
    // After --replace the catalogue that stays (standard classes and traits) is what counts.
    const counts = await planPlacementWrite(target, snap);
    if (holds && opts.dryRun) {
      // --replace would delete these before writing them again.
      for (const k of ['aggregates', 'projects', 'users', 'consumer types'] as const) {
        counts[k] = { written: counts[k].written + counts[k].reused, reused: 0 };
      }
    }
    const total = EXPORT_KINDS.reduce((n, k) => n + counts[k].written, 0);
    if (opts.dryRun) {
      opts.onProgress?.(total, total, 'dry run');
    } else {
      let done = 0;
      await writePlacement(target, snap, batch, (n, table) => {
        done += n;
        opts.onProgress?.(done, total, table);
      });
      await target.commit();
    }
    return {
      target: target.description,
      dryRun: opts.dryRun ?? false,
      counts,
      removed: held,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await target.close();
  }
}
