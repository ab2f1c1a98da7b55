// Pure helpers shared by scheduler plugins and the pipeline (upstream: nova/scheduler/filters/utils.py,
// nova/weights.py normalize; the Kubernetes scheduler's helper/ package). The one module plugins
// import helpers from: Nova's extra-spec operators live in extra-spec-ops.ts and are re-exported.
import { emptyRequestGroup } from '../placement/allocation-candidates/request';
import type { AggregateView, HostView, RequestSpec } from './plugin-api';
import { aggregateValuesFromKey, validateNumValues } from './runtime/aggregate-values';
import { parseNovaFloat } from './runtime/extra-spec-ops';

export {
  aggregateValuesFromKey,
  parsePythonFloat,
  parsePythonInt,
  validateNumValues,
} from './runtime/aggregate-values';
export {
  isOperatorExpression,
  type MatchResult,
  matchExtraSpec,
  parseNovaFloat,
} from './runtime/extra-spec-ops';
/** An empty request group with the given suffix ('' = unsuffixed). */
export { emptyRequestGroup };

/** Splits a metadata value on commas and trims each part (Nova `aggregate_metadata_get_by_host`). */
export function splitMetadataValue(raw: string): string[] {
  return raw.split(',').map((part) => part.trim());
}

const identity = (key: string) => key;

// Host views handed to plugins are frozen snapshots (see host-view-cache.ts), so the union of one
// host's aggregates is computed once and shared by every plugin and request that asks; unfrozen
// lists (hand-built views in tests) are computed each time. Only the union itself is kept: a key
// mapping is applied to it on each call, so nothing is keyed by a plugin's function (an inline
// arrow would otherwise add an entry per call to a cache that lives as long as the view).
const unionMemo = new WeakMap<readonly AggregateView[], ReadonlyMap<string, readonly string[]>>();

function unionOf(aggregates: readonly AggregateView[]): ReadonlyMap<string, readonly string[]> {
  const frozen = Object.isFrozen(aggregates);
  const memoised = frozen ? unionMemo.get(aggregates) : undefined;
  if (memoised) {
    return memoised;
  }
  const sets = new Map<string, Set<string>>();
  for (const aggregate of aggregates) {
    for (const [key, raw] of Object.entries(aggregate.metadata)) {
      const set = sets.get(key) ?? new Set<string>();
      for (const value of splitMetadataValue(raw)) {
        set.add(value);
      }
      sets.set(key, set);
    }
  }
  const union = new Map([...sets].map(([key, set]) => [key, [...set]]));
  if (frozen) {
    unionMemo.set(aggregates, union);
  }
  return union;
}

/**
 * Union of the metadata of several aggregates: key -> distinct values (split on commas, trimmed), in
 * first-seen order. `mapKey` can rename keys (e.g. strip a scope prefix) before they are merged.
 */
export function aggregateMetadataUnion(
  aggregates: readonly AggregateView[],
  mapKey: (key: string) => string = identity,
): ReadonlyMap<string, readonly string[]> {
  const union = unionOf(aggregates);
  if (mapKey === identity) {
    return union;
  }
  const mapped = new Map<string, string[]>();
  for (const [rawKey, values] of union) {
    const key = mapKey(rawKey);
    const list = mapped.get(key);
    if (list === undefined) {
      mapped.set(key, [...values]);
    } else {
      for (const v of values) {
        if (!list.includes(v)) {
          list.push(v);
        }
      }
    }
  }
  return mapped;
}

/** Every value of one metadata key across the aggregates (split and trimmed, distinct). */
export function aggregateValues(
  aggregates: readonly AggregateView[],
  key: string,
): readonly string[] {
  return aggregateMetadataUnion(aggregates).get(key) ?? [];
}

/**
 * The smallest of some numeric strings: `fallback` when there are none or when any of them is not a
 * finite number. For Nova's reading of a numeric aggregate key (whole values, Python `int()` or
 * `float()`), use `validateNumValues(aggregateValuesFromKey(...), ...)` instead.
 */
