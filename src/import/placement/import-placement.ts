// src/import/placement/ is berth's side of Placement 8.0's database, both ways: reading a source
// (source.ts, read-placement.ts), checking its rows with the API's own rules (validate-*.ts),
// planning and applying the import to berth's tables (plan.ts, apply.ts, catalog.ts), and for
// `berth export placement` reading berth's model (berth-model.ts) and writing a Placement
// database (target.ts, write-placement.ts), with the summaries both commands print.
//
// `berth import placement`: reads a whole Placement 8.0 database and checks every row with the
// rules berth's API enforces (a row that breaks one refuses the whole import, unless skipInvalid
// leaves it out with the rows that depend on it), checks it against berth (a provider or consumer
// berth holds with other content, or a name held under another uuid, is a conflict unless
// --replace), then writes the catalogue, providers (parents first) and consumers in batches, one
// transaction each, skipping what berth already holds identically. A re-run, or a run after a
// crash, completes to the same end state without bumping a generation.
import type { DataSource } from 'typeorm';
import { noteAuditDetails } from '../../placement/audit';
import { type ChangeBus, writeTransaction } from '../../placement/change-bus';
import { ConflictError, ErrorCode } from '../../placement/errors';
import { applyConsumers, applyProviders } from './apply';
import { berthConsumers, berthProviders } from './berth-state';
import { type CatalogKind, ensureCatalog, loadCatalog, missingCatalog } from './catalog';
import { PlacementImportInvalidError } from './invalid-source-error';
import {
  type ConsumerDecision,
  type OverCommit,
  overCommitted,
  type PlanAction,
  type ProviderDecision,
  planConsumers,
  planProviders,
} from './plan';
import { readCheckedPlacement } from './read-placement';
import { openPlacementSource } from './source';
import type { SourceFinding } from './source-findings';
import type { CheckedSource, ImportKind } from './validate-source';

/** Default providers (and consumers) per transaction. */
export const DEFAULT_BATCH = 500;

/** How to import. */
export interface PlacementImportOptions {
  /** Report what would change; write nothing. */
  readonly dryRun?: boolean;
  /** Providers (then consumers) per transaction (default {@link DEFAULT_BATCH}). */
  readonly batch?: number;
  /** Overwrite berth providers and consumers whose content differs from the source. */
  readonly replace?: boolean;
  /**
   * Import what is valid: leave out the source rows that break a rule and the rows that depend on
   * them, and list them in the summary. Off: any such row refuses the whole import.
   */
  readonly skipInvalid?: boolean;
  /** After each batch: objects done, objects in total, what is being imported. */
  readonly onProgress?: (done: number, total: number, label: string) => void;
  /** After each committed batch (tests use it to crash between batches). */
  readonly onBatchCommitted?: (batch: number) => void | Promise<void>;
}

export type SummaryKind = ImportKind;

/** Counts for one kind. */
export interface KindCounts {
  created: number;
  updated: number;
  unchanged: number;
  overCommitted: number;
  /** Source rows left out (skipInvalid): breaking a rule, or depending on a row that does. */
  skipped: number;
}

/** The outcome of an import (or, for a dry run, what it would do). */
export interface PlacementImportSummary {
  readonly source: string;
  readonly dryRun: boolean;
  readonly counts: Record<SummaryKind, KindCounts>;
  /** Inventories whose source allocations exceed capacity (imported as they are). */
  readonly overCommitted: readonly OverCommit[];
  /** Providers and consumers overwritten (--replace), with what differed. */
  readonly replaced: readonly { kind: string; uuid: string; differences: readonly string[] }[];
  /** Consumers made for allocations without a consumers row (Placement's incomplete consumers). */
  readonly incompleteConsumers: number;
  /**
   * Source rows left out (skipInvalid): those breaking a rule first, then the valid providers and
   * consumers that depend on them (rule depends-on-skipped). Empty (or absent) when none were.
   */
  readonly skipped?: readonly SourceFinding[];
  /** False when berth already held everything (nothing written or to write). */
  readonly changed: boolean;
  readonly seconds: number;
}

/** Berth holds a provider or consumer the source has with other content. */
export class PlacementImportConflictError extends ConflictError {
  constructor(kind: string, uuid: string, differences: readonly string[], total: number) {
    super(
      `berth already holds ${kind} ${uuid} with different content: ${differences.join('; ')}` +
        `${total > 1 ? ` (${total} conflicting objects in all)` : ''}; nothing was written. ` +
        'Re-run with --replace (GraphQL: replace: true) to overwrite berth with the source.',
      ErrorCode.DUPLICATE_NAME,
    );
  }
}

