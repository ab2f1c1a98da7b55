// GraphQL: Inventory, ResourceProvider.inventories, setInventories and deleteInventory
// (upstream: handlers/inventory.py).
import type { InventoryInput as InventoryInputRecord } from '../src/placement/inventory-rules';
import type { InventoryRecord } from '../src/placement/types';
import { cloud } from './access';
import { builder } from './builder';
import { flatProviderArgs, inputOrFlat, USE_INPUT } from './mutation-input';
import { ResourceProvider } from './resource-provider';
import { saturatedInt, saturatedReason } from './safe-int';

/** GraphQL Inventory: one resource class offered by a provider, with its capacity and usage. */
export const Inventory = builder.objectRef<InventoryRecord>('Inventory').implement({
  ...cloud,
  description: 'One resource class a provider offers, with its capacity and usage.',
  fields: (t) => ({
    resourceClass: t.exposeString('resourceClass', { description: 'The resource class.' }),
    total: t.exposeInt('total', { description: 'Units that exist.' }),
    reserved: t.exposeInt('reserved', { description: 'Units kept for the host itself.' }),
    minUnit: t.exposeInt('minUnit', { description: 'Smallest single allocation.' }),
    maxUnit: t.exposeInt('maxUnit', { description: 'Largest single allocation.' }),
    stepSize: t.exposeInt('stepSize', { description: 'Allocations are multiples of this.' }),
    allocationRatio: t.exposeFloat('allocationRatio', { description: 'Overcommit factor.' }),
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
  description: 'One resource class a provider offers.',
  fields: (t) => ({
    resourceClass: t.string({ description: 'The resource class.', required: true }),
    total: t.int({ description: 'Units that exist.', required: true }),
    reserved: t.int({
      description: 'Units kept for the host itself (never allocated).',
      required: false,
      defaultValue: 0,
    }),
    minUnit: t.int({
      description: 'Smallest single allocation.',
      required: false,
      defaultValue: 1,
    }),
    maxUnit: t.int({ description: 'Largest single allocation (default: total).', required: false }),
    stepSize: t.int({
      description: 'Allocations are multiples of this.',
      required: false,
      defaultValue: 1,
    }),
    allocationRatio: t.float({
      description: 'Overcommit factor: capacity = (total - reserved) × ratio.',
      required: false,
      defaultValue: 1.0,
    }),
  }),
});

/** GraphQL SetInventoriesInput: every inventory of one provider, guarded by its generation. */
export const SetInventoriesInput = builder.inputType('SetInventoriesInput', {
  description: "A provider's complete inventory, compare-and-swap on its generation.",
  fields: (t) => ({
    providerUuid: t.id({ description: 'The provider.', required: true }),
    generation: t.int({
      description: 'The provider generation you read (compare-and-swap).',
      required: true,
    }),
    inventories: t.field({
      description: 'Its complete inventory: classes not listed are removed.',
      type: [InventoryInput],
      required: true,
    }),
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

const DeleteInventoryInput = builder.inputType('DeleteInventoryInput', {
  description: 'One inventory of one provider.',
  fields: (t) => ({
    providerUuid: t.id({ required: true, description: 'The provider.' }),
    resourceClass: t.string({
      required: true,
      description:
        'The class whose inventory is removed (refused with placement.inventory.inuse while allocated).',
    }),
    generation: t.int({
      required: true,
      description: 'The provider generation you read (compare-and-swap).',
    }),
  }),
});

builder.mutationField('deleteInventory', (t) =>
  t.field({
    type: ResourceProvider,
    description:
      'DELETE /resource_providers/{uuid}/inventories/{class}. Fails with placement.inventory.inuse while allocations use it. Returns the provider afterwards.',
    args: {
      input: t.arg({
        type: DeleteInventoryInput,
        required: false,
        description: 'The provider, class and generation.',
      }),
      ...flatProviderArgs(t.arg),
      resourceClass: t.arg.string({
        required: false,
        description: 'The class whose inventory is removed.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const input = inputOrFlat<typeof DeleteInventoryInput.$inferInput>('deleteInventory', args, [
        'providerUuid',
        'resourceClass',
        'generation',
      ]);
      const { provider, inventories } = await ctx.services.inventories.delete(
        String(input.providerUuid),
        input.resourceClass,
        input.generation,
      );
      ctx.loaders.clearAll();
      ctx.loaders.primeProviders([provider]);
      ctx.loaders.inventoriesByProviderId.prime(provider.id, inventories);
      return provider;
    },
  }),
);
