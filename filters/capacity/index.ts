// Shared shape of the free-capacity plugins: a filter that needs enough free units of one class
// on the host tree (ratio overridable per aggregate) and a weigher by free units (multiplier
// overridable per aggregate). RamFilter/DiskFilter and RAM/Disk/CPU weighers are instances
// (upstream: nova/scheduler/filters/{ram,disk}_filter.py, nova/scheduler/weights/{ram,disk,cpu}.py).
import {
  freeCapacity,
  freeCapacityWithOverride,
  readNumberOrThrow,
  requestedAmount,
} from '../../src/scheduler/helpers';
import type { FilterPlugin, PluginFactory, WeigherPlugin } from '../../src/scheduler/plugin-api';

/** What distinguishes one free-capacity filter from another. */
export interface CapacityFilterSpec {
  readonly name: string;
  readonly resourceClass: string;
  /** Aggregate metadata key overriding the inventories' allocation ratio (lowest wins). */
  readonly ratioKey: string;
  /** Rejection reason prefix. */
  readonly reason: string;
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
        };
      },
    }) satisfies FilterPlugin;
}

/** What distinguishes one free-capacity weigher from another. */
export interface CapacityWeigherSpec {
  readonly name: string;
  readonly resourceClass: string;
  /** Aggregate metadata key overriding the multiplier per host. */
  readonly multiplierKey: string;
}

/**
 * Factory of a weigher by free units. Config: `multiplier` (default 1.0; positive spreads,
 * negative packs).
 * @throws Error when `multiplier` is not a finite number.
 */
export function capacityWeigher(spec: CapacityWeigherSpec): PluginFactory<WeigherPlugin> {
  return (_config, handle) =>
    ({
      name: spec.name,
      kind: 'weigher',
      multiplier: readNumberOrThrow(handle, 'multiplier', 1),
      multiplierMetadataKey: spec.multiplierKey,
      weigh: (host) => freeCapacity(host, spec.resourceClass),
    }) satisfies WeigherPlugin;
}
