// GraphQL: hostList, the host listing behind the console's Providers page (berth extension):
// root providers with their tree's usage, zone, aggregates, instances and disabled state,
// filtered, sorted and paged from the replica's capacity index (src/placement/host-listing.ts).
import {
  HOST_SORT_FIELDS,
  type HostListPage as HostListPageRecord,
  type HostRow as HostRowRecord,
  hostListing,
} from '../src/placement/host-listing';
import { cloud } from './access';
import { Aggregate } from './aggregate';
import { builder } from './builder';
import { CapacityLine } from './capacity';
import { ResourceProvider } from './resource-provider';
import { SortDirection } from './resource-provider-connection';

const SORT_DESCRIPTIONS: Record<(typeof HOST_SORT_FIELDS)[number], string> = {
  NAME: 'The root provider’s name.',
  AVAILABILITY_ZONE: 'The availability zone (hosts without one last).',
  AGGREGATES: 'The aggregates’ display names, joined (hosts in none last).',
  INSTANCES: 'Consumers with allocations on the tree.',
  CHILDREN: 'Descendant providers (NUMA cells, GPUs, ...).',
  DISABLED: 'Disabled state (ASC: enabled first).',
  MAX_UTILISATION: 'The utilisation of the host’s fullest resource class.',
  UTILISATION: 'used / capacity of `resourceClass` (hosts without it last).',
  USED: 'Units of `resourceClass` used (hosts without it last).',
  CAPACITY: 'Allocatable units of `resourceClass` (hosts without it last).',
};

const HostListField = builder.enumType('HostListField', {
  description: 'A column hosts can be sorted by; ties are broken by name.',
  values: Object.fromEntries(
    HOST_SORT_FIELDS.map((f) => [f, { description: SORT_DESCRIPTIONS[f] }]),
  ) as Record<(typeof HOST_SORT_FIELDS)[number], { description: string }>,
});

const HostState = builder.enumType('HostState', {
  description: 'A host state to list.',
  values: {
    ENABLED: { description: 'Hosts whose root provider lacks COMPUTE_STATUS_DISABLED.' },
    DISABLED: {
      description:
        'Hosts whose root provider has COMPUTE_STATUS_DISABLED (a disabled compute service).',
    },
    FULL: { description: 'Hosts with a resource class at least 90 % used.' },
  } as const,
});

const HostListFilter = builder.inputType('HostListFilter', {
  description: 'All given conditions must hold.',
  fields: (t) => ({
    nameContains: t.string({
      required: false,
      description: 'A case-insensitive part of the host’s name.',
    }),
    trait: t.string({ required: false, description: 'A provider of the tree has this trait.' }),
    aggregate: t.id({ required: false, description: 'The host is in this aggregate (uuid).' }),
    availabilityZone: t.string({
      required: false,
      description: 'The host’s availability zone (aggregate metadata availability_zone).',
    }),
    state: t.field({ type: HostState, required: false, description: 'Enabled, disabled or full.' }),
  }),
});

const HostListOrder = builder.inputType('HostListOrder', {
  description: 'How hosts are sorted.',
  fields: (t) => ({
    field: t.field({ type: HostListField, required: true, description: 'The column.' }),
    resourceClass: t.string({
      required: false,
      description: 'The resource class of UTILISATION, USED and CAPACITY.',
    }),
    direction: t.field({
      type: SortDirection,
      required: false,
      defaultValue: 'ASC',
      description: 'ASC (the default) or DESC.',
    }),
  }),
});

const HostRow = builder.objectRef<HostRowRecord>('HostRow').implement({
  ...cloud,
  description: 'A host: a root provider with the figures of its whole tree.',
  fields: (t) => ({
    provider: t.field({
      type: ResourceProvider,
      nullable: true,
      description:
        'The root provider (null if it was deleted after this replica last heard of it).',
      resolve: (h, _a, ctx) => ctx.loaders.providerByUuid.load(h.uuid),
    }),
    uuid: t.exposeID('uuid', { description: 'The root provider’s uuid.' }),
    name: t.exposeString('name', { description: 'The root provider’s name.' }),
    disabled: t.exposeBoolean('disabled', {
      description:
        'The root provider has COMPUTE_STATUS_DISABLED (Nova: compute service disabled).',
    }),
    availabilityZone: t.exposeString('availabilityZone', {
      nullable: true,
      description:
        'availability_zone of the first of the host’s aggregates (by uuid) that sets it, or null.',
    }),
    aggregates: t.field({
      type: [Aggregate],
      description: 'The root provider’s aggregates, by name (uuid when unnamed).',
      resolve: (h) => [...h.aggregates],
    }),
    instances: t.exposeInt('instances', {
      description: 'Consumers with allocations on any provider of the tree.',
    }),
    usage: t.field({
      type: [CapacityLine],
      description: 'Capacity and usage summed over the tree, one line per class, by class name.',
      resolve: (h) => [...h.usage],
    }),
    maxUtilisation: t.exposeFloat('maxUtilisation', {
      description: 'The highest utilisation among the usage lines (0 without inventory).',
    }),
    children: t.exposeInt('children', {
      description: 'Descendant providers of the root (NUMA cells, GPUs, ...).',
    }),
  }),
});

const HostListPage = builder.objectRef<HostListPageRecord>('HostListPage').implement({
  ...cloud,
  description: 'One page of hosts.',
  fields: (t) => ({
    totalCount: t.exposeInt('totalCount', { description: 'Hosts the filter selects (all pages).' }),
    hosts: t.field({
      type: [HostRow],
      description: 'This page’s hosts, in order.',
      resolve: (p) => [...p.hosts],
    }),
  }),
});

builder.queryField('hostList', (t) =>
  t.field({
    type: HostListPage,
    extensions: { listSize: 1000 },
    description:
      'Hosts (root providers) with their tree’s usage, zone, aggregates, instances and disabled state, filtered, sorted and paged in memory (as fresh as the last change this replica has heard of).',
    args: {
      filter: t.arg({ type: HostListFilter, required: false, description: 'Which hosts.' }),
      orderBy: t.arg({
        type: HostListOrder,
        required: false,
        description: 'The sort (by name when absent).',
      }),
      first: t.arg.int({
        required: false,
        defaultValue: 50,
        description: 'Page size, 0 to 1000.',
      }),
      offset: t.arg.int({
        required: false,
        defaultValue: 0,
        description: 'Hosts skipped before the page (>= 0).',
      }),
    },
    resolve: (_r, args, ctx) =>
      hostListing(ctx.services, {
        filter: args.filter ?? null,
        orderBy: args.orderBy
          ? { ...args.orderBy, direction: args.orderBy.direction ?? 'ASC' }
          : null,
        first: args.first ?? 50,
        offset: args.offset ?? 0,
      }),
  }),
);
