// berth's reading of Nova's HostState (upstream: nova/scheduler/host_manager.py HostState and
// _update_from_compute_node; the numbers as nova/compute/resource_tracker.py derives a compute node's
// from its inventory). JsonFilter (`$variable`) and ComputeCapabilitiesFilter (`capabilities:` extra
// specs) read host attributes by Nova's names; this module says what each name is in berth. Not a
// plugin: no NAME. Sums run over the whole provider tree (NUMA children included), as
// helpers.freeCapacity does. Attributes Placement holds nothing for are null, as Nova's are before a
// compute node reports them.
import { aggregateValues } from '../../src/scheduler/helpers';
import type { HostView } from '../../src/scheduler/plugin-api';
import { instances, ioOps, type MoveCounting } from '../host-counts';
import { readHostIp } from './ip';

/** A host attribute value, typed as Python sees it (dicts are plain objects). */
export type PyValue =
  | null
  | boolean
  | number
  | string
  | readonly PyValue[]
  | { readonly [key: string]: PyValue };

/** The trait Nova's compute sets while its service is disabled (read by ComputeFilter too). */
export const DISABLED_TRAIT = 'COMPUTE_STATUS_DISABLED';
/** The hypervisor version trait prefix (HypervisorVersionWeigher's default `traitPrefix`). */
export const HYPERVISOR_VERSION_TRAIT_PREFIX = 'CUSTOM_HYPERVISOR_VERSION_';
/** Aggregate metadata key naming the cell of the aggregate's hosts (berth convention). */
export const CELL_KEY = 'cell';

/** Nova HostState attributes berth derives from Placement, with where each comes from. */
export const MAPPED_ATTRIBUTES: Readonly<Record<string, string>> = {
  host: 'root provider name',
  nodename: 'root provider name',
  hypervisor_hostname: 'root provider name',
  uuid: 'root provider uuid',
  total_usable_ram_mb: 'MEMORY_MB total',
  free_ram_mb: 'MEMORY_MB total - reserved - used',
  total_usable_disk_gb: 'DISK_GB total',
  disk_mb_used: '(DISK_GB reserved + used) * 1024',
  free_disk_mb: '(DISK_GB total - reserved - used) * 1024',
  vcpus_total: 'VCPU total',
  vcpus_used: 'VCPU reserved + used',
  ram_allocation_ratio: 'MEMORY_MB allocation ratio',
  cpu_allocation_ratio: 'VCPU allocation ratio',
  disk_allocation_ratio: 'DISK_GB allocation ratio',
  num_instances: 'consumers on the tree (countMovesOn)',
  num_io_ops: 'consumers on the tree with a move in progress (countMovesOn)',
  host_ip: 'root trait CUSTOM_HOST_IP_<address>',
  hypervisor_version: `root trait ${HYPERVISOR_VERSION_TRAIT_PREFIX}<n>`,
  cell_uuid: `aggregate metadata "${CELL_KEY}"`,
  service: `{"disabled": root trait ${DISABLED_TRAIT}}`,
  stats: '{"num_instances": "<n>", "io_workload": "<n>"} (strings, as Nova stores stats)',
};

/** Nova HostState attributes Placement holds nothing for: always null in berth. */
export const UNMAPPED_ATTRIBUTES: readonly string[] = [
  'aggregates',
  'cpu_info',
  'failed_builds',
  'hypervisor_type',
  'instances',
  'limits',
  'metrics',
  'numa_topology',
  'pci_stats',
  'supported_instances',
  'updated',
];

/** Attributes Nova holds as Python floats (`str()` writes 16.0, not 16). */
export const FLOAT_ATTRIBUTES: ReadonlySet<string> = new Set([
  'ram_allocation_ratio',
  'cpu_allocation_ratio',
  'disk_allocation_ratio',
]);

/** The keys of the `stats` attribute (Nova compute stats berth can give). */
export const STATS_KEYS: readonly string[] = ['num_instances', 'io_workload'];

/** Whether Nova's HostState has an attribute `name` (mapped or not). */
export function isHostStateAttribute(name: string): boolean {
  return Object.hasOwn(MAPPED_ATTRIBUTES, name) || UNMAPPED_ATTRIBUTES.includes(name);
}

/** Sum over the tree of `part(inventory)` for one resource class (0 without any). */
function sumOf(
  host: HostView,
  resourceClass: string,
  part: (inv: { total: number; reserved: number; used: number }) => number,
): number {
  let sum = 0;
  for (const provider of host.providers) {
    const inv = provider.inventories[resourceClass];
    if (inv !== undefined) {
      sum += part(inv);
    }
  }
  return sum;
}

