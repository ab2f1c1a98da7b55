// GraphQL: drainPlan and reserveDrainPlan — where every consumer of the hosts to drain would go,
// or why one cannot move (src/planning/drain.ts); reserveDrainPlan also claims the destinations
// as moves (confirmMove / revertMove end them).

import {
  type DrainDeps,
  type DrainMove as DrainMoveRecord,
  type DrainPlan as DrainPlanRecord,
  planDrain,
  reserveDrain,
} from '../src/planning/drain';
import { cloud, owned, visibleTo } from './access';
import { ProviderResources, providerOrThrow } from './allocation-candidate';
import { builder } from './builder';
import { CandidateStage } from './candidate-stage';
import type { Context } from './context';
import { ResourceProvider } from './resource-provider';

const DrainPlanInput = builder.inputType('DrainPlanInput', {
  description:
    'The hosts to drain and the scheduler profile whose pipeline places their consumers.',
  fields: (t) => ({
    hosts: t.idList({
      required: true,
      description:
        'Root provider uuids of the hosts to drain (1 to 100; berth.drain.* errors otherwise).',
    }),
    profile: t.string({
      required: false,
      defaultValue: 'default',
      description: 'The scheduler profile (berth.scheduler.unknown_profile when unknown).',
    }),
    candidateLimit: t.int({
      required: false,
      description:
        "Allocation candidates each consumer's first evaluation looks at (default 100, in Placement's order; Nova's max_placement_results plays the same part); when all of them are filtered out, every host is looked at before a consumer is reported unmovable.",
    }),
  }),
});

const DrainMove = builder.objectRef<DrainMoveRecord>('DrainMove').implement({
  ...owned((m: DrainMoveRecord) => m.projectId),
  description: 'Where one consumer of a drained host goes, or why it cannot move.',
  fields: (t) => ({
    consumerUuid: t.exposeID('consumerUuid', { description: 'The consumer.' }),
    projectId: t.exposeString('projectId', { description: "The consumer's project." }),
    from: t.field({
      type: ResourceProvider,
      description: 'The drained host it runs on (root provider).',
      resolve: (m, _a, ctx) => providerOrThrow(ctx, m.from),
    }),
    to: t.field({
      type: ResourceProvider,
      nullable: true,
      description: 'The destination host (root provider), or null when it cannot move.',
      resolve: (m, _a, ctx) => (m.to ? providerOrThrow(ctx, m.to) : null),
    }),
    allocations: t.field({
      type: [ProviderResources],
      description: 'Its allocations at the destination (empty when it cannot move).',
      resolve: (m) => [...m.allocations],
    }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'Why it cannot move (null when it can).',
    }),
    candidateStage: t.field({
      type: CandidateStage,
      nullable: true,
      description:
        'How the allocation-candidate query narrowed the hosts, when no host had candidates for it.',
      resolve: (m) => m.candidateStage,
    }),
    weight: t.float({
      nullable: true,
      description: "The destination's total weight under the profile's weighers.",
      resolve: (m) => m.weight,
    }),
  }),
});

const DrainPlan = builder.objectRef<DrainPlanRecord>('DrainPlan').implement({
  ...cloud,
  description:
    'A drain plan: each consumer of the drained hosts, largest first, with its destination or why it cannot move; no destination is booked twice.',
  fields: (t) => ({
    hosts: t.field({
      type: [ResourceProvider],
      description: 'The drained hosts.',
      resolve: (p, _a, ctx) => Promise.all(p.hosts.map((h) => providerOrThrow(ctx, h))),
    }),
    moves: t.field({
      type: [DrainMove],
      description:
        "One per consumer, in the order they were planned (a project-scoped token sees its project's only).",
      resolve: (p, _a, ctx) => visibleTo(ctx, p.moves, (m) => m.projectId),
    }),
    movable: t.exposeInt('movable', { description: 'Consumers with a destination.' }),
    unmovable: t.exposeInt('unmovable', { description: 'Consumers that cannot move.' }),
    reserved: t.exposeBoolean('reserved', {
      description: 'True when the destinations were claimed as moves (reserveDrainPlan).',
    }),
    durationMs: t.exposeFloat('durationMs', { description: 'Time taken, in milliseconds.' }),
  }),
});

function drainDeps(ctx: Context): DrainDeps {
  return {
    ds: ctx.services.dataSource,
    providers: ctx.services.providers,
    planning: ctx.scheduling.planning,
    pipelineFor: (profile) => ctx.scheduling.pipelines.pipelineFor(profile),
    claims: ctx.scheduling.moves,
  };
}

function toInput(input: {
  hosts: readonly (string | number)[];
  profile?: string | null;
  candidateLimit?: number | null;
}) {
  return {
    hosts: input.hosts.map(String),
    profile: input.profile ?? 'default',
    ...(input.candidateLimit == null ? {} : { candidateLimit: input.candidateLimit }),
  };
}

builder.queryField('drainPlan', (t) =>
  t.field({
    type: DrainPlan,
    description:
      'Where every consumer of these hosts would go (maintenance, evacuation) under the profile: capacity, filters, server-group policies and the other consumers of the plan respected. Writes nothing.',
    args: {
      input: t.arg({ type: DrainPlanInput, required: true, description: 'The hosts to drain.' }),
    },
    resolve: (_r, args, ctx) => planDrain(drainDeps(ctx), toInput(args.input)),
  }),
);

builder.mutationField('reserveDrainPlan', (t) =>
  t.field({
    type: DrainPlan,
    description:
      'Plans the drain as drainPlan does, then claims each destination as a move, consumer by consumer (a refused claim is planned once more; moves claimed stay claimed). Nova migrates; confirmMove / revertMove end each move.',
    args: {
      input: t.arg({ type: DrainPlanInput, required: true, description: 'The hosts to drain.' }),
    },
    resolve: async (_r, args, ctx) => {
      const plan = await reserveDrain(drainDeps(ctx), toInput(args.input));
      ctx.loaders.clearAll();
      return plan;
    },
  }),
);
