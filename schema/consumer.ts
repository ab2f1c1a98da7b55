// GraphQL: Consumer (who holds allocations) and the consumer query (upstream: objects/consumer.py;
// GET /allocations/{consumer_uuid} for the read).
import type { ConsumerRecord } from '../src/placement/types';
import { normalizeUuidOrThrow } from '../src/placement/uuid';
import { owned, visibleProject } from './access';
import { builder } from './builder';

/** GraphQL Consumer; its allocations field is added by schema/allocation.ts. */
export const Consumer = builder.objectRef<ConsumerRecord>('Consumer').implement({
  ...owned((c: ConsumerRecord) => c.projectId),
  description: 'Who holds allocations: an instance, a migration or any other consumer.',
  fields: (t) => ({
    uuid: t.exposeID('uuid', {
      description: 'The consumer uuid (Nova: the instance or migration uuid).',
    }),
    projectId: t.exposeString('projectId', { description: 'Its project.' }),
    userId: t.exposeString('userId', { description: 'Its user.' }),
    consumerType: t.exposeString('consumerType', {
      description: "The type name, or 'unknown' when none was given.",
    }),
    generation: t.exposeInt('generation', {
      description: 'Pass it back as consumerGeneration when replacing the allocations.',
    }),
  }),
});

builder.queryField('consumer', (t) =>
  t.field({
    type: Consumer,
    nullable: true,
    description:
      "The consumer with this uuid, or null when it holds no allocations (or, for a token scoped to a project, when it is another project's).",
    args: { uuid: t.arg.id({ required: true, description: 'The consumer uuid.' }) },
    resolve: async (_root, args, ctx) => {
      const consumer = await ctx.services.allocations.findConsumer(
        normalizeUuidOrThrow(args.uuid, 'consumer uuid'),
      );
      if (!consumer || !visibleProject(ctx, consumer.projectId)) {
        return null; // another project's consumer reads exactly as an unknown one
      }
      ctx.loaders.consumerById.prime(consumer.id, consumer);
      return consumer;
    },
  }),
);
