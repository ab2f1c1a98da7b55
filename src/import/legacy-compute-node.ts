// Maps one legacy Nova `compute_nodes` row to a resource provider and its inventories, with the
// reason for everything left out (seed 001 "compute node inventory", steps 1-4d; upstream:
// nova/objects/compute_node.py _migrate_inventory, nova/virt/driver.py update_provider_tree).
// Pure: the readers supply the row, the import service writes the plan.
import { type InventoryInput, normalizeInventory } from '../placement/inventory-rules';
import { capacityOf } from '../placement/types';
import { isUuid, normalizeUuidOrThrow } from '../placement/uuid';
import { NUMA_CLASSES, numaCells, numaInventories } from './legacy-numa';
import {
  LegacyDataError,
  type LegacyPciDevice,
  PCI_CLASSES,
  type PciCapacity,
  pciFromDevices,
  pciFromStats,
} from './legacy-pci';

/** A row as read from the source: Nova column names, values as the driver returns them. */
export type LegacyComputeNodeRow = Readonly<Record<string, unknown>>;

/** Nova's initial_{cpu,ram,disk}_allocation_ratio: used where the row has NULL or 0.0. */
export const DEFAULT_ALLOCATION_RATIOS = { VCPU: 16, MEMORY_MB: 1.5, DISK_GB: 1 } as const;

/** Every class the importer writes; on imported providers it owns these (and only these). */
export const IMPORTED_CLASSES: readonly string[] = [
  'VCPU',
  'MEMORY_MB',
  'DISK_GB',
  ...PCI_CLASSES,
  ...NUMA_CLASSES,
];

/** Operator knowledge the legacy table does not hold. */
export interface ComputeNodeMappingOptions {
  /** host or hypervisor_hostname values whose instance disks are on shared storage; '*' = all. */
  readonly sharedStorageHosts?: readonly string[];
  /** Most units of a PCI class one instance may take (the seed's "8 VFs per instance"). */
  readonly pciMaxUnit?: Readonly<Record<string, number>>;
  /** nova.conf reserved_host_cpus (cores). */
  readonly reservedHostCpus?: number;
  /** nova.conf reserved_host_memory_mb (MiB). */
  readonly reservedHostMemoryMb?: number;
  /** nova.conf reserved_host_disk_mb (MiB, rounded up to whole GiB as Nova does). */
  readonly reservedHostDiskMb?: number;
}

/** A fully defaulted inventory line. */
export type PlannedInventory = Required<InventoryInput>;

/** A class the node could have offered but will not, and why. */
export interface SkippedInventory {
  readonly resourceClass: string;
  readonly reason: string;
}

/** What one compute node becomes in berth. */
export interface ComputeNodePlan {
  readonly sourceId: string;
  /** Canonical uuid, or null when the row has none (generated, or adopted by name). */
  readonly uuid: string | null;
  readonly name: string;
  /** Sorted by class name. */
  readonly inventories: readonly PlannedInventory[];
  readonly skipped: readonly SkippedInventory[];
  readonly notes: readonly string[];
}

/** The mapping of one row: a plan, a deliberate skip, or a bad row. */
export type ComputeNodeMapping =
  | { readonly kind: 'plan'; readonly plan: ComputeNodePlan }
  | {
      readonly kind: 'skip' | 'bad';
      readonly sourceId: string;
      readonly name: string | null;
      readonly reason: string;
    };

/** Thrown inside the mapping for a value that makes the whole row unusable. */
class BadRowError extends Error {}

function numberOf(row: LegacyComputeNodeRow, column: string): number | null {
  const v = row[column];
  if (v === null || v === undefined) {
    return null;
  }
  const n =
    typeof v === 'number' ? v : typeof v === 'bigint' || typeof v === 'string' ? Number(v) : NaN;
  if (!Number.isFinite(n)) {
    throw new BadRowError(`${column} is not a number (${String(v)})`);
  }
  return n;
}