const ALL_KINDS: SummaryKind[] = [
  'resource classes',
  'traits',
  'aggregates',
  'projects',
  'users',
  'consumer types',
  'providers',
  'inventories',
  'consumers',
  'allocations',
];

function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) {
    out.push(xs.slice(i, i + n));
  }
  return out;
}

const ACTION_FIELD: Record<Exclude<PlanAction, 'conflict'>, keyof KindCounts> = {
  create: 'created',
  replace: 'updated',
  unchanged: 'unchanged',
};

class Tally {
  readonly counts = Object.fromEntries(
    ALL_KINDS.map((k) => [
      k,
      { created: 0, updated: 0, unchanged: 0, overCommitted: 0, skipped: 0 },
    ]),
  ) as Record<SummaryKind, KindCounts>;
  readonly replaced: { kind: string; uuid: string; differences: string[] }[] = [];

  /** The non-zero counts, per kind (the audit details of one transaction). */
  audit(): Record<string, Record<string, number>> {
    return Object.fromEntries(
      ALL_KINDS.flatMap((k) => {
        const { overCommitted: _, skipped: __, ...c } = this.counts[k];
        const nonZero = Object.entries(c).filter(([, n]) => n > 0);
        return nonZero.length > 0 ? [[k, Object.fromEntries(nonZero)]] : [];
      }),
    );
  }

  providers(ds: readonly ProviderDecision[]): this {
    for (const d of ds) {
      if (d.action === 'conflict') continue;
      const f = ACTION_FIELD[d.action];
      this.counts.providers[f] += 1;
      this.counts.inventories[f] += d.source.inventories.length;
      if (d.action === 'replace' || (d.action === 'create' && d.nameHolder)) {
        this.replaced.push({ kind: 'provider', uuid: d.source.uuid, differences: d.differences });
      }
    }
    return this;
  }

  consumers(ds: readonly ConsumerDecision[]): this {
    for (const d of ds) {
      if (d.action === 'conflict') continue;
      const f = ACTION_FIELD[d.action];
      this.counts.consumers[f] += 1;
      this.counts.allocations[f] += d.source.allocations.length;
      if (d.action === 'replace') {
        this.replaced.push({ kind: 'consumer', uuid: d.source.uuid, differences: d.differences });
      }
    }
    return this;
  }

  catalog(kind: CatalogKind, total: number, created: number): void {
    this.counts[kind].created += created;
    this.counts[kind].unchanged += total - created;
  }
}

/**
 * Imports a source already read and checked.
 * @throws PlacementImportInvalidError when rows break a rule and `skipInvalid` is off;
 *   PlacementImportConflictError. Either way nothing was written.
 */
