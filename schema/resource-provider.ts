// GraphQL: ResourceProvider (its tree fields), the resourceProvider query and the create, update
// and delete mutations (upstream: handlers/resource_provider.py). Inventories, usages, traits,
// aggregates and allocations are added to the type by their own files.
import { ErrorCode, NotFoundError } from '../src/placement/errors';
import type { ResourceProviderRecord } from '../src/placement/types';
import { normalizeUuidOrThrow } from '../src/placement/uuid';
import { cloud } from './access';
import { builder } from './builder';
import { inputOrFlat, USE_INPUT } from './mutation-input';

/** GraphQL ResourceProvider, backed by the plain provider record. */
export const ResourceProvider = builder.objectRef<ResourceProviderRecord>('ResourceProvider');

ResourceProvider.implement({
  ...cloud,
  description: 'One node of a provider tree: a compute host, a NUMA cell, a shared storage pool...',
  fields: (t) => ({
    uuid: t.exposeID('uuid', { description: 'The provider uuid.' }),
    name: t.exposeString('name', { description: 'Its unique name.' }),
    generation: t.exposeInt('generation', {
      description:
        'Incremented by every write to the provider; writes that take a generation fail with placement.concurrent_update when it is stale.',
    }),
    parent: t.field({
      description: 'Its parent provider, or null for a root.',
      type: ResourceProvider,
      nullable: true,
      resolve: (rp, _args, ctx) =>
        rp.parentProviderId === null ? null : ctx.loaders.providerById.load(rp.parentProviderId),
    }),
    root: t.field({
      type: ResourceProvider,
      description: 'The root of the tree (the provider itself when it has no parent).',
      resolve: async (rp, _args, ctx) => {
        const root = await ctx.loaders.providerById.load(rp.rootProviderId);
        if (!root) {
          throw new NotFoundError(
            `Root provider ${rp.rootProviderUuid} of ${rp.uuid} was deleted concurrently.`,
            ErrorCode.RESOURCE_PROVIDER_NOT_FOUND,
          );
        }
        return root;
      },
    }),
    children: t.field({
      type: [ResourceProvider],
      description: 'Direct children, by creation order.',
      resolve: (rp, _args, ctx) => ctx.loaders.childrenByProviderId.load(rp),
    }),
  }),
});

const CreateResourceProviderInput = builder.inputType('CreateResourceProviderInput', {
  description: 'A new provider.',
  fields: (t) => ({
    name: t.string({ required: true, description: '1 to 200 characters, unique.' }),
    uuid: t.id({ required: false, description: 'Generated when omitted.' }),
    parentUuid: t.id({ required: false, description: 'Creates a child of this provider.' }),
  }),
});

const UpdateResourceProviderInput = builder.inputType('UpdateResourceProviderInput', {
  description: "A provider's new name and parent.",
  fields: (t) => ({
    uuid: t.id({ description: 'The provider to update.', required: true }),
    name: t.string({
      description: 'Its new name; omitted or null: keep the name (re-parent only).',
      required: false,
    }),
    parentUuid: t.id({
      required: false,
      description:
        'Omitted: keep the parent. null: make the provider a root. Otherwise re-parent it.',
    }),
    generation: t.int({
      required: false,
      description: 'When given, the update fails with placement.concurrent_update if it is stale.',
    }),
  }),
});

builder.queryField('resourceProvider', (t) =>
  t.field({
    type: ResourceProvider,
    nullable: true,
    description: 'The provider with this uuid, or null (GET /resource_providers/{uuid}).',
    args: { uuid: t.arg.id({ required: true, description: 'The provider uuid.' }) },
    resolve: async (_root, args, ctx) => {
      const rp = await ctx.services.providers.find(
        normalizeUuidOrThrow(args.uuid, 'resource provider uuid'),
      );
      if (rp) {
        ctx.loaders.primeProviders([rp]);
      }
      return rp;
    },
  }),
);

builder.mutationField('createResourceProvider', (t) =>
  t.field({
    type: ResourceProvider,
    description:
      'POST /resource_providers. Fails with placement.duplicate_name when the name or uuid is taken.',
    args: {
      input: t.arg({
        type: CreateResourceProviderInput,
        required: true,
        description: 'Name, optional uuid and optional parent.',
      }),
    },
    resolve: async (_root, { input }, ctx) => {
      const rp = await ctx.services.providers.create({
        name: input.name,
        uuid: input.uuid ?? undefined,
        parentUuid: input.parentUuid ?? null,
      });
      ctx.loaders.clearAll();
      ctx.loaders.primeProviders([rp]);
      return rp;
    },
  }),
);

builder.mutationField('updateResourceProvider', (t) =>
  t.field({
    type: ResourceProvider,
    description: 'PUT /resource_providers/{uuid}: rename and/or re-parent (1.37 semantics).',
    args: {
      input: t.arg({
        type: UpdateResourceProviderInput,
        required: true,
        description: 'The provider, its new name and parent.',
      }),
    },
    resolve: async (_root, { input }, ctx) => {
      const rp = await ctx.services.providers.update({
        uuid: input.uuid,
        name: input.name ?? undefined,
        parentUuid: input.parentUuid,
        generation: input.generation ?? undefined,
      });
      ctx.loaders.clearAll();
      ctx.loaders.primeProviders([rp]);
      return rp;
    },
  }),
);

const DeleteResourceProviderInput = builder.inputType('DeleteResourceProviderInput', {
  description: 'The provider to delete.',
  fields: (t) => ({
    uuid: t.id({ required: true, description: 'A provider with no allocations and no children.' }),
  }),
});

builder.mutationField('deleteResourceProvider', (t) =>
  t.id({
    description:
      'DELETE /resource_providers/{uuid}; returns the uuid. Fails with placement.resource_provider.inuse (allocations) or placement.resource_provider.cannot_delete_parent (children).',
    args: {
      input: t.arg({
        type: DeleteResourceProviderInput,
        required: false,
        description: 'A provider with no allocations and no children.',
      }),
      uuid: t.arg.id({
        required: false,
        description: 'A provider with no allocations and no children.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const input = inputOrFlat<typeof DeleteResourceProviderInput.$inferInput>(
        'deleteResourceProvider',
        args,
        ['uuid'],
      );
      const uuid = normalizeUuidOrThrow(String(input.uuid), 'resource provider uuid');
      await ctx.services.providers.delete(uuid);
      ctx.loaders.clearAll();
      return uuid;
    },
  }),
);