/** A NOT NULL, non-negative integer column of Nova's model. */
function countOf(row: LegacyComputeNodeRow, column: string): number {
  const n = numberOf(row, column);
  if (n === null || !Number.isInteger(n) || n < 0) {
    throw new BadRowError(`${column} must be a non-negative integer (got ${n ?? 'NULL'})`);
  }
  return n;
}

function ratioOf(
  row: LegacyComputeNodeRow,
  column: string,
  fallback: number,
  notes: string[],
): number {
  const n = numberOf(row, column);
  if (n === null || n === 0) {
    notes.push(`${column} unset: using ${fallback} (Nova's initial default)`);
    return fallback;
  }
  if (n < 0) {
    throw new BadRowError(`${column} must be positive (got ${n})`);
  }
  return n;
}

function textOf(row: LegacyComputeNodeRow, column: string): string | null {
  const v = row[column];
  return v === null || v === undefined || v === '' ? null : String(v);
}

function inventoryOrThrow(inv: InventoryInput): PlannedInventory {
  try {
    return normalizeInventory(inv);
  } catch (err) {
    throw new BadRowError((err as Error).message);
  }
}

function noteOverUse(notes: string[], column: string, used: number | null, inv: PlannedInventory) {
  const capacity = capacityOf(inv);
  if (used !== null && used > capacity) {
    notes.push(
      `${column} ${used} is above the ${inv.resourceClass} capacity ${capacity}: instance allocations will not all fit`,
    );
  }
}

function diskInventory(
  row: LegacyComputeNodeRow,
  opts: ComputeNodeMappingOptions,
  notes: string[],
): PlannedInventory {
  const total = countOf(row, 'local_gb');
  const least = numberOf(row, 'disk_available_least');
  let maxUnit = total;
  if (least !== null && least >= 1) {
    maxUnit = Math.min(Math.floor(least), total);
  } else if (least !== null) {
    notes.push(`disk_available_least ${least} ignored: max_unit must be at least 1`);
  }
  return inventoryOrThrow({
    resourceClass: 'DISK_GB',
    total,
    reserved: Math.ceil((opts.reservedHostDiskMb ?? 0) / 1024),
    maxUnit,
    allocationRatio: ratioOf(
      row,
      'disk_allocation_ratio',
      DEFAULT_ALLOCATION_RATIOS.DISK_GB,
      notes,
    ),
  });
}

function pciCapacity(row: LegacyComputeNodeRow, devices: readonly LegacyPciDevice[] | undefined) {
  return devices ? pciFromDevices(devices) : pciFromStats(row.pci_stats);
}

function pciInventories(pci: PciCapacity, opts: ComputeNodeMappingOptions): PlannedInventory[] {
  return [...pci.totals]
    .filter(([, total]) => total > 0)
    .map(([resourceClass, total]) =>
      inventoryOrThrow({
        resourceClass,
        total,
        maxUnit: Math.min(total, opts.pciMaxUnit?.[resourceClass] ?? total),
      }),
    );
}

