// GraphQL: Trait type, its query and mutations, plus ResourceProvider.traits and setProviderTraits
// (upstream: handlers/trait.py).
import type { TraitRecord } from '../src/placement/types';
import { builder } from './builder';
import { ResourceProvider } from './resource-provider';

/** GraphQL Trait. */
export const Trait = builder.objectRef<TraitRecord>('Trait').implement({
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
    description: 'Creates a CUSTOM_ trait (a 409 conflict when it already exists).',
    args: {
      name: t.arg.string({
        required: true,
        description: 'A CUSTOM_ name (upper case letters, digits and underscores).',
      }),
    },
    resolve: (_root, args, ctx) => ctx.services.traits.create(args.name),
  }),
);

builder.mutationField('deleteTrait', (t) =>
  t.string({
    description: 'Deletes a CUSTOM_ trait no provider has; answers its name.',
    args: {
      name: t.arg.string({ required: true, description: 'A CUSTOM_ trait no provider has.' }),
    },
    resolve: async (_root, args, ctx) => {
      await ctx.services.traits.delete(args.name);
      return args.name;
    },
  }),
);

builder.objectField(ResourceProvider, 'traits', (t) =>
  t.stringList({
    description: 'Trait names, sorted.',
    resolve: (rp, _args, ctx) => ctx.loaders.traitsByProviderId.load(rp.id),
  }),
);

builder.mutationField('setProviderTraits', (t) =>
  t.field({
    type: ResourceProvider,
    description:
      'Replaces the traits of a provider (PUT /resource_providers/{uuid}/traits). Unknown traits are refused.',
    args: {
      providerUuid: t.arg.id({ required: true, description: 'The provider.' }),
      traits: t.arg.stringList({
        required: true,
        description: 'The whole set of traits the provider has afterwards.',
      }),
      generation: t.arg.int({
        required: true,
        description: 'The provider generation you read (compare-and-swap).',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const { provider, traits } = await ctx.services.providerTraits.set(
        args.providerUuid,
        args.generation,
        args.traits,
      );
      ctx.loaders.clearAll();
      ctx.loaders.primeProviders([provider]);
      ctx.loaders.traitsByProviderId.prime(provider.id, traits);
      return provider;
    },
  }),
);
