// GraphQL subscriptions for live UIs (berth extension), served over graphql-yoga's built-in
// Server-Sent Events transport (`Accept: text/event-stream`, GET or POST /graphql): no extra
// dependency or port, and it passes through proxies that already carry HTTP. Events come from the
// change bus, so a subscriber on one replica sees writes made on any replica.
import { GraphQLError } from 'graphql';
import type { ProviderChangeEvent } from '../src/placement/live';
import { cloud, owned } from './access';
import { builder } from './builder';
import { CapacityGroup, CapacityGrouping } from './capacity';
import type { Context } from './context';
import { ResourceProvider } from './resource-provider';
import { providerFilterOrThrow, ResourceProviderFilter } from './resource-provider-connection';

/** Whom a subscription counts against: the token, else the client (auth off). */
function callerKey(ctx: Context): string {
  return ctx.caller ? `token:${ctx.caller.tokenId}` : 'anonymous';
}

const providerFields = {
  resync: {
    description:
      'True when changes were missed (a slow reader, or a provider was deleted): re-read everything shown.',
  },
};

const ProviderChange = builder.objectRef<ProviderChangeEvent>('ProviderChange').implement({
  ...cloud,
  description: 'Providers whose inventories, usage, traits, aggregates or generation changed.',
  fields: (t) => ({
    resync: t.exposeBoolean('resync', providerFields.resync),
    providerUuids: t.exposeIDList('providerUuids', { description: 'The changed providers.' }),
    providers: t.field({
      type: [ResourceProvider],
      extensions: { listSize: 100 },
      description: 'The changed providers as they are now (read when the event is sent).',
      resolve: async (e, _a, ctx) =>
        (await ctx.loaders.providerByUuid.loadMany([...e.providerUuids])).flatMap((p) =>
          p && !(p instanceof Error) ? [p] : [],
        ),
    }),
  }),
});

const AllocationChange = builder
  .objectRef<ProviderChangeEvent & { projectId: string }>('AllocationChange')
  .implement({
    ...owned((e: { projectId: string }) => e.projectId),
    description: 'Consumers of one project gained, changed or lost allocations on these providers.',
    fields: (t) => ({
      projectId: t.exposeString('projectId', { description: 'The project subscribed to.' }),
      resync: t.exposeBoolean('resync', providerFields.resync),
      providerUuids: t.exposeIDList('providerUuids', {
        description: 'Providers the allocations were on (before or after the change).',
      }),
    }),
  });

const CapacityChange = builder
  .objectRef<{ groups: readonly unknown[] }>('CapacityChange')
  .implement({
    ...cloud,
    description: 'The capacity rollup as it is now.',
    fields: (t) => ({
      groups: t.field({
        type: [CapacityGroup],
        extensions: { listSize: 100 }, // as the capacity query
        description: 'As the capacity query answers.',
        resolve: (c) => c.groups as never,
      }),
    }),
  });

/** Fresh loaders for every event: a subscription's context lives as long as it does. */
function fresh<T>(e: T, _args: unknown, ctx: Context): T {
  ctx.loaders.clearAll();
  return e;
}

builder.subscriptionField('providerChanged', (t) =>
  t.field({
    type: ProviderChange,
    description:
      'An event whenever providers the filter selects change (inventories, usage, traits, aggregates, generation), on any replica.',
    args: {
      filter: t.arg({
        type: ResourceProviderFilter,
        required: false,
        description: 'Which providers to watch (all when absent).',
      }),
    },
    subscribe: (_r, args, ctx) =>
      ctx.services.live.providerChanges(callerKey(ctx), providerFilterOrThrow(args.filter)),
    resolve: fresh,
  }),
);

builder.subscriptionField('capacityChanged', (t) =>
  t.field({
    type: CapacityChange,
    description:
      'The capacity rollup at once, then again after changes, coalesced to at most one event per minIntervalMs.',
    args: {
      filter: t.arg({
        type: ResourceProviderFilter,
        required: false,
        description: 'Which providers to count (all when absent).',
      }),
      groupBy: t.arg({
        type: CapacityGrouping,
        required: false,
        defaultValue: 'NONE',
        description: 'How to group them.',
      }),
      minIntervalMs: t.arg.int({
        required: false,
        defaultValue: 500,
        description: 'Least time between two events, from 100 to 3600000 ms.',
      }),
    },
    subscribe: async (_r, args, ctx) => {
      const groups = await ctx.services.live.capacityChanges(
        callerKey(ctx),
        providerFilterOrThrow(args.filter),
        args.groupBy ?? 'NONE',
        args.minIntervalMs ?? 500,
      );
      return mapEvents(groups, (g) => ({ groups: g }));
    },
    resolve: fresh,
  }),
);

builder.subscriptionField('allocationsChanged', (t) =>
  t.field({
    type: AllocationChange,
    description:
      'An event whenever consumers of the project gain, change or lose allocations, on any replica. A project-scoped token may only watch its own project.',
    args: { projectId: t.arg.string({ required: true, description: 'The project to watch.' }) },
    subscribe: (_r, args, ctx) => {
      const own = ctx.caller?.project;
      if (own && own !== args.projectId) {
        throw new GraphQLError(
          `This token is scoped to project '${own}' and may not watch project '${args.projectId}'.`,
          { extensions: { code: 'berth.forbidden' } },
        );
      }
      return ctx.services.live.allocationChanges(callerKey(ctx), args.projectId);
    },
    resolve: fresh,
  }),
);

function mapEvents<A, B>(it: AsyncIterableIterator<A>, f: (a: A) => B): AsyncIterableIterator<B> {
  const out: AsyncIterableIterator<B> = {
    async next() {
      const r = await it.next();
      return r.done ? r : { value: f(r.value), done: false };
    },
    return: () => it.return!() as Promise<IteratorResult<B>>,
    [Symbol.asyncIterator]: () => out,
  };
  return out;
}
