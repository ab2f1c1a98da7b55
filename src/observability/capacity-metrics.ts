// Capacity gauges for /metrics, read at scrape time from the replica's capacity index through the
// scopes the capacity history samples (CapacityHistoryService.scopes,
// src/placement/capacity-history-scopes.ts; no SQL but one lookup of the listed aggregates' names). Cloud-wide per resource class: inventory, reserved, allocatable (after the allocation
// ratio), used and free units. Per aggregate: allocatable, used and free, for the
// `BERTH_METRICS_AGGREGATES` largest aggregates (by their share of the cloud's capacity summed
// over classes, so no class's unit dominates); the providers of every other aggregate are summed
// once under `aggregate="other"`. Labels are stable: `aggregate` is always the uuid; the
// aggregate's name is on `berth_aggregate_info{aggregate,name}` (value 1, `other` included),
// for joins that keep every series.
import { Gauge, type Registry } from 'prom-client';
import type { Services } from '../app/services';

type Scopes = Awaited<ReturnType<Services['capacityHistory']['scopes']>>;

/** The `aggregate` label of the aggregates beyond the cap (OTHER_AGGREGATES of the domain). */
const OTHER = 'other';

/** The `name` of `aggregate="other"` on berth_aggregate_info. */
export const OTHER_NAME = '(other aggregates)';

type Field = 'total' | 'reserved' | 'capacity' | 'used' | 'free';

const CLOUD: readonly [string, string, Field][] = [
  [
    'berth_capacity_inventory_units',
    'Sum of the inventories’ totals, per resource class.',
    'total',
  ],
  [
    'berth_capacity_reserved_units',
    'Sum of the units reserved for the hosts themselves, per resource class.',
    'reserved',
  ],
  [
    'berth_capacity_allocatable_units',
    'Sum of floor((total - reserved) × allocation ratio): what can be allocated, per resource class.',
    'capacity',
  ],
  ['berth_capacity_used_units', 'Sum of the allocations, per resource class.', 'used'],
  [
    'berth_capacity_free_units',
    'Sum over providers of max(0, allocatable - used), per resource class.',
    'free',
  ],
];

const AGGREGATE: readonly [string, string, Field][] = [
  [
    'berth_aggregate_capacity_allocatable_units',
    'Allocatable units of an aggregate’s providers (the largest BERTH_METRICS_AGGREGATES aggregates; the rest under aggregate="other").',
    'capacity',
  ],
  [
    'berth_aggregate_capacity_used_units',
    'Allocated units of an aggregate’s providers (as berth_aggregate_capacity_allocatable_units).',
    'used',
  ],
  [
    'berth_aggregate_capacity_free_units',
    'Free units of an aggregate’s providers (as berth_aggregate_capacity_allocatable_units).',
    'free',
  ],
];

/**
 * Registers the capacity gauges on `registry`: one snapshot per scrape (every gauge's collect
 * of one scrape starts in the same tick and shares it), aggregates capped at `maxAggregates`.
 */
export function registerCapacityMetrics(
  registry: Registry,
  services: Pick<Services, 'capacityHistory' | 'aggregates'>,
  maxAggregates: number,
): void {
  let pending: Promise<{ snap: Scopes; names: Map<string, string | null> }> | undefined;
  const read = () => {
    pending ??= (async () => {
      const snap = await services.capacityHistory.scopes(maxAggregates);
      const uuids = snap.aggregates.map((a) => a.aggregate).filter((a) => a !== OTHER);
      const records = uuids.length > 0 ? await services.aggregates.byUuids(uuids) : [];
      return { snap, names: new Map(records.map((r) => [r.uuid, r.name])) };
    })().finally(() => {
      pending = undefined;
    });
    return pending;
  };
  for (const [name, help, field] of CLOUD) {
    new Gauge({
      name,
      help,
      labelNames: ['resource_class'],
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const { snap } = await read();
        this.reset();
        for (const l of snap.cloud) {
          this.set({ resource_class: l.resourceClass }, l[field]);
        }
      },
    });
  }
  if (maxAggregates <= 0) {
    return;
  }
  for (const [name, help, field] of AGGREGATE) {
    new Gauge({
      name,
      help,
      labelNames: ['aggregate', 'resource_class'],
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const { snap } = await read();
        this.reset();
        for (const a of snap.aggregates) {
          for (const l of a.lines) {
            this.set({ aggregate: a.aggregate, resource_class: l.resourceClass }, l[field]);
          }
        }
      },
    });
  }
  new Gauge({
    name: 'berth_aggregate_info',
    help: 'Always 1: the name of each aggregate with capacity series ("" when it has none; "(other aggregates)" for other), to join on `aggregate`.',
    labelNames: ['aggregate', 'name'],
    aggregator: 'max',
    registers: [registry],
    async collect() {
      const { snap, names } = await read();
      this.reset();
      for (const a of snap.aggregates) {
        const name = a.aggregate === OTHER ? OTHER_NAME : (names.get(a.aggregate) ?? '');
        this.set({ aggregate: a.aggregate, name }, 1);
      }
    },
  });
}
