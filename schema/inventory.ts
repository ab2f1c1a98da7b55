// GraphQL: Inventory, ResourceProvider.inventories, setInventories and deleteInventory
// (upstream: handlers/inventory.py).
import type { InventoryInput as InventoryInputRecord } from '../src/placement/inventory-rules';
import type { InventoryRecord } from '../src/placement/types';
import { builder } from './builder';
import { ResourceProvider } from './resource-provider';
import { saturatedInt, saturatedReason } from './safe-int';

/** GraphQL Inventory: one resource class offered by a provider, with its capacity and usage. */
export const Inventory = builder.objectRef<InventoryRecord>('Inventory').implement({
  fields: (t) => ({
    resourceClass: t.exposeString('resourceClass'),
    total: t.exposeInt('total'),
    reserved: t.exposeInt('reserved'),
    minUnit: t.exposeInt('minUnit'),
    maxUnit: t.exposeInt('maxUnit'),
    stepSize: t.exposeInt('stepSize'),
    allocationRatio: t.exposeFloat('allocationRatio'),
    capacity: t.int({
      description: '(total - reserved) * allocationRatio, floored',
      deprecationReason: saturatedReason('capacityExact'),
      resolve: (i) => saturatedInt(i.capacity),
    }),
    capacityExact: t.field({
      type: 'SafeInt',
      description: '(total - reserved) * allocationRatio, floored (exact beyond 2^31 - 1).',
      resolve: (i) => i.capacity,
    }),
    used: t.int({
      description: 'Sum of the allocations of this class.',
      deprecationReason: saturatedReason('usedExact'),
      resolve: (i) => saturatedInt(i.used),
    }),
    usedExact: t.field({
      type: 'SafeInt',
      description: 'Sum of the allocations of this class (exact beyond 2^31 - 1).',
      resolve: (i) => i.used,
    }),
  }),
});

builder.objectField(ResourceProvider, 'inventories', (t) =>
  t.field({
    type: [Inventory],
    description: 'By resource class id (standard classes first).',
    resolve: (rp, _args, ctx) => ctx.loaders.inventoriesByProviderId.load(rp.id),
  }),
);

/** GraphQL InventoryInput (defaults as in Placement; maxUnit defaults to 2147483647). */
export const InventoryInput = builder.inputType('InventoryInput', {
  fields: (t) => ({
    resourceClass: t.string({ required: true }),
    total: t.int({ required: true }),
    reserved: t.int({ required: false, defaultValue: 0 }),
    minUnit: t.int({ required: false, defaultValue: 1 }),
    maxUnit: t.int({ required: false }),
    stepSize: t.int({ required: false, defaultValue: 1 }),
    allocationRatio: t.float({ required: false, defaultValue: 1.0 }),
  }),
});

/** GraphQL SetInventoriesInput: every inventory of one provider, guarded by its generation. */
export const SetInventoriesInput = builder.inputType('SetInventoriesInput', {
  fields: (t) => ({
    providerUuid: t.id({ required: true }),
    generation: t.int({ required: true }),
    inventories: t.field({ type: [InventoryInput], required: true }),
  }),
});

/** Maps GraphQL inventory input to the domain's (null means "use the default"). */
export function toInventoryInput(i: typeof InventoryInput.$inferInput): InventoryInputRecord {
  return {
    resourceClass: i.resourceClass,
    total: i.total,
    reserved: i.reserved ?? undefined,
    minUnit: i.minUnit ?? undefined,
    maxUnit: i.maxUnit ?? undefined,
    stepSize: i.stepSize ?? undefined,
    allocationRatio: i.allocationRatio ?? undefined,
  };
}

builder.mutationField('setInventories', (t) =>
  t.field({
    type: ResourceProvider,
    description:
      'Replaces all inventories of a provider (PUT /resource_providers/{uuid}/inventories).',
    args: {
      input: t.arg({
        type: SetInventoriesInput,
        required: true,
        description:
          'The provider, the generation you read, and its complete inventory (classes not listed are removed).',
      }),
    },
    resolve: async (_root, { input }, ctx) => {
      const { provider, inventories } = await ctx.services.inventories.setAll(
        input.providerUuid,
        input.generation,
        input.inventories.map(toInventoryInput),
      );
      ctx.loaders.clearAll();
      ctx.loaders.primeProviders([provider]);
      ctx.loaders.inventoriesByProviderId.prime(provider.id, inventories);
      return provider;
    },
  }),
);

builder.mutationField('deleteInventory', (t) =>
  t.field({
    type: ResourceProvider,
    description:
      'DELETE /resource_providers/{uuid}/inventories/{class}. Fails with placement.inventory.inuse while allocations use it.',
    args: {
      providerUuid: t.arg.id({ required: true, description: 'The provider.' }),
      resourceClass: t.arg.string({
        required: true,
        description:
          'The class whose inventory is removed (refused with placement.inventory.inuse while allocated).',
      }),
      generation: t.arg.int({
        required: true,
        description: 'The provider generation you read (compare-and-swap).',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const { provider, inventories } = await ctx.services.inventories.delete(
        args.providerUuid,
        args.resourceClass,
        args.generation,
      );
      ctx.loaders.clearAll();
      ctx.loaders.primeProviders([provider]);
      ctx.loaders.inventoriesByProviderId.prime(provider.id, inventories);
      return provider;
    },
  }),
);
