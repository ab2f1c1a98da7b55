// GraphQL: Trait type, its query and mutations, plus ResourceProvider.traits and setProviderTraits
// (upstream: handlers/trait.py).
import type { TraitRecord } from '../src/placement/types';
import { cloud } from './access';
import { builder } from './builder';
import {
  CustomNameInput,
  customNameOf,
  flatProviderArgs,
  inputOrFlat,
  USE_INPUT,
} from './mutation-input';
import { ResourceProvider } from './resource-provider';

/** GraphQL Trait. */
export const Trait = builder.objectRef<TraitRecord>('Trait').implement({
  ...cloud,
  description: 'A qualitative property of a provider (standard or CUSTOM_*).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The trait name.' }),
    custom: t.exposeBoolean('custom', { description: 'True for CUSTOM_* traits.' }),
  }),
});

const TraitFilter = builder.inputType('TraitFilter', {
  description: 'Which traits to list; all conditions hold.',
  fields: (t) => ({
    nameIn: t.stringList({ description: 'Only these names.', required: false }),
    startsWith: t.string({ description: 'Only names with this prefix.', required: false }),
    associated: t.boolean({
      description: 'True: only traits some provider has; false: only traits none has.',
      required: false,
    }),
  }),
});

builder.queryField('traits', (t) =>
  t.field({
    type: [Trait],
    description: 'Traits (standard and CUSTOM_*), by name.',
    args: {
      filter: t.arg({
        type: TraitFilter,
        required: false,
        description:
          'Name prefix or exact names, and whether only associated traits (all when absent).',
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.traits.list({
        nameIn: args.filter?.nameIn ?? undefined,
        startsWith: args.filter?.startsWith ?? undefined,
        associated: args.filter?.associated ?? undefined,
      }),
  }),
);

builder.mutationField('createTrait', (t) =>
  t.field({
    type: Trait,
    description: 'Creates a CUSTOM_ trait (berth.trait.exists when it already exists).',
    args: {
      input: t.arg({ type: CustomNameInput, required: false, description: 'The trait.' }),
      name: t.arg.string({
        required: false,
        description: 'A CUSTOM_ name.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: (_root, args, ctx) => ctx.services.traits.create(customNameOf('createTrait', args)),
  }),
);

builder.mutationField('deleteTrait', (t) =>
  t.string({
    description: 'Deletes a CUSTOM_ trait no provider has; answers its name.',
    args: {
      input: t.arg({
        type: CustomNameInput,
        required: false,
        description: 'A CUSTOM_ trait no provider has.',
      }),
      name: t.arg.string({
        required: false,
        description: 'A CUSTOM_ trait no provider has.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const name = customNameOf('deleteTrait', args);
      await ctx.services.traits.delete(name);
      return name;
    },
  }),
);

builder.objectField(ResourceProvider, 'traits', (t) =>
  t.stringList({
    description: 'Trait names, sorted.',
    resolve: (rp, _args, ctx) => ctx.loaders.traitsByProviderId.load(rp.id),
  }),
);

const SetProviderTraitsInput = builder.inputType('SetProviderTraitsInput', {
  description: 'The whole set of traits of one provider.',
  fields: (t) => ({
    providerUuid: t.id({ required: true, description: 'The provider.' }),
    traits: t.stringList({
      required: true,
      description: 'The whole set of traits the provider has afterwards.',
    }),
    generation: t.int({
      required: true,
      description: 'The provider generation you read (compare-and-swap).',
    }),
  }),
});

builder.mutationField('setProviderTraits', (t) =>
  t.field({
    type: ResourceProvider,
    description:
      'Replaces the traits of a provider (PUT /resource_providers/{uuid}/traits). Unknown traits are refused.',
    args: {
      input: t.arg({
        type: SetProviderTraitsInput,
        required: false,
        description: 'The provider, its traits and generation.',
      }),
      ...flatProviderArgs(t.arg),
      traits: t.arg.stringList({
        required: false,
        description: 'The whole set of traits afterwards.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const input = inputOrFlat<typeof SetProviderTraitsInput.$inferInput>(
        'setProviderTraits',
        args,
        ['providerUuid', 'traits', 'generation'],
      );
      const { provider, traits } = await ctx.services.providerTraits.set(
        String(input.providerUuid),
        input.generation,
        input.traits,
      );
      ctx.loaders.clearAll();
      ctx.loaders.primeProviders([provider]);
      ctx.loaders.traitsByProviderId.prime(provider.id, traits);
      return provider;
    },
  }),
);
