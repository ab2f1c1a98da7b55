// GraphQL: reshape, the atomic move of inventories and allocations (upstream: handlers/reshaper.py).

import { ConsumerAllocationsInput, toConsumerAllocationsOrThrow } from './allocation';
import { builder } from './builder';
import { SetInventoriesInput, toInventoryInput } from './inventory';

const ReshapeInput = builder.inputType('ReshapeInput', {
  description: 'The new inventories and allocations of a reshape, applied atomically.',
  fields: (t) => ({
    inventories: t.field({
      type: [SetInventoriesInput],
      required: true,
      description: 'The complete new inventories of every provider involved.',
    }),
    allocations: t.field({
      type: [ConsumerAllocationsInput],
      required: true,
      description: 'The complete new allocations of every consumer involved.',
    }),
  }),
});

builder.mutationField('reshape', (t) =>
  t.boolean({
    description:
      'Atomically moves inventories and allocations (POST /reshaper): everything is applied, or nothing.',
    args: {
      input: t.arg({
        type: ReshapeInput,
        required: true,
        description:
          'The complete new inventories of the providers involved and the moved allocations.',
      }),
    },
    resolve: async (_root, { input }, ctx) => {
      await ctx.services.reshaper.reshape({
        inventories: input.inventories.map((i) => ({
          providerUuid: i.providerUuid,
          generation: i.generation,
          inventories: i.inventories.map(toInventoryInput),
        })),
        allocations: input.allocations.map(toConsumerAllocationsOrThrow),
      });
      ctx.loaders.clearAll();
      return true;
    },
  }),
);
