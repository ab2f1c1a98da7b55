// GraphQL: Aggregate with Nova host-aggregate name and metadata, its queries, setAggregateMetadata,
// ResourceProvider.aggregates and setProviderAggregates (upstream: handlers/aggregate.py; Nova
// objects/aggregate.py for the metadata read by scheduler filters).
import type { AggregateRecord } from '../src/placement/types';
import { normalizeUuidOrThrow } from '../src/placement/uuid';
import { cloud, part } from './access';
import { builder } from './builder';
import { flatProviderArgs, inputOrFlat, USE_INPUT } from './mutation-input';
import { ResourceProvider } from './resource-provider';

const KeyValue = builder
  .objectRef<{ readonly key: string; readonly value: string }>('KeyValue')
  .implement({
    ...part,
    description: 'One metadata entry.',
    fields: (t) => ({
      key: t.exposeString('key', { description: 'The key.' }),
      value: t.exposeString('value', { description: 'The value.' }),
    }),
  });

/** GraphQL KeyValueInput (aggregate metadata, flavor extra specs). */
export const KeyValueInput = builder.inputType('KeyValueInput', {
  description: 'One metadata or extra-spec entry.',
  fields: (t) => ({
    key: t.string({ description: 'The key.', required: true }),
    value: t.string({ description: 'The value.', required: true }),
  }),
});

/** Nova's AggregateMultiTenancyIsolation metadata key (and prefix): its values are project ids. */
const TENANT_ISOLATION_KEY = 'filter_tenant_id';

/** GraphQL Aggregate. */
export const Aggregate = builder.objectRef<AggregateRecord>('Aggregate').implement({
  ...cloud,
  description:
    'A group of providers (Placement aggregate, Nova host aggregate), with its metadata and capacity.',
  fields: (t) => ({
    uuid: t.exposeID('uuid', { description: 'The aggregate uuid.' }),
    name: t.exposeString('name', { description: 'Its display name, or null.', nullable: true }),
    metadata: t.field({
      type: [KeyValue],
      description:
        'Sorted by key. A token scoped to a project does not see the tenant-isolation entries (`filter_tenant_id`, `filter_tenant_id*`: their values name projects).',
      resolve: (a, _args, ctx) =>
        ctx.caller?.project
          ? a.metadata.filter((m) => !m.key.startsWith(TENANT_ISOLATION_KEY))
          : a.metadata,
    }),
    providers: t.field({
      type: [ResourceProvider],
      extensions: { listSize: 1000 }, // every member, unpaginated
      description: 'Member providers, by creation order (all of them in one list).',
      deprecationReason:
        'Unbounded (an aggregate of 10,000 hosts answers 10,000 objects): use members.',
      resolve: (a, _args, ctx) => ctx.loaders.providersByAggregateUuid.load(a.uuid),
    }),
  }),
});

builder.objectField(ResourceProvider, 'aggregates', (t) =>
  t.field({
    type: [Aggregate],
    description: 'Aggregates the provider is a member of, sorted by uuid.',
    resolve: (rp, _args, ctx) => ctx.loaders.aggregatesByProviderId.load(rp.id),
  }),
);

builder.queryField('aggregate', (t) =>
  t.field({
    type: Aggregate,
    nullable: true,
    description: 'The aggregate with this uuid, or null when no provider or metadata refers to it.',
    args: {
      uuid: t.arg.id({
        required: true,
        description: 'The aggregate uuid (any accepted spelling).',
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.loaders.aggregateByUuid.load(normalizeUuidOrThrow(args.uuid, 'aggregate uuid')),
  }),
);

builder.queryField('aggregates', (t) =>
  t.field({
    type: [Aggregate],
    extensions: { listSize: 100 },
    description: 'Every aggregate with members or metadata, sorted by uuid.',
    resolve: async (_root, _args, ctx) => {
      const all = await ctx.services.aggregates.list();
      for (const a of all) {
        ctx.loaders.aggregateByUuid.prime(a.uuid, a);
      }
      return all;
    },
  }),
);

const SetAggregateMetadataInput = builder.inputType('SetAggregateMetadataInput', {
  description: "An aggregate's metadata (and optionally its name).",
  fields: (t) => ({
    uuid: t.id({ required: true, description: 'The aggregate uuid.' }),
    name: t.string({
      required: false,
      description:
        'A display name (Nova host aggregate name); omitted keeps the name, null clears it.',
    }),
    metadata: t.field({
      type: [KeyValueInput],
      required: true,
      description: 'The whole metadata set: keys not listed are removed.',
    }),
  }),
});

builder.mutationField('setAggregateMetadata', (t) =>
  t.field({
    type: Aggregate,
    description:
      'Nova host-aggregate metadata, read by scheduler filters. Creates the aggregate if needed. Replaces all metadata.',
    args: {
      input: t.arg({
        type: SetAggregateMetadataInput,
        required: false,
        description: 'The aggregate, its metadata and name.',
      }),
      uuid: t.arg.id({
        required: false,
        description: 'The aggregate uuid.',
        deprecationReason: USE_INPUT,
      }),
      name: t.arg.string({
        required: false,
        description: 'A display name; omitted keeps the name, null clears it.',
        deprecationReason: USE_INPUT,
      }),
      metadata: t.arg({
        type: [KeyValueInput],
        required: false,
        description: 'The whole metadata set: keys not listed are removed.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const input = inputOrFlat<typeof SetAggregateMetadataInput.$inferInput>(
        'setAggregateMetadata',
        args,
        ['uuid', 'name', 'metadata'],
        ['uuid', 'metadata'],
      );
      const aggregate = await ctx.services.aggregates.setMetadata(
        input.uuid,
        input.name,
        input.metadata,
      );
      ctx.loaders.clearAll();
      ctx.loaders.aggregateByUuid.prime(aggregate.uuid, aggregate);
      return aggregate;
    },
  }),
);

const SetProviderAggregatesInput = builder.inputType('SetProviderAggregatesInput', {
  description: 'The whole set of aggregates of one provider.',
  fields: (t) => ({
    providerUuid: t.id({ required: true, description: 'The provider.' }),
    aggregates: t.idList({
      required: true,
      description: 'The whole set of aggregate uuids the provider belongs to afterwards.',
    }),
    generation: t.int({
      required: true,
      description:
        'The provider generation you read (compare-and-swap: placement.concurrent_update when it moved).',
    }),
  }),
});

builder.mutationField('setProviderAggregates', (t) =>
  t.field({
    type: ResourceProvider,
    description:
      'Replaces the aggregates of a provider (PUT /resource_providers/{uuid}/aggregates, 1.19+).',
    args: {
      input: t.arg({
        type: SetProviderAggregatesInput,
        required: false,
        description: 'The provider, its aggregates and generation.',
      }),
      ...flatProviderArgs(t.arg),
      aggregates: t.arg.idList({
        required: false,
        description: 'The whole set of aggregate uuids afterwards.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const input = inputOrFlat<typeof SetProviderAggregatesInput.$inferInput>(
        'setProviderAggregates',
        args,
        ['providerUuid', 'aggregates', 'generation'],
      );
      const { provider } = await ctx.services.aggregates.setForProvider(
        input.providerUuid,
        input.generation,
        input.aggregates,
      );
      ctx.loaders.clearAll();
      ctx.loaders.primeProviders([provider]);
      return provider;
    },
  }),
);
