// The scopes capacity is watched in (berth extension): the whole cloud, and aggregates, each rolled
// up per resource class from the capacity index (src/placement/capacity-rollup.ts). The history
// samples every aggregate; the /metrics gauges list only the largest and sum the rest as `other`.
import type { CapacityIndex } from './allocation-candidates/capacity-index';
import { type CapacityLine, capacityLines, capacityRollup } from './capacity-rollup';

/** The `aggregate` of the aggregates beyond the cap, summed together. */
export const OTHER_AGGREGATES = 'other';

/** One aggregate's lines (`aggregate` is its uuid, or OTHER_AGGREGATES). */
export interface AggregateLines {
  readonly aggregate: string;
  readonly lines: readonly CapacityLine[];
}

/** The cloud's lines and the aggregates'. */
export interface CapacityScopes {
  readonly cloud: readonly CapacityLine[];
  /** The listed aggregates, largest first, then `other` when some were left out. */
  readonly aggregates: readonly AggregateLines[];
}

/**
 * The cloud and its aggregates, at most `maxAggregates` of them listed (0: none, and no `other`
 * either). Larger is a larger share of the cloud's allocatable units summed over the classes (so
 * no class's unit outweighs another's); ties by uuid. The providers of the aggregates left out
 * are summed once (a provider in two of them counts once) as `other`.
 */
export function capacityScopes(index: CapacityIndex, maxAggregates: number): CapacityScopes {
  const slots = Array.from(index.orderedSlots());
  const cloud = capacityLines(index, slots);
  if (maxAggregates <= 0) {
    return { cloud, aggregates: [] };
  }
  const whole = new Map(cloud.map((l) => [l.resourceClass, l.capacity]));
  const share = (lines: readonly CapacityLine[]) =>
    lines.reduce((s, l) => {
      const all = whole.get(l.resourceClass) ?? 0;
      return s + (all > 0 ? l.capacity / all : 0);
    }, 0);
  const ranked = capacityRollup(index, slots, 'AGGREGATE')
    .map((g) => ({ aggregate: g.aggregateUuid!, lines: g.lines, share: share(g.lines) }))
    .sort((a, b) => b.share - a.share || (a.aggregate < b.aggregate ? -1 : 1));
  const listed = ranked
    .slice(0, maxAggregates)
    .map(({ aggregate, lines }) => ({ aggregate, lines }));
  const rest = ranked.slice(maxAggregates);
  if (rest.length === 0) {
    return { cloud, aggregates: listed };
  }
  const others = new Set<number>();
  for (const { aggregate } of rest) {
    for (const slot of index.aggMembers.get(index.aggregateTable.lookup(aggregate)) ?? []) {
      others.add(slot);
    }
  }
  return {
    cloud,
    aggregates: [...listed, { aggregate: OTHER_AGGREGATES, lines: capacityLines(index, others) }],
  };
}
