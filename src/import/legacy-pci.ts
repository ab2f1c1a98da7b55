// PCI capacity of a legacy Nova compute node: counts per resource class from `pci_devices` rows,
// or from the `compute_nodes.pci_stats` pools when there is no device table (seed 001, step 4c;
// upstream: nova/objects/pci_device_pool.py, nova/pci/stats.py). Pure, no I/O.

/** A `pci_devices` row (only the columns the importer reads). */
export interface LegacyPciDevice {
  readonly dev_type: string | null;
  readonly status: string | null;
  /** Nova soft delete: non-zero means the device row is gone. */
  readonly deleted?: number | string | null;
}

/** Nova dev_type -> Placement resource class (os-resource-classes has no PF class). */
export const PCI_CLASS_BY_DEV_TYPE: Readonly<Record<string, string>> = {
  'type-PCI': 'PCI_DEVICE',
  'type-VF': 'SRIOV_NET_VF',
  'type-PF': 'CUSTOM_SRIOV_NET_PF',
};

/** Every class this module can produce. */
export const PCI_CLASSES: readonly string[] = Object.values(PCI_CLASS_BY_DEV_TYPE);

/** Device states that still count as capacity (allocated devices are used, not gone). */
const COUNTED_STATUSES = new Set(['available', 'claimed', 'allocated']);

/** PCI totals per class, with what was left out and why. */
export interface PciCapacity {
  readonly totals: Map<string, number>;
  readonly notes: string[];
}

/** Thrown for pci_stats that cannot be read (the row is reported as bad). */
export class LegacyDataError extends Error {}

/** Parses a JSON column that may arrive as text (TEXT columns) or already decoded (json/JSON payloads). */
export function parseJsonColumn(column: string, value: unknown): unknown {
  if (value === null || value === undefined || value === '') {
    return null;
  }
  if (typeof value !== 'string') {
    return value;
  }
  try {
    return JSON.parse(value);
  } catch {
    throw new LegacyDataError(`${column} is not valid JSON`);
  }
}

/** Unwraps a Nova versioned object ({"nova_object.data": {...}}) or returns the value as is. */
export function novaObjectData(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && 'nova_object.data' in v) {
    return (v as Record<string, unknown>)['nova_object.data'];
  }
  return v;
}

function addTo(totals: Map<string, number>, rc: string, n: number): void {
  totals.set(rc, (totals.get(rc) ?? 0) + n);
}

/** Counts devices per class: live rows in a counted status; the rest are noted per reason. */
export function pciFromDevices(devices: readonly LegacyPciDevice[]): PciCapacity {
  const totals = new Map<string, number>();
  const ignored = new Map<string, number>();
  for (const d of devices) {
    if (d.deleted !== undefined && d.deleted !== null && Number(d.deleted) !== 0) {
      continue;
    }
    const rc = PCI_CLASS_BY_DEV_TYPE[d.dev_type ?? ''];
    const why = !rc
      ? `dev_type ${d.dev_type ?? 'NULL'} has no resource class`
      : !COUNTED_STATUSES.has(d.status ?? '')
        ? `status ${d.status ?? 'NULL'}`
        : null;
    if (why) {
      ignored.set(why, (ignored.get(why) ?? 0) + 1);
      continue;
    }
    addTo(totals, rc!, 1);
  }
  const notes = [...ignored].map(([why, n]) => `${n} PCI device(s) not counted: ${why}`);
  return { totals, notes };
}

/**
 * Totals per class from pci_stats pools (PciDevicePoolList or a plain list of pools).
 * Pool counts are free devices at the last report, so allocated devices are missing: noted.
 * @throws LegacyDataError when the JSON is not a list of pools with integer counts.
 */
export function pciFromStats(raw: unknown): PciCapacity {
  const parsed = novaObjectData(parseJsonColumn('pci_stats', raw));
  if (parsed === null) {
    return { totals: new Map(), notes: [] };
  }
  const pools =
    parsed !== null && typeof parsed === 'object' && 'objects' in parsed
      ? (parsed as { objects: unknown }).objects
      : parsed;
  if (!Array.isArray(pools)) {
    throw new LegacyDataError('pci_stats is neither a PciDevicePoolList nor a list of pools');
  }
  const totals = new Map<string, number>();
  const notes: string[] = [];
  for (const entry of pools) {
    const pool = novaObjectData(entry) as Record<string, unknown> | null;
    const count = pool?.count;
    if (
      pool === null ||
      typeof pool !== 'object' ||
      !Number.isInteger(count) ||
      Number(count) < 0
    ) {
      throw new LegacyDataError('pci_stats has a pool without a non-negative integer count');
    }
    const tags = (pool.tags ?? {}) as Record<string, unknown>;
    const devType = String(pool.dev_type ?? tags.dev_type ?? 'type-PCI');
    const rc = PCI_CLASS_BY_DEV_TYPE[devType];
    if (!rc) {
      notes.push(`${count} PCI device(s) not counted: dev_type ${devType} has no resource class`);
      continue;
    }
    addTo(totals, rc, Number(count));
  }
  if (totals.size > 0) {
    notes.push('PCI totals from pci_stats (free devices at the last report; no pci_devices table)');
  }
  return { totals, notes };
}