export function minNumericValue<T>(values: readonly string[], fallback: T): number | T {
  if (values.length === 0) {
    return fallback;
  }
  const numbers = values.map(parseNovaFloat);
  if (numbers.some((n) => n === null || !Number.isFinite(n))) {
    return fallback;
  }
  return Math.min(...(numbers as number[]));
}

/**
 * Min-max normalisation (Nova `weights.normalize`): maps `minval..maxval` (default: the list's own
 * min and max) onto 0..1; when the range is empty every weight becomes 0. Nova clamps the raw
 * weights into `minval..maxval` before (`BaseWeigher.weigh_objects`); the pipeline does that.
 */
export function normalise(weights: readonly number[], minval?: number, maxval?: number): number[] {
  if (weights.length === 0) {
    return [];
  }
  const lo = minval ?? Math.min(...weights);
  const hi = maxval ?? Math.max(...weights);
  if (lo === hi) {
    return weights.map(() => 0);
  }
  return weights.map((w) => (w - lo) / (hi - lo));
}

/**
 * A weigher's multiplier for one host (Nova `utils.get_weight_multiplier`): the lowest of the values
 * of `metadataKey` across the host's aggregates, each read whole with Python's `float()`; `fallback`
 * when there is none or any of them is not a finite number (`"2,3"`, `"inf"`).
 */
export function resolveMultiplier(
  host: HostView,
  metadataKey: string | undefined,
  fallback: number,
): number {
  if (metadataKey === undefined) {
    return fallback;
  }
  return validateNumValues(aggregateValuesFromKey(host.aggregates, metadataKey), fallback, 'float');
}

/**
 * Free amount of one resource class summed over the host's tree: `(total - reserved) * ratio - used`,
 * where `ratio` is `ratioOverride` when given, else each inventory's own allocation ratio.
 */
export function freeCapacity(
  host: HostView,
  resourceClass: string,
  ratioOverride?: number,
): number {
  let free = 0;
  for (const provider of host.providers) {
    const inv = provider.inventories[resourceClass];
    if (inv !== undefined) {
      free += (inv.total - inv.reserved) * (ratioOverride ?? inv.allocationRatio) - inv.used;
    }
  }
  return free;
}

/**
 * Free amount of one resource class on the host's tree with the allocation ratio overridden by the
 * lowest value of `ratioKey` in the host's aggregates, read as Nova's Aggregate{Ram,Disk,Core}Filter
 * (Nova <= 18) did: whole values, Python `float()`, any bad value = no override. `ratio` is the
 * override used, if any.
 */
export function freeCapacityWithOverride(
  host: HostView,
  resourceClass: string,
  ratioKey: string,
): { free: number; ratio?: number } {
  const ratio = validateNumValues(
    aggregateValuesFromKey(host.aggregates, ratioKey),
    undefined,
    'float',
  );
  const free = freeCapacity(host, resourceClass, ratio);
  return ratio === undefined ? { free } : { free, ratio };
}

/** The amount of one resource class the request asks for, summed over its groups. */
export function requestedAmount(req: RequestSpec, resourceClass: string): number {
  return req.candidateRequest.groups.reduce((sum, g) => sum + (g.resources[resourceClass] ?? 0), 0);
}

/**
 * The hosts (root provider uuids) running the instances named by hint `hint` (`same_host`,
 * `different_host`), from `req.instanceHosts`; undefined when the request does not give the hint.
 */
export function hostsOfHintedInstances(
  req: RequestSpec,
  hint: string,
): ReadonlySet<string> | undefined {
  const instances = req.hints[hint];
  if (!instances || instances.length === 0) {
    return undefined;
  }
  return new Set(instances.flatMap((u) => req.instanceHosts[u] ?? []));
}

export {
  booleanField,
  checkedField,
  choiceField,
  configKeys,
  countField,
  nameListField,
  numberField,
  pluginConfig,
  withConfig,
} from './plugin-config';

/** A `nameListField` value as a list (`[]` when unset). */
export function nameList(value: string | readonly string[] | undefined): readonly string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : value;
}