export async function importPlacementSnapshot(
  ds: DataSource,
  bus: ChangeBus,
  checked: CheckedSource,
  description: string,
  opts: PlacementImportOptions = {},
): Promise<PlacementImportSummary> {
  const started = Date.now();
  const size = opts.batch ?? DEFAULT_BATCH;
  if (!Number.isInteger(size) || size < 1) {
    throw new Error(`batch must be an integer of at least 1 (got ${size})`);
  }
  if (checked.invalid.length > 0 && !opts.skipInvalid) {
    throw new PlacementImportInvalidError(checked.invalid, checked.dependents.length);
  }
  const snap = checked.snapshot;
  const replace = opts.replace ?? false;
  const pBatches = chunks(snap.providers, size);
  const cBatches = chunks(snap.consumers, size);
  const total = snap.providers.length + snap.consumers.length;
  const over = overCommitted(snap.providers, snap.consumers);
  const sourceUuids = new Set(uuidsOf(snap.providers));

  // Pass 1, read-only: every decision, so a conflict stops the run before it writes anything.
  const pre = new Tally();
  let conflicts: { kind: string; uuid: string; differences: string[] }[] = [];
  for (const b of pBatches) {
    const ds1 = planProviders(
      b,
      await berthProviders(
        ds,
        uuidsOf(b),
        b.map((p) => p.name),
        false,
      ),
      replace,
      sourceUuids,
    );
    conflicts = conflicts.concat(conflictsOf('provider', ds1));
    pre.providers(ds1);
  }
  for (const b of cBatches) {
    const ds1 = planConsumers(b, await berthConsumers(ds, uuidsOf(b), false), replace);
    conflicts = conflicts.concat(conflictsOf('consumer', ds1));
    pre.consumers(ds1);
  }
  const first = conflicts[0];
  if (first) {
    throw new PlacementImportConflictError(
      first.kind,
      first.uuid,
      first.differences,
      conflicts.length,
    );
  }
  const tally = opts.dryRun ? pre : new Tally();
  if (opts.dryRun) {
    for (const [kind, names] of await missingCatalog(ds, snap)) {
      tally.catalog(kind, snap[pickOf(kind)].length, names.length);
    }
    opts.onProgress?.(total, total, 'dry run');
  } else {
    await writeTransaction(ds, bus, async (em, changes) => {
      const created = await ensureCatalog(em, snap);
      const batch = new Tally();
      for (const [kind, n] of created) {
        tally.catalog(kind, snap[pickOf(kind)].length, n);
        batch.catalog(kind, snap[pickOf(kind)].length, n);
      }
      noteAuditDetails({ import: batch.audit() });
      if ((created.get('resource classes') ?? 0) + (created.get('traits') ?? 0) > 0) {
        changes.catalogChanged();
      }
    });
    const cat = await loadCatalog(ds, snap);
    let done = 0;
    let batchNo = 0;
    for (const b of pBatches) {
      await writeTransaction(ds, bus, async (em, changes) => {
        const berth = await berthProviders(
          em,
          uuidsOf(b),
          b.map((p) => p.name),
          true,
        );
        const decided = planProviders(b, berth, replace, sourceUuids);
        throwOnConflict('provider', decided);
        changes.providers(await applyProviders(em, decided, cat));
        tally.providers(decided);
        noteAuditDetails({ import: new Tally().providers(decided).audit() });
      });
      done += b.length;
      opts.onProgress?.(done, total, 'providers');
      await opts.onBatchCommitted?.(++batchNo);
    }
    for (const b of cBatches) {
      await writeTransaction(ds, bus, async (em, changes) => {
        const decided = planConsumers(b, await berthConsumers(em, uuidsOf(b), true), replace);
        throwOnConflict('consumer', decided);
        const projects = decided
          .filter((d) => d.action !== 'unchanged')
          .map((d) => d.source.project);
        changes.providers(await applyConsumers(em, decided, cat), projects);
        tally.consumers(decided);
        noteAuditDetails({ import: new Tally().consumers(decided).audit() });
      });
      done += b.length;
      opts.onProgress?.(done, total, 'consumers');
      await opts.onBatchCommitted?.(++batchNo);
    }
  }
  tally.counts.inventories.overCommitted = over.length;
  for (const k of ALL_KINDS) {
    tally.counts[k].skipped = checked.skipped[k];
  }
  const changed = ALL_KINDS.some((k) => tally.counts[k].created + tally.counts[k].updated > 0);
  if (changed && !opts.dryRun) {
    // Bulk writes: tell every candidate index, cache and live feed to reload once at the end.
    await writeTransaction(ds, bus, async (_em, changes) => changes.everything());
  }
  return {
    source: description,
    dryRun: opts.dryRun ?? false,
    counts: tally.counts,
    overCommitted: over,
    replaced: tally.replaced,
    incompleteConsumers: snap.incompleteConsumers,
    skipped: [...checked.invalid, ...checked.dependents],
    changed,
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * Reads the Placement database at `from` and imports it into berth.
 * @throws Error when the source cannot be read; PlacementImportInvalidError,
 *   PlacementImportConflictError (nothing written).
 */
export async function importPlacement(
  services: { readonly dataSource: DataSource; readonly changes: ChangeBus },
  from: string,
  opts: PlacementImportOptions = {},
): Promise<PlacementImportSummary> {
  const started = Date.now();
  const source = await openPlacementSource(from);
  let checked: CheckedSource;
  try {
    checked = await readCheckedPlacement(source);
  } finally {
    await source.close();
  }
  const summary = await importPlacementSnapshot(
    services.dataSource,
    services.changes,
    checked,
    source.description,
    opts,
  );
  return { ...summary, seconds: (Date.now() - started) / 1000 };
}

function uuidsOf(b: readonly { uuid: string }[]): string[] {
  return b.map((x) => x.uuid);
}

function pickOf(kind: CatalogKind) {
  return (
    {
      'resource classes': 'resourceClasses',
      traits: 'traits',
      aggregates: 'aggregates',
      projects: 'projects',
      users: 'users',
      'consumer types': 'consumerTypes',
    } as const
  )[kind];
}

function conflictsOf(
  kind: string,
  ds: readonly (ProviderDecision | ConsumerDecision)[],
): { kind: string; uuid: string; differences: string[] }[] {
  return ds
    .filter((d) => d.action === 'conflict')
    .map((d) => ({ kind, uuid: d.source.uuid, differences: d.differences }));
}

function throwOnConflict(kind: string, ds: readonly (ProviderDecision | ConsumerDecision)[]): void {
  const c = conflictsOf(kind, ds);
  if (c[0]) {
    throw new PlacementImportConflictError(c[0].kind, c[0].uuid, c[0].differences, c.length);
  }
}