function planOf(
  row: LegacyComputeNodeRow,
  sourceId: string,
  name: string,
  devices: readonly LegacyPciDevice[] | undefined,
  opts: ComputeNodeMappingOptions,
): ComputeNodePlan {
  const rawUuid = textOf(row, 'uuid');
  if (rawUuid !== null && !isUuid(rawUuid)) {
    throw new BadRowError(`uuid '${rawUuid}' is not a UUID`);
  }
  if (name.length > 200) {
    throw new BadRowError(
      'hypervisor_hostname is longer than the 200 characters of a provider name',
    );
  }
  const notes: string[] = [];
  const skipped: SkippedInventory[] = [];
  const inventories: PlannedInventory[] = [];
  const add = (inv: PlannedInventory, usedColumn?: string) => {
    inventories.push(inv);
    if (usedColumn) {
      noteOverUse(notes, usedColumn, numberOf(row, usedColumn), inv);
    }
  };
  const vcpus = countOf(row, 'vcpus');
  const cpuRatio = ratioOf(row, 'cpu_allocation_ratio', DEFAULT_ALLOCATION_RATIOS.VCPU, notes);
  if (vcpus === 0) {
    skipped.push({ resourceClass: 'VCPU', reason: 'vcpus is 0' });
  } else {
    add(
      inventoryOrThrow({
        resourceClass: 'VCPU',
        total: vcpus,
        reserved: opts.reservedHostCpus ?? 0,
        maxUnit: vcpus,
        allocationRatio: cpuRatio,
      }),
      'vcpus_used',
    );
  }
  const memory = countOf(row, 'memory_mb');
  const ramRatio = ratioOf(row, 'ram_allocation_ratio', DEFAULT_ALLOCATION_RATIOS.MEMORY_MB, notes);
  if (memory === 0) {
    skipped.push({ resourceClass: 'MEMORY_MB', reason: 'memory_mb is 0' });
  } else {
    add(
      inventoryOrThrow({
        resourceClass: 'MEMORY_MB',
        total: memory,
        reserved: opts.reservedHostMemoryMb ?? 0,
        maxUnit: memory,
        allocationRatio: ramRatio,
      }),
      'memory_mb_used',
    );
  }
  const shared = opts.sharedStorageHosts ?? [];
  const host = textOf(row, 'host');
  if (shared.includes('*') || shared.includes(name) || (host !== null && shared.includes(host))) {
    skipped.push({
      resourceClass: 'DISK_GB',
      reason: 'shared storage: the disk is not the compute node’s own (seed step 4b)',
    });
  } else if (countOf(row, 'local_gb') === 0) {
    skipped.push({ resourceClass: 'DISK_GB', reason: 'local_gb is 0' });
  } else {
    add(diskInventory(row, opts, notes), 'local_gb_used');
  }
  try {
    const pci = pciCapacity(row, devices);
    notes.push(...pci.notes);
    inventories.push(...pciInventories(pci, opts));
    inventories.push(...numaInventories(numaCells(row.numa_topology)).map(inventoryOrThrow));
  } catch (err) {
    if (err instanceof LegacyDataError) {
      throw new BadRowError(err.message);
    }
    throw err;
  }
  inventories.sort((a, b) => a.resourceClass.localeCompare(b.resourceClass));
  return {
    sourceId,
    uuid: rawUuid === null ? null : normalizeUuidOrThrow(rawUuid),
    name,
    inventories,
    skipped,
    notes,
  };
}

/**
 * Maps one row. Soft-deleted rows (Nova `deleted` != 0) are skipped; rows with unusable values
 * are "bad" with the reason; everything else becomes a plan.
 * @param devices the node's `pci_devices` rows, or undefined when the source has no such table
 *   (then `pci_stats` is read instead).
 */
export function mapComputeNode(
  row: LegacyComputeNodeRow,
  devices: readonly LegacyPciDevice[] | undefined,
  opts: ComputeNodeMappingOptions = {},
): ComputeNodeMapping {
  const sourceId = textOf(row, 'id') ?? '?';
  const name =
    textOf(row, 'hypervisor_hostname') ?? textOf(row, 'host') ?? `compute-node-${sourceId}`;
  const deleted = row.deleted;
  if (deleted !== undefined && deleted !== null && Number(deleted) !== 0) {
    return { kind: 'skip', sourceId, name, reason: `soft-deleted (deleted = ${String(deleted)})` };
  }
  if (sourceId === '?') {
    return { kind: 'bad', sourceId, name, reason: 'the row has no id' };
  }
  try {
    return { kind: 'plan', plan: planOf(row, sourceId, name, devices, opts) };
  } catch (err) {
    if (err instanceof BadRowError) {
      return { kind: 'bad', sourceId, name, reason: err.message };
    }
    throw err;
  }
}
