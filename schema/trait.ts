// GraphQL: Trait type, its query and mutations (upstream: handlers/trait.py).
import type { TraitRecord } from '../src/placement/types';
import { builder } from './builder';

/** GraphQL Trait. */
export const Trait = builder.objectRef<TraitRecord>('Trait').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    custom: t.exposeBoolean('custom'),
  }),
});

const TraitFilter = builder.inputType('TraitFilter', {
  fields: (t) => ({
    nameIn: t.stringList({ required: false }),
    startsWith: t.string({ required: false }),
    associated: t.boolean({ required: false }),
  }),
});

builder.queryField('traits', (t) =>
  t.field({
    type: [Trait],
    args: { filter: t.arg({ type: TraitFilter, required: false }) },
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
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.traits.create(args.name),
  }),
);

builder.mutationField('deleteTrait', (t) =>
  t.string({
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await ctx.services.traits.delete(args.name);
      return args.name;
    },
  }),
);
