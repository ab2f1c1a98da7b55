// GraphQL: ResourceClass type, its query and mutations (upstream: handlers/resource_class.py).
import type { ResourceClassRecord } from '../src/placement/types';
import { cloud } from './access';
import { builder } from './builder';
import { CustomNameInput, customNameOf, USE_INPUT } from './mutation-input';

/** GraphQL ResourceClass. */
export const ResourceClass = builder.objectRef<ResourceClassRecord>('ResourceClass').implement({
  ...cloud,
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
    description:
      'Creates a CUSTOM_ resource class (berth.resource_class.exists when it already exists).',
    args: {
      input: t.arg({ type: CustomNameInput, required: false, description: 'The class.' }),
      name: t.arg.string({
        required: false,
        description: 'A CUSTOM_ name.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.resourceClasses.create(customNameOf('createResourceClass', args)),
  }),
);

builder.mutationField('deleteResourceClass', (t) =>
  t.string({
    description: 'Deletes a CUSTOM_ resource class no inventory uses; answers its name.',
    args: {
      input: t.arg({
        type: CustomNameInput,
        required: false,
        description: 'A CUSTOM_ class with no inventory left.',
      }),
      name: t.arg.string({
        required: false,
        description: 'A CUSTOM_ class with no inventory left.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const name = customNameOf('deleteResourceClass', args);
      await ctx.services.resourceClasses.delete(name);
      return name;
    },
  }),
);
