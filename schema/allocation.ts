// GraphQL: Allocation, Consumer.allocations, ResourceProvider.allocations, setAllocations and
// deleteAllocations (upstream: handlers/allocation.py, objects/allocation.py).
import type { ConsumerAllocationsInput as ConsumerAllocationsRecord } from '../src/placement/allocation-write';
import { ErrorCode, NotFoundError } from '../src/placement/errors';
import type { AllocationRecord } from '../src/placement/types';
import { normalizeUuidOrThrow } from '../src/placement/uuid';
import { owned, visibleTo } from './access';
import { builder } from './builder';
import { Consumer } from './consumer';
import { inputOrFlat, USE_INPUT } from './mutation-input';
import { ResourceAmountInput, resourceMapOrThrow } from './resource-amount';
import { ResourceProvider } from './resource-provider';

/** GraphQL Allocation: units of one class on one provider held by one consumer. */
export const Allocation = builder.objectRef<AllocationRecord>('Allocation').implement({
  ...owned((a: AllocationRecord) => a.projectId),
  description: 'Units of one resource class one consumer holds on one provider.',
  fields: (t) => ({
    provider: t.field({
      description: 'Where the units are held.',
      type: ResourceProvider,
      resolve: async (a, _args, ctx) => {
        const rp = await ctx.loaders.providerById.load(a.resourceProviderId);
        if (!rp) {
          throw new NotFoundError(
            `Resource provider ${a.resourceProviderUuid} was deleted concurrently.`,
            ErrorCode.RESOURCE_PROVIDER_NOT_FOUND,
          );
        }
        return rp;
      },
    }),
    resourceClass: t.exposeString('resourceClass', { description: 'The resource class.' }),
    used: t.exposeInt('used', { description: 'The units.' }),
    consumer: t.field({
      description: 'Who holds them.',
      type: Consumer,
      resolve: async (a, _args, ctx) => {
        const consumer = await ctx.loaders.consumerById.load(a.consumerId);
        if (!consumer) {
          throw new NotFoundError(
            `Consumer ${a.consumerUuid} was deleted concurrently.`,
            ErrorCode.CONSUMER_NOT_FOUND,
          );
        }
        return consumer;
      },
    }),
  }),
});

builder.objectField(Consumer, 'allocations', (t) =>
  t.field({
    type: [Allocation],
    description: 'By provider, then resource class.',
    resolve: (c, _args, ctx) => ctx.loaders.allocationsByConsumerId.load(c.id),
  }),
);

builder.objectField(ResourceProvider, 'allocations', (t) =>
  t.field({
    type: [Allocation],
    // Hundreds of consumers per host (armour-rules.ts multiplies the cost estimate by it).
    extensions: { listSize: 200 },
    description:
      "GET /resource_providers/{uuid}/allocations, by consumer, then resource class. A token scoped to a project sees only that project's allocations here (the provider's usages still count every project's).",
    resolve: async (rp, _args, ctx) =>
      visibleTo(ctx, await ctx.loaders.allocationsByProviderId.load(rp.id), (a) => a.projectId),
  }),
);

const ProviderAllocationInput = builder.inputType('ProviderAllocationInput', {
  description: 'What one consumer takes from one provider.',
  fields: (t) => ({
    providerUuid: t.id({ description: 'The provider.', required: true }),
    resources: t.field({
      description: 'What the consumer takes from it.',
      type: [ResourceAmountInput],
      required: true,
    }),
  }),
});

/** GraphQL ConsumerAllocationsInput: the complete new allocations of one consumer. */
export const ConsumerAllocationsInput = builder.inputType('ConsumerAllocationsInput', {
  description: "One consumer's complete new allocations.",
  fields: (t) => ({
    consumerUuid: t.id({ description: 'The consumer.', required: true }),
    projectId: t.string({ description: 'Its project.', required: true }),
    userId: t.string({ description: 'Its user.', required: true }),
    consumerType: t.string({
      required: false,
      description: 'e.g. INSTANCE, MIGRATION; omitted keeps the existing type.',
    }),
    consumerGeneration: t.int({
      required: false,
      description: 'null for a consumer that does not exist yet',
    }),
    allocations: t.field({
      type: [ProviderAllocationInput],
      required: true,
      description: 'An empty list removes the allocations (and the consumer).',
    }),
  }),
});

/**
 * Maps GraphQL allocation input to the domain's; a missing consumerGeneration means "new consumer"
 * (1.28+ semantics).
 * @throws BadRequestError when a class appears twice for one provider.
 */
export function toConsumerAllocationsOrThrow(
  c: typeof ConsumerAllocationsInput.$inferInput,
): ConsumerAllocationsRecord {
  return {
    consumerUuid: c.consumerUuid,
    projectId: c.projectId,
    userId: c.userId,
    consumerType: c.consumerType ?? undefined,
    consumerGeneration: c.consumerGeneration ?? null,
    allocations: c.allocations.map((a) => ({
      providerUuid: a.providerUuid,
      resources: resourceMapOrThrow(
        a.resources,
        `the allocation of ${c.consumerUuid} on ${a.providerUuid}`,
      ),
    })),
  };
}

builder.mutationField('setAllocations', (t) =>
  t.field({
    type: [Consumer],
    description:
      'Atomically replaces the allocations of one or more consumers (POST /allocations). An empty list for a consumer removes its allocations. Returns the consumers that still hold allocations, in input order.',
    args: {
      input: t.arg({
        type: [ConsumerAllocationsInput],
        required: true,
        description:
          "Each consumer's complete new allocations (an empty list releases them), written atomically.",
      }),
    },
    resolve: async (_root, args, ctx) => {
      const consumers = await ctx.services.allocations.set(
        args.input.map(toConsumerAllocationsOrThrow),
      );
      ctx.loaders.clearAll();
      for (const c of consumers) {
        ctx.loaders.consumerById.prime(c.id, c);
      }
      return consumers;
    },
  }),
);

const DeleteAllocationsInput = builder.inputType('DeleteAllocationsInput', {
  description: 'The consumer whose allocations are released.',
  fields: (t) => ({
    consumerUuid: t.id({ required: true, description: 'The consumer.' }),
  }),
});

builder.mutationField('deleteAllocations', (t) =>
  t.id({
    description:
      'DELETE /allocations/{consumer_uuid}: removes every allocation of the consumer; returns its uuid.',
    args: {
      input: t.arg({ type: DeleteAllocationsInput, required: false, description: 'The consumer.' }),
      consumerUuid: t.arg.id({
        required: false,
        description: 'The consumer whose allocations are released.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const input = inputOrFlat<typeof DeleteAllocationsInput.$inferInput>(
        'deleteAllocations',
        args,
        ['consumerUuid'],
      );
      const uuid = normalizeUuidOrThrow(String(input.consumerUuid), 'consumer uuid');
      await ctx.services.allocations.deleteForConsumer(uuid);
      ctx.loaders.clearAll();
      return uuid;
    },
  }),
);
