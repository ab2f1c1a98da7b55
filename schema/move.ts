// GraphQL: confirmMove / revertMove and Consumer.move — ending a move that `schedule` started by
// doubling a consumer's allocations (Nova: compute confirm_resize / revert_resize, which drop the
// migration consumer's source allocations or move them back).

import type { MoveRecord } from '../src/placement/claims';
import { normalizeUuidOrThrow } from '../src/placement/uuid';
import { part } from './access';
import { ProviderResources, providerOrThrow } from './allocation-candidate';
import { builder } from './builder';
import { Consumer } from './consumer';
import { ResourceProvider } from './resource-provider';

const ConsumerMove = builder.objectRef<MoveRecord>('ConsumerMove').implement({
  ...part,
  description:
    'A move in progress: the consumer holds both the source and the destination allocations.',
  fields: (t) => ({
    destinationHost: t.field({
      type: ResourceProvider,
      description: 'Root provider of the destination host.',
      resolve: (m, _a, ctx) => providerOrThrow(ctx, m.destinationRootUuid),
    }),
    source: t.field({
      type: [ProviderResources],
      description: 'The allocations the consumer held before the move (dropped by confirmMove).',
      resolve: (m) => [...m.source],
    }),
    destination: t.field({
      type: [ProviderResources],
      description: 'The allocations schedule added (dropped by revertMove).',
      resolve: (m) => [...m.destination],
    }),
    startedAt: t.string({
      description: 'When the move began (ISO 8601).',
      resolve: (m) => m.createdAt.toISOString(),
    }),
  }),
});

builder.objectField(Consumer, 'move', (t) =>
  t.field({
    type: ConsumerMove,
    nullable: true,
    description: 'The move in progress (started by schedule), or null.',
    resolve: (c, _a, ctx) => ctx.scheduling.moves.find(c.uuid),
  }),
);

const EndMoveInput = builder.inputType('EndMoveInput', {
  description: 'The consumer whose move ends.',
  fields: (t) => ({
    consumerUuid: t.id({ description: 'The moving consumer.', required: true }),
    consumerGeneration: t.int({
      required: false,
      description:
        'When given, the consumer must still be at this generation (placement.concurrent_update otherwise).',
    }),
  }),
});

function endMove(drop: 'source' | 'destination', description: string) {
  return builder.mutationField(drop === 'source' ? 'confirmMove' : 'revertMove', (t) =>
    t.field({
      type: Consumer,
      nullable: true,
      description,
      args: {
        input: t.arg({
          type: EndMoveInput,
          required: true,
          description: 'The moving consumer (and optionally its generation).',
        }),
      },
      resolve: async (_r, args, ctx) => {
        const consumer = await ctx.scheduling.moves.end(
          normalizeUuidOrThrow(String(args.input.consumerUuid), 'consumer uuid'),
          drop,
          args.input.consumerGeneration ?? undefined,
        );
        ctx.loaders.clearAll();
        return consumer;
      },
    }),
  );
}

endMove(
  'source',
  'Confirms a move: atomically drops the source allocations, keeping the destination ones. Error berth.move.not_in_progress when the consumer has no move.',
);
endMove(
  'destination',
  'Reverts a move: atomically drops the destination allocations, keeping the source ones. Error berth.move.not_in_progress when the consumer has no move.',
);
