// Shared shape of the free-capacity plugins: a filter that needs enough free units of one class
// on the host tree (ratio overridable per aggregate) and a weigher by free units (multiplier
// overridable per aggregate). RamFilter/DiskFilter and RAM/Disk/CPU weighers are instances
// (upstream: nova/scheduler/filters/{ram,disk}_filter.py, nova/scheduler/weights/{ram,disk,cpu}.py).
// The filters count free as Placement does, `(total - reserved) * ratio - used`; the weighers as
// Nova's host state does (nova/scheduler/host_manager.py _update_from_compute_node).
import {
  freeCapacityWithOverride,
  numberField,
  pluginConfig,
  requestedAmount,
  withConfig,
} from '../../src/scheduler/helpers';
import type {
  FilterPlugin,
  HostView,
  PluginFactory,
  WeigherPlugin,
} from '../../src/scheduler/plugin-api';

/** What distinguishes one free-capacity filter from another. */
export interface CapacityFilterSpec {
  readonly name: string;
  readonly resourceClass: string;
  /** Aggregate metadata key overriding the inventories' allocation ratio (lowest wins). */
  readonly ratioKey: string;
  /** Rejection reason prefix. */
  readonly reason: string;
  /** Rejection reason code (`ram.insufficient`). */
  readonly code: string;
  /** Unit shown in reasons ('MB', 'GB'). */
  readonly unit: string;
}

/** Factory of a filter passing hosts with at least the requested free units. */
export function capacityFilter(spec: CapacityFilterSpec): PluginFactory<FilterPlugin> {
  return () =>
    ({
      name: spec.name,
      kind: 'filter',
      onError: 'closed',
      filter(host, req) {
        const wanted = requestedAmount(req, spec.resourceClass);
        if (wanted <= 0) {
          return { fits: true };
        }
        const { free, ratio } = freeCapacityWithOverride(host, spec.resourceClass, spec.ratioKey);
        if (free >= wanted) {
          return { fits: true };
        }
        const how =
          ratio === undefined
            ? 'inventory allocation ratio'
            : `aggregate ${spec.ratioKey}=${ratio}`;
        return {
          fits: false,
          reason: `${spec.reason}: wanted ${wanted} ${spec.unit}, found ${free} ${spec.unit} free (${how})`,
          code: spec.code,
        };
      },
    }) satisfies FilterPlugin;
}

/**
 * Nova's `free_ram_mb` / `free_disk_mb` on the tree: `total - reserved - used` summed over the
 * inventories of `resourceClass`, no allocation ratio (the compute node's `memory_mb -
 * memory_mb_used`, where used includes the reserved amount; nova/compute/resource_tracker.py).
 */
export function physicalFree(host: HostView, resourceClass: string): number {
  let free = 0;
  for (const provider of host.providers) {
    const inv = provider.inventories[resourceClass];
    if (inv !== undefined) {
      free += inv.total - inv.reserved - inv.used;
    }
  }
  return free;
}

/**
 * Nova CPUWeigher's free vCPUs on the tree: `total * ratio - reserved - used` summed over the
 * inventories of `resourceClass` (`vcpus_total * cpu_allocation_ratio - vcpus_used`, where
 * `vcpus_used` starts at `reserved_host_cpus`: the reserved amount is not multiplied).
 */
export function overcommittedFree(host: HostView, resourceClass: string): number {
  let free = 0;
  for (const provider of host.providers) {
    const inv = provider.inventories[resourceClass];
    if (inv !== undefined) {
      free += inv.total * inv.allocationRatio - inv.reserved - inv.used;
    }
  }
  return free;
}

/** The free-capacity weighers' configuration. */
export const CAPACITY_WEIGHER_CONFIG = pluginConfig({
  multiplier: numberField(1, 'positive spreads (prefers hosts with more free), negative packs'),
});

/** What distinguishes one free-capacity weigher from another. */
export interface CapacityWeigherSpec {
  readonly name: string;
  readonly resourceClass: string;
  /** Aggregate metadata key overriding the multiplier per host. */
  readonly multiplierKey: string;
  /** Free units of `resourceClass` on a host, as Nova's weigher counts them. */
  readonly free: (host: HostView, resourceClass: string) => number;
}

/**
 * Factory of a weigher by free units, with Nova's `minval = 0` (a host with nothing free, or
 * overcommitted, weighs 0; normalisation starts at 0). Config: `multiplier` (default 1.0;
 * positive spreads, negative packs).
 * @throws Error when `multiplier` is not a finite number.
 */
export function capacityWeigher(spec: CapacityWeigherSpec): PluginFactory<WeigherPlugin> {
  return withConfig(
    CAPACITY_WEIGHER_CONFIG,
    (config) =>
      ({
        name: spec.name,
        kind: 'weigher',
        multiplier: config.multiplier,
        multiplierMetadataKey: spec.multiplierKey,
        minval: 0,
        weigh: (host) => spec.free(host, spec.resourceClass),
      }) satisfies WeigherPlugin,
  );
}