/** The allocation ratio of the first provider (root first) with the class; null without one. */
function ratioOf(host: HostView, resourceClass: string): number | null {
  for (const provider of host.providers) {
    const inv = provider.inventories[resourceClass];
    if (inv !== undefined) {
      return inv.allocationRatio;
    }
  }
  return null;
}

/** The highest `CUSTOM_HYPERVISOR_VERSION_<n>` of the root; null without one. */
export function hypervisorVersionOf(host: HostView): number | null {
  let version: number | null = null;
  for (const trait of host.root.traits) {
    const digits = trait.slice(HYPERVISOR_VERSION_TRAIT_PREFIX.length);
    if (trait.startsWith(HYPERVISOR_VERSION_TRAIT_PREFIX) && /^\d+$/.test(digits)) {
      version = Math.max(version ?? 0, Number(digits));
    }
  }
  return version;
}

/**
 * The host's cell (Nova `HostState.cell_uuid`): the value of aggregate metadata `cell` on its
 * aggregates; null when none sets it or when they disagree (a host is in one cell).
 */
export function cellOf(host: HostView): string | null {
  const values = aggregateValues(host.aggregates, CELL_KEY).filter((v) => v !== '');
  return values.length === 1 ? values[0]! : null;
}

/**
 * The value of Nova HostState attribute `name` for `host`; null when unmapped or unknown. `moves`
 * says where a consumer with a move in progress counts in `num_instances`, `num_io_ops` and
 * `stats` (host-counts `countMovesOn`).
 */
export function hostStateValue(
  host: HostView,
  name: string,
  moves: MoveCounting = 'both',
): PyValue {
  switch (name) {
    case 'host':
    case 'nodename':
    case 'hypervisor_hostname':
      return host.name;
    case 'uuid':
      return host.uuid;
    case 'total_usable_ram_mb':
      return sumOf(host, 'MEMORY_MB', (i) => i.total);
    case 'free_ram_mb':
      return sumOf(host, 'MEMORY_MB', (i) => i.total - i.reserved - i.used);
    case 'total_usable_disk_gb':
      return sumOf(host, 'DISK_GB', (i) => i.total);
    case 'disk_mb_used':
      return sumOf(host, 'DISK_GB', (i) => i.reserved + i.used) * 1024;
    case 'free_disk_mb':
      return sumOf(host, 'DISK_GB', (i) => i.total - i.reserved - i.used) * 1024;
    case 'vcpus_total':
      return sumOf(host, 'VCPU', (i) => i.total);
    case 'vcpus_used':
      return sumOf(host, 'VCPU', (i) => i.reserved + i.used);
    case 'ram_allocation_ratio':
      return ratioOf(host, 'MEMORY_MB');
    case 'cpu_allocation_ratio':
      return ratioOf(host, 'VCPU');
    case 'disk_allocation_ratio':
      return ratioOf(host, 'DISK_GB');
    case 'num_instances':
      return instances(host, moves);
    case 'num_io_ops':
      return ioOps(host, moves);
    case 'host_ip': {
      const ip = readHostIp(host);
      return ip.kind === 'ip' ? ip.text : null;
    }
    case 'hypervisor_version':
      return hypervisorVersionOf(host);
    case 'cell_uuid':
      return cellOf(host);
    case 'service':
      return { disabled: host.root.traits.includes(DISABLED_TRAIT) };
    case 'stats':
      return {
        num_instances: String(instances(host, moves)),
        io_workload: String(ioOps(host, moves)),
      };
    default:
      return null;
  }
}

function pyFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) {
    return `${n}.0`;
  }
  return Number.isFinite(n) ? String(n) : Number.isNaN(n) ? 'nan' : n > 0 ? 'inf' : '-inf';
}

function pyRepr(value: PyValue, float: boolean): string {
  if (typeof value === 'string') {
    // Python quotes with ' unless the text holds ' and no ".
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const escaped = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
    return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
  }
  return pyStr(value, float);
}

/** Python's `str()` of a value; `float` when Nova holds the number as a float. */
export function pyStr(value: PyValue, float = false): string {
  if (value === null) {
    return 'None';
  }
  if (typeof value === 'boolean') {
    return value ? 'True' : 'False';
  }
  if (typeof value === 'number') {
    return float ? pyFloat(value) : String(value);
  }
  if (typeof value === 'string') {
    return value;
  }
  if (Array.isArray(value)) {
    return `[${value.map((v) => pyRepr(v, false)).join(', ')}]`;
  }
  const entries = Object.entries(value as Record<string, PyValue>);
  return `{${entries.map(([k, v]) => `${pyRepr(k, false)}: ${pyRepr(v, false)}`).join(', ')}}`;
}
