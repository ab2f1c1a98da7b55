// Imports legacy Nova compute nodes into berth: maps each row, settles its uuid (the row's, a
// provider's of the same name, or a new one written back to the source), and applies it in one
// transaction per node; bad rows are reported and the rest carry on (seed 001 _migrate_inventory).
import { randomUUID } from 'node:crypto';
import type { Services } from '../app/services';
import { BadRequestError, ErrorCode, isPlacementError } from '../placement/errors';
import { providerUuidByName } from '../placement/provider-writes';
import { normalizeUuidOrThrow } from '../placement/uuid';
import { applyComputeNodePlan } from './apply-node';
import {
  type ComputeNodeMappingOptions,
  type LegacyComputeNodeRow,
  mapComputeNode,
  type SkippedInventory,
} from './legacy-compute-node';
import type { LegacyPciDevice } from './legacy-pci';
import type { LegacyNode, LegacySource } from './legacy-source';

/** Most rows one JSON import takes (the CLI streams any number). */
export const MAX_JSON_ROWS = 5000;

/** What happened to one row. */
export type ImportAction = 'created' | 'updated' | 'unchanged' | 'skipped' | 'failed';

/** Every action, in summary order. */
export const IMPORT_ACTIONS: readonly ImportAction[] = [
  'created',
  'updated',
  'unchanged',
  'skipped',
  'failed',
];

/** The outcome of one row. */
export interface NodeOutcome {
  readonly sourceId: string;
  readonly name: string | null;
  readonly uuid: string | null;
  readonly action: ImportAction;
  readonly changes: readonly string[];
  readonly skippedInventories: readonly SkippedInventory[];
  readonly notes: readonly string[];
  /** Why the row was skipped or failed. */
  readonly reason: string | null;
}

/** The outcome of a whole import. */
export interface ImportSummary {
  readonly source: string;
  readonly dryRun: boolean;
  readonly nodes: readonly NodeOutcome[];
  readonly counts: Readonly<Record<ImportAction, number>>;
}

/** How to import. */
export interface ImportOptions extends ComputeNodeMappingOptions {
  /** Compute and report everything, write nothing (berth or source). */
  readonly dryRun?: boolean;
  /** Persist generated uuids to the source rows (default true; sources only). */
  readonly writeBack?: boolean;
  /** Rows read per source query (default 500). */
  readonly batchSize?: number;
  /** Called after each row: rows done, rows in the table, the row's name. */
  readonly onProgress?: (done: number, total: number, label: string) => void;
}

/**
 * Checks the operator options once, before any row.
 * @throws BadRequestError for negative reserved amounts or PCI caps below 1.
 */
export function checkImportOptionsOrThrow(opts: ImportOptions): void {
  for (const [name, v] of [
    ['reservedHostCpus', opts.reservedHostCpus],
    ['reservedHostMemoryMb', opts.reservedHostMemoryMb],
    ['reservedHostDiskMb', opts.reservedHostDiskMb],
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 0)) {
      throw new BadRequestError(
        `${name} must be a non-negative integer (got ${v}).`,
        ErrorCode.INVALID_INPUT,
      );
    }
  }
  for (const [rc, cap] of Object.entries(opts.pciMaxUnit ?? {})) {
    if (!Number.isInteger(cap) || cap < 1) {
      throw new BadRequestError(
        `The PCI max_unit of ${rc} must be an integer of at least 1.`,
        ErrorCode.INVALID_INPUT,
      );
    }
  }
}

function messageOf(err: unknown): string {
  if (isPlacementError(err) || err instanceof Error) {
    return err.message.split('\n')[0] ?? String(err);
  }
  return String(err);
}

/** Imports compute nodes from a legacy source or from JSON rows. */
export class ComputeNodeImporter {
  constructor(private readonly services: Services) {}

  /**
   * Reads every row of `source` and imports it. Errors reading the source propagate.
   * @throws BadRequestError for invalid options.
   */
  async fromSource(source: LegacySource, opts: ImportOptions = {}): Promise<ImportSummary> {
    checkImportOptionsOrThrow(opts);
    const total = await source.count();
    const run = this.run(opts, source);
    for await (const batch of source.nodes(opts.batchSize ?? 500)) {
      for (const node of batch) {
        await run.one(node, total);
      }
    }
    return run.summary(source.description);
  }

