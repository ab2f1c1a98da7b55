// Shared shape of the per-host count plugins: a filter passing hosts whose count is below a
// configured maximum (overridable per aggregate, lowest wins) and a weigher by the count.
// NumInstancesFilter / AggregateNumInstancesFilter / IoOpsFilter / AggregateIoOpsFilter and
// NumInstancesWeigher / IoOpsWeigher are instances (upstream: nova/scheduler/filters/
// num_instances_filter.py, io_ops_filter.py, nova/scheduler/weights/num_instances.py, io_ops.py).
import {
  aggregateValuesFromKey,
  readNumberOrThrow,
  validateNumValues,
} from '../../src/scheduler/helpers';
import type {
  FilterPlugin,
  HostView,
  PluginFactory,
  PluginHandle,
  WeigherPlugin,
} from '../../src/scheduler/plugin-api';

/** The count a plugin reads from a host. */
export type HostCount = (host: HostView) => number;

/** What distinguishes one count filter from another. */
export interface CountFilterSpec {
  readonly name: string;
  readonly count: HostCount;
  /** Configuration key of the maximum (Nova's option, camelCase). */
  readonly configKey: string;
  /** Nova's default maximum. */
  readonly defaultMax: number;
  /** Aggregate metadata key overriding the maximum (Aggregate* variants only). */
  readonly metadataKey?: string;
  /** Rejection reason prefix. */
  readonly reason: string;
  /** What is counted, for reasons ('instances'). */
  readonly noun: string;
}

function readMaxOrThrow(handle: PluginHandle, key: string, fallback: number): number {
  const max = readNumberOrThrow(handle, key, fallback);
  if (!Number.isInteger(max) || max < 0) {
    throw new Error(`${handle.name}: config "${key}" must be a whole number >= 0, got ${max}`);
  }
  return max;
}

/**
 * Factory of a filter passing hosts with fewer than the maximum counted (Nova: a host with
 * `count >= max` fails). With `metadataKey`, the maximum is read as Nova's Aggregate* filters read
 * it (`validate_num_values(..., cast_to=int)`): the lowest of the key's whole values across the
 * host's aggregates, each cast with Python's `int()`; when there is none, or any value is not an
 * integer (`"3.5"`, `"3,5"`, `"XXX"`), the configured maximum.
 * @throws Error when the configured maximum is not a whole number >= 0.
 */
export function countFilter(spec: CountFilterSpec): PluginFactory<FilterPlugin> {
  return (_config, handle) => {
    const configured = readMaxOrThrow(handle, spec.configKey, spec.defaultMax);
    return {
      name: spec.name,
      kind: 'filter',
      onError: 'closed',
      filter(host) {
        const max =
          spec.metadataKey === undefined
            ? configured
            : validateNumValues(
                aggregateValuesFromKey(host.aggregates, spec.metadataKey),
                configured,
                'int',
              );
        const count = spec.count(host);
        if (count < max) {
          return { fits: true };
        }
        return {
          fits: false,
          reason: `${spec.reason}: ${host.name} has ${count} ${spec.noun}, max ${max}`,
        };
      },
    } satisfies FilterPlugin;
  };
}

/** What distinguishes one count weigher from another. */
export interface CountWeigherSpec {
  readonly name: string;
  readonly count: HostCount;
  /** Aggregate metadata key overriding the multiplier (Nova's option name). */
  readonly multiplierKey: string;
  /** Nova's default multiplier. */
  readonly defaultMultiplier: number;
}

/**
 * Factory of a weigher by the count, with Nova's `minval = 0` (normalisation starts at 0: counts
 * 1/2/3 weigh .33/.67/1): a positive multiplier prefers hosts with more, a negative one hosts
 * with fewer. Config: `multiplier`.
 * @throws Error when `multiplier` is not a finite number.
 */
export function countWeigher(spec: CountWeigherSpec): PluginFactory<WeigherPlugin> {
  return (_config, handle) =>
    ({
      name: spec.name,
      kind: 'weigher',
      multiplier: readNumberOrThrow(handle, 'multiplier', spec.defaultMultiplier),
      multiplierMetadataKey: spec.multiplierKey,
      minval: 0,
      weigh: spec.count,
    }) satisfies WeigherPlugin;
}

/** `HostView.numInstances`. */
export const instances: HostCount = (host) => host.numInstances;
/** `HostView.numIoOps`. */
export const ioOps: HostCount = (host) => host.numIoOps;
