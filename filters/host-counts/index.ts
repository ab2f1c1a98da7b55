// Shared shape of the per-host count plugins: a filter passing hosts whose count is below a
// configured maximum (overridable per aggregate, lowest wins) and a weigher by the count.
// NumInstancesFilter / AggregateNumInstancesFilter / IoOpsFilter / AggregateIoOpsFilter and
// NumInstancesWeigher / IoOpsWeigher are instances (upstream: nova/scheduler/filters/
// num_instances_filter.py, io_ops_filter.py, nova/scheduler/weights/num_instances.py, io_ops.py).
// Each takes `countMovesOn` (MOVE_COUNTING_KEY): where a consumer with a move in progress counts.
import {
  aggregateValuesFromKey,
  choiceField,
  countField,
  numberField,
  pluginConfig,
  validateNumValues,
  withConfig,
} from '../../src/scheduler/helpers';
import type {
  FilterPlugin,
  HostView,
  PluginFactory,
  WeigherPlugin,
} from '../../src/scheduler/plugin-api';

/**
 * Where a consumer with a move in progress counts (config key `countMovesOn`): `both` (berth's
 * default: on the source and the destination tree, where it holds allocations) or `source`
 * (Nova's count of a resize or migration under way: on `instance.host`, the source, only —
 * nova/compute/resource_tracker.py:934-938 and stats.py:86-119 count the instances whose host is
 * the node, and an instance's host becomes the destination only once its disk has moved,
 * nova/compute/manager.py:5905; a move within one host counts there).
 */
export type MoveCounting = 'both' | 'source';
/** The configuration key choosing the {@link MoveCounting}. */
export const MOVE_COUNTING_KEY = 'countMovesOn';

/** The `countMovesOn` field of a plugin's configuration schema. */
export const moveCountingField = () =>
  choiceField(
    ['both', 'source'],
    'both',
    'where a consumer with a move in progress counts: `both` hosts, or its `source` only (Nova)',
  );

/** The count a plugin reads from a host, moves counted as `moves` says. */
export type HostCount = (host: HostView, moves: MoveCounting) => number;

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
  /** Rejection reason code (`num_instances.too_many`). */
  readonly code: string;
  /** What is counted, for reasons ('instances'). */
  readonly noun: string;
}

/** The configuration of a count filter: its maximum (`configKey`) and `countMovesOn`. */
export function countFilterConfig(configKey: string, defaultMax: number) {
  return pluginConfig({
    [configKey]: countField(defaultMax, 'a host passes while its count is below this'),
    [MOVE_COUNTING_KEY]: moveCountingField(),
  });
}

/** The configuration of a count weigher: `multiplier` and `countMovesOn`. */
export function countWeigherConfig(defaultMultiplier: number) {
  return pluginConfig({
    multiplier: numberField(
      defaultMultiplier,
      'positive prefers hosts with more counted, negative hosts with fewer',
    ),
    [MOVE_COUNTING_KEY]: moveCountingField(),
  });
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
  return withConfig(countFilterConfig(spec.configKey, spec.defaultMax), (config) => {
    const configured = config[spec.configKey] as number;
    const moves = config[MOVE_COUNTING_KEY] as MoveCounting;
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
        const count = spec.count(host, moves);
        if (count < max) {
          return { fits: true };
        }
        return {
          fits: false,
          reason: `${spec.reason}: ${count} ${spec.noun}, max ${max}`,
          code: spec.code,
        };
      },
    } satisfies FilterPlugin;
  });
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
 * with fewer. Config: `multiplier`, `countMovesOn`.
 * @throws Error when `multiplier` is not a finite number or `countMovesOn` is unknown.
 */
export function countWeigher(spec: CountWeigherSpec): PluginFactory<WeigherPlugin> {
  return withConfig(countWeigherConfig(spec.defaultMultiplier), (config) => {
    const moves = config[MOVE_COUNTING_KEY] as MoveCounting;
    return {
      name: spec.name,
      kind: 'weigher',
      multiplier: config.multiplier as number,
      multiplierMetadataKey: spec.multiplierKey,
      minval: 0,
      weigh: (host) => spec.count(host, moves),
    } satisfies WeigherPlugin;
  });
}

/** `HostView.numInstances`; with `source`, less the consumers that arrived by a move. */
export const instances: HostCount = (host, moves) =>
  moves === 'source' ? host.numInstances - host.numMovesIn : host.numInstances;
/** `HostView.numIoOps`; with `source`, less the consumers that arrived by a move. */
export const ioOps: HostCount = (host, moves) =>
  moves === 'source' ? host.numIoOps - host.numMovesIn : host.numIoOps;
