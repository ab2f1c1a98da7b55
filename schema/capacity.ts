// GraphQL: capacity rollups for dashboards (berth extension): the capacity query, Aggregate.capacity
// and ResourceProvider.treeCapacity, answered from the replica's capacity index (no SQL).
import type {
  CapacityGroup as CapacityGroupRecord,
  CapacityLine as CapacityLineRecord,
} from '../src/placement/capacity-rollup';
import { cloud, part } from './access';
import { Aggregate } from './aggregate';
import { builder } from './builder';
import { ResourceProvider } from './resource-provider';
import { providerFilterOrThrow, ResourceProviderFilter } from './resource-provider-connection';

export const CapacityLine = builder.objectRef<CapacityLineRecord>('CapacityLine').implement({
  ...part,
  description:
    'One resource class summed over a set of providers: what exists, what is set aside, what can be allocated and what is.',
  fields: (t) => ({
    resourceClass: t.exposeString('resourceClass', { description: 'The resource class name.' }),
    total: t.field({
      type: 'SafeInt',
      description: 'Sum of the inventories’ totals.',
      resolve: (l) => l.total,
    }),
    reserved: t.field({
      type: 'SafeInt',
      description: 'Sum of the units reserved for the host itself (never allocatable).',
      resolve: (l) => l.reserved,
    }),
    capacity: t.field({
      type: 'SafeInt',
      description: 'Sum of floor((total - reserved) × allocation ratio): what can be allocated.',
      resolve: (l) => l.capacity,
    }),
    used: t.field({
      type: 'SafeInt',
      description: 'Sum of the allocations.',
      resolve: (l) => l.used,
    }),
    free: t.field({
      type: 'SafeInt',
      description:
        'Sum over providers of max(0, capacity - used): an over-committed provider adds nothing.',
      resolve: (l) => l.free,
    }),
    utilisation: t.exposeFloat('utilisation', {
      description:
        'used / capacity, from 0 (0 when there is no capacity; above 1 when over-committed).',
    }),
    providers: t.exposeInt('providers', {
      description: 'Providers with an inventory of this class.',
    }),
  }),
});

export const CapacityGrouping = builder.enumType('CapacityGrouping', {
  description: 'How a capacity rollup is grouped.',
  values: {
    NONE: { description: 'One group: every selected provider.' },
    AGGREGATE: {
      description:
        'One group per aggregate with a selected member (a provider in two aggregates counts in both; providers in none are in no group), by aggregate uuid.',
    },
    ROOT: { description: 'One group per provider tree, in root creation order.' },
  } as const,
});

export const CapacityGroup = builder.objectRef<CapacityGroupRecord>('CapacityGroup').implement({
  ...cloud,
  description: 'The rollup of one group of providers.',
  fields: (t) => ({
    aggregateUuid: t.exposeID('aggregateUuid', {
      nullable: true,
      description: 'The aggregate of this group (AGGREGATE grouping), else null.',
    }),
    root: t.field({
      type: ResourceProvider,
      nullable: true,
      description: 'The root provider of this tree (ROOT grouping), else null.',
      resolve: (g, _a, ctx) => (g.rootUuid ? ctx.loaders.providerByUuid.load(g.rootUuid) : null),
    }),
    providerCount: t.exposeInt('providerCount', {
      description: 'Selected providers in this group.',
    }),
    lines: t.field({
      type: [CapacityLine],
      description: 'One line per resource class, by class name.',
      resolve: (g) => [...g.lines],
    }),
  }),
});

builder.queryField('capacity', (t) =>
  t.field({
    type: [CapacityGroup],
    extensions: { listSize: 100 }, // one group per aggregate or tree
    description:
      'How full the cloud is: per resource class totals, capacity, usage, free units and utilisation over the providers the filter selects (all when absent), cloud-wide or grouped by aggregate or tree. Answered from memory, as fresh as the last change this replica has heard of.',
    args: {
      filter: t.arg({
        type: ResourceProviderFilter,
        required: false,
        description: 'Which providers to count (the resourceProviders filter).',
      }),
      groupBy: t.arg({
        type: CapacityGrouping,
        required: false,
        defaultValue: 'NONE',
        description: 'How to group them.',
      }),
    },
    resolve: (_r, args, ctx) =>
      ctx.services.capacity.rollup(providerFilterOrThrow(args.filter), args.groupBy ?? 'NONE'),
  }),
);

builder.objectField(Aggregate, 'capacity', (t) =>
  t.field({
    type: [CapacityLine],
    description: 'The capacity of the aggregate’s member providers, per resource class.',
    resolve: (a, _args, ctx) => ctx.services.capacity.ofAggregate(a.uuid),
  }),
);

builder.objectField(ResourceProvider, 'treeCapacity', (t) =>
  t.field({
    type: [CapacityLine],
    description:
      'The capacity of the whole tree this provider belongs to (root and every descendant), per resource class.',
    resolve: (rp, _args, ctx) => ctx.services.capacity.ofTree(rp.uuid),
  }),
);
