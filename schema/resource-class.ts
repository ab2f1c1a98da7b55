// GraphQL: ResourceClass type, its query and mutations (upstream: handlers/resource_class.py).
import type { ResourceClassRecord } from '../src/placement/types';
import { builder } from './builder';

/** GraphQL ResourceClass. */
export const ResourceClass = builder.objectRef<ResourceClassRecord>('ResourceClass').implement({
  description: 'A kind of resource (standard like VCPU, or CUSTOM_*).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The class name.' }),
    custom: t.exposeBoolean('custom', { description: 'True for CUSTOM_* classes.' }),
  }),
});

builder.queryField('resourceClasses', (t) =>
  t.field({
    type: [ResourceClass],
    description: 'Every resource class, standard first.',
    resolve: (_root, _args, ctx) => ctx.services.resourceClasses.list(),
  }),
);

builder.mutationField('createResourceClass', (t) =>
  t.field({
    type: ResourceClass,
    description: 'Creates a CUSTOM_ resource class (a 409 conflict when it already exists).',
    args: {
      name: t.arg.string({
        required: true,
        description: 'A CUSTOM_ name (upper case letters, digits and underscores).',
      }),
    },
    resolve: (_root, args, ctx) => ctx.services.resourceClasses.create(args.name),
  }),
);

builder.mutationField('deleteResourceClass', (t) =>
  t.string({
    description: 'Deletes a CUSTOM_ resource class no inventory uses; answers its name.',
    args: {
      name: t.arg.string({
        required: true,
        description: 'A CUSTOM_ class with no inventory left.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      await ctx.services.resourceClasses.delete(args.name);
      return args.name;
    },
  }),
);