  /**
   * Imports rows given as JSON objects (Nova column names; an optional `pci_devices` array per
   * row stands for the device table). Generated uuids are only reported: there is no source to
   * write them back to.
   * @throws BadRequestError when `rows` is not an array of at most {@link MAX_JSON_ROWS} objects.
   */
  async fromRows(rows: unknown, opts: ImportOptions = {}): Promise<ImportSummary> {
    if (
      !Array.isArray(rows) ||
      !rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))
    ) {
      throw new BadRequestError(
        'rows must be an array of compute_nodes row objects',
        ErrorCode.INVALID_INPUT,
      );
    }
    if (rows.length > MAX_JSON_ROWS) {
      throw new BadRequestError(
        `At most ${MAX_JSON_ROWS} rows per request (got ${rows.length}); split the payload or use the CLI.`,
        ErrorCode.INVALID_INPUT,
      );
    }
    checkImportOptionsOrThrow(opts);
    const run = this.run({ ...opts, writeBack: false }, null);
    for (const r of rows as LegacyComputeNodeRow[]) {
      const devices = r.pci_devices;
      await run.one(
        { row: r, pciDevices: Array.isArray(devices) ? (devices as LegacyPciDevice[]) : undefined },
        rows.length,
      );
    }
    return run.summary('JSON rows');
  }

  private run(opts: ImportOptions, source: LegacySource | null) {
    const outcomes: NodeOutcome[] = [];
    const seen = new Map<string, string>();
    const one = async (node: LegacyNode, total: number) => {
      const outcome = await this.importOne(node, source, opts, seen);
      outcomes.push(outcome);
      opts.onProgress?.(outcomes.length, Math.max(total, outcomes.length), outcome.name ?? '');
    };
    const summary = (description: string): ImportSummary => {
      const counts = Object.fromEntries(IMPORT_ACTIONS.map((a) => [a, 0])) as Record<
        ImportAction,
        number
      >;
      for (const o of outcomes) {
        counts[o.action] += 1;
      }
      return { source: description, dryRun: opts.dryRun ?? false, nodes: outcomes, counts };
    };
    return { one, summary };
  }

  private async importOne(
    node: LegacyNode,
    source: LegacySource | null,
    opts: ImportOptions,
    seen: Map<string, string>,
  ): Promise<NodeOutcome> {
    const mapped = mapComputeNode(node.row, node.pciDevices, opts);
    if (mapped.kind !== 'plan') {
      return {
        sourceId: mapped.sourceId,
        name: mapped.name,
        uuid: null,
        action: mapped.kind === 'skip' ? 'skipped' : 'failed',
        changes: [],
        skippedInventories: [],
        notes: [],
        reason: mapped.reason,
      };
    }
    const plan = mapped.plan;
    const notes = [...plan.notes];
    const base = { sourceId: plan.sourceId, name: plan.name, skippedInventories: plan.skipped };
    let uuid = plan.uuid;
    try {
      if (uuid === null) {
        uuid = await this.settleUuid(plan.sourceId, plan.name, source, opts, notes);
      }
      const other = seen.get(uuid);
      if (other !== undefined) {
        const reason = `uuid ${uuid} was already imported from row ${other} in this run`;
        return { ...base, uuid, action: 'failed', changes: [], notes, reason };
      }
      seen.set(uuid, plan.sourceId);
      const s = this.services;
      const applied = await applyComputeNodePlan(
        s.dataSource,
        s.changes,
        s.inventories,
        { ...plan, uuid },
        opts.dryRun ?? false,
      );
      return { ...base, uuid, ...applied, notes, reason: null };
    } catch (err) {
      return { ...base, uuid, action: 'failed', changes: [], notes, reason: messageOf(err) };
    }
  }

  /**
   * A uuid for a row without one: the provider already named like the node (a previous run
   * without write-back), else a new one; written back to the source unless told not to.
   */
  private async settleUuid(
    sourceId: string,
    name: string,
    source: LegacySource | null,
    opts: ImportOptions,
    notes: string[],
  ): Promise<string> {
    const named = await providerUuidByName(this.services.dataSource, name);
    let uuid = named ?? randomUUID();
    notes.push(
      named
        ? 'row has no uuid: adopting the provider of the same name'
        : 'row has no uuid: generated one',
    );
    if (!source || opts.writeBack === false) {
      notes.push('uuid not written back to the source');
      return uuid;
    }
    if (opts.dryRun) {
      notes.push('uuid would be written back to the source');
      return uuid;
    }
    const kept = await source.writeBackUuid(sourceId, uuid);
    if (kept !== uuid) {
      notes.push('another writer set the row’s uuid first: using it');
      uuid = normalizeUuidOrThrow(kept, 'uuid in the source row');
    } else {
      notes.push('uuid written back to the source');
    }
    return uuid;
  }
}
