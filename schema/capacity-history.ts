// GraphQL: capacity history (berth extension): the capacityHistory query over the samples the
// replicas take every BERTH_CAPACITY_HISTORY_INTERVAL (src/placement/capacity-history.ts).
import type {
  CapacityHistory as CapacityHistoryRecord,
  CapacitySeries as CapacitySeriesRecord,
} from '../src/placement/capacity-history';
import { MAX_POINTS } from '../src/placement/capacity-history';
import type { CapacitySample } from '../src/placement/capacity-history-points';
import { cloud, part } from './access';
import { Aggregate } from './aggregate';
import { builder } from './builder';

export const CapacityPoint = builder.objectRef<CapacitySample>('CapacityPoint').implement({
  ...part,
  description: 'One resource class of one scope at one time.',
  fields: (t) => ({
    at: t.string({
      description:
        'Start of the sampling bucket (or of the coarser step, when down-sampled), ISO-8601 UTC.',
      resolve: (p) => new Date(p.at * 1000).toISOString(),
    }),
    capacity: t.field({
      type: 'SafeInt',
      description: 'Sum of floor((total - reserved) × allocation ratio) at that time.',
      resolve: (p) => p.capacity,
    }),
    used: t.field({
      type: 'SafeInt',
      description: 'Sum of the allocations at that time.',
      resolve: (p) => p.used,
    }),
    utilisation: t.float({
      description: 'used / capacity (0 when there is no capacity; above 1 when over-committed).',
      resolve: (p) => (p.capacity > 0 ? p.used / p.capacity : 0),
    }),
  }),
});

export const CapacitySeries = builder.objectRef<CapacitySeriesRecord>('CapacitySeries').implement({
  ...part,
  description: 'One resource class of the whole cloud or of one aggregate over time.',
  fields: (t) => ({
    resourceClass: t.exposeString('resourceClass', { description: 'The resource class name.' }),
    aggregateUuid: t.exposeID('aggregateUuid', {
      nullable: true,
      description: 'The aggregate this series is about, or null for the whole cloud.',
    }),
    aggregate: t.field({
      type: Aggregate,
      nullable: true,
      description:
        'The aggregate this series is about; null for the whole cloud (and for an aggregate that no longer exists: see aggregateUuid).',
      resolve: (s, _args, ctx) =>
        s.aggregateUuid ? ctx.loaders.aggregateByUuid.load(s.aggregateUuid) : null,
    }),
    points: t.field({
      type: [CapacityPoint],
      extensions: { listSize: 288 }, // the default `points`
      description:
        'Oldest first, one per sampled bucket (or per coarser step); buckets no replica sampled are absent.',
      resolve: (s) => [...s.points],
    }),
  }),
});

export const CapacityHistory = builder
  .objectRef<CapacityHistoryRecord>('CapacityHistory')
  .implement({
    ...cloud,
    description: 'How full the cloud (or one aggregate) was over time, per resource class.',
    fields: (t) => ({
      intervalSeconds: t.exposeInt('intervalSeconds', {
        description:
          'Seconds between samples (BERTH_CAPACITY_HISTORY_INTERVAL); 0 when the history is off.',
      }),
      retentionSeconds: t.exposeInt('retentionSeconds', {
        description:
          'Seconds samples are kept (BERTH_CAPACITY_HISTORY_RETENTION); 0 when the history is off.',
      }),
      stepSeconds: t.exposeInt('stepSeconds', {
        description:
          'Seconds between the points of this answer: the interval, or a whole multiple of it when the range holds more samples than `points` (0 when the history is off).',
      }),
      series: t.field({
        type: [CapacitySeries],
        extensions: { listSize: 20 }, // one per resource class with inventory
        description: 'One series per sampled resource class, by class name.',
        resolve: (h) => [...h.series],
      }),
    }),
  });

builder.queryField('capacityHistory', (t) =>
  t.field({
    type: CapacityHistory,
    description: `How full the cloud, or one aggregate, was over the last hours: per resource class, capacity and used as sampled every BERTH_CAPACITY_HISTORY_INTERVAL by the replicas. A range holding more samples than \`points\` is down-sampled to coarser steps (a whole multiple of the interval), each step keeping its sample with the most used, so peaks survive. Errors: berth.invalid_input for hours or points out of range, berth.invalid_uuid for a malformed aggregate uuid.`,
    args: {
      hours: t.arg.int({
        required: false,
        defaultValue: 24,
        description: 'How far back, in hours: 1 up to the retention.',
      }),
      resourceClasses: t.arg.stringList({
        required: false,
        description: 'Only these resource classes (every sampled class when absent).',
      }),
      aggregate: t.arg.id({
        required: false,
        description: 'One aggregate’s history (by uuid); the whole cloud when absent.',
      }),
      points: t.arg.int({
        required: false,
        defaultValue: 288,
        description: `Most points per series, 1 to ${MAX_POINTS}; longer ranges are down-sampled (max of used per coarser step).`,
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.capacityHistory.history({
        hours: args.hours ?? 24,
        resourceClasses: args.resourceClasses,
        aggregate:
          args.aggregate === null || args.aggregate === undefined ? null : String(args.aggregate),
        points: args.points ?? 288,
      }),
  }),
);
