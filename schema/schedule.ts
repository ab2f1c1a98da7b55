// GraphQL: explainPlacement, schedule and schedulerPlugins — the scheduling pipeline over
// allocation candidates (Nova: scheduler/manager.py select_destinations).

import type { Scheduling } from '../src/app/scheduling';
import { assertConsumerTypeOrThrow } from '../src/placement/consumer';
import { BadRequestError, ErrorCode } from '../src/placement/errors';
import { normalizeUuidOrThrow } from '../src/placement/uuid';
import type { RankedHost as RankedHostRecord } from '../src/scheduler/runtime/explanation';
import { groupRejections } from '../src/scheduler/runtime/reason-groups';
import type { PluginInfo } from '../src/scheduler/runtime/registry';
import type {
  ScheduleOutcome,
  Selection as SelectionRecord,
} from '../src/scheduler/scheduling-service';
import { cloud, part } from './access';
import { KeyValueInput } from './aggregate';
import {
  AllocationCandidatesRequest,
  ProviderResources,
  providerOrThrow,
  toCandidateRequestOrThrow,
} from './allocation-candidate';
import { builder } from './builder';
import { PluginFailure, Rejection, RejectionGroup, RequestAmendment } from './plugin-report';
import { ResourceProvider } from './resource-provider';
import { hintsOrThrow, SchedulerHintInput } from './scheduler-hints';

/** GraphQL ScheduleInput (also the requests of a simulation trace). */
export const ScheduleInput = builder.inputType('ScheduleInput', {
  description:
    'A scheduling request: the Placement part, the flavor-like part read by filters, and who consumes.',
  fields: (t) => ({
    consumerUuids: t.idList({
      required: true,
      description: 'One consumer per instance to place (multi-create).',
    }),
    projectId: t.string({
      description: "The consumers' project (quota and project scope apply).",
      required: true,
    }),
    userId: t.string({ description: "The consumers' user.", required: true }),
    consumerType: t.string({
      description: "The consumers' type (INSTANCE when absent).",
      required: false,
    }),
    request: t.field({
      description: 'What each consumer needs.',
      type: AllocationCandidatesRequest,
      required: true,
    }),
    extraSpecs: t.field({
      type: [KeyValueInput],
      required: false,
      description:
        'Flavor extra specs, read by AggregateInstanceExtraSpecsFilter / AggregateInstanceTypeFilter.',
    }),
    filters: t.stringList({
      required: false,
      description:
        'Overrides the configured filter order for this request (names as in schedulerPlugins).',
    }),
    profile: t.string({
      required: false,
      defaultValue: 'default',
      description:
        'The scheduler profile to run (schedulerProfiles; operators define them in BERTH_SCHEDULER_PROFILES).',
    }),
    hints: t.field({
      type: [SchedulerHintInput],
      required: false,
      description:
        'Scheduler hints for filters and weighers (Nova `os:scheduler_hints`); each key at most once.',
    }),
    availabilityZone: t.string({
      required: false,
      description:
        'Place in this availability zone (aggregate metadata `availability_zone`; read by AvailabilityZoneFilter).',
    }),
    sameHost: t.idList({
      required: false,
      description:
        'Place on a host running one of these instances (hint `same_host`, read by SameHostFilter).',
    }),
    differentHost: t.idList({
      required: false,
      description:
        'Place on a host running none of these instances (hint `different_host`, read by DifferentHostFilter).',
    }),
    group: t.id({
      required: false,
      description:
        "The server group the consumers join (hint `group`): its policy is read by the ServerGroup* filters and weighers, and schedule enforces affinity / anti-affinity when it claims. The group must be the request's project's.",
    }),
  }),
});

const Selection = builder.objectRef<SelectionRecord>('Selection').implement({
  ...part,
  description: 'Where one consumer was placed.',
  fields: (t) => ({
    consumerUuid: t.exposeID('consumerUuid', { description: 'The consumer placed.' }),
    host: t.field({
      type: ResourceProvider,
      nullable: true,
      description:
        "The chosen host's root provider (null when none). After `schedule`, as this consumer's claim left it: in a multi-create, a later claim on the same host bumps its generation again.",
      resolve: (s, _a, ctx) => s.host ?? (s.hostUuid ? providerOrThrow(ctx, s.hostUuid) : null),
    }),
    allocations: t.field({
      description: 'What was claimed, per provider (empty when no host fitted).',
      type: [ProviderResources],
      resolve: (s) => [...s.allocations],
    }),
    reason: t.string({
      nullable: true,
      description: 'Why no host was chosen (null on success).',
      resolve: (s) => s.reason,
    }),
  }),
});

const FilterStep = builder
  .objectRef<ScheduleOutcome['explanation']['filters'][number]>('FilterStep')
  .implement({
    ...part,
    description: 'What one filter did.',
    fields: (t) => ({
      filter: t.string({ description: "The filter's name.", resolve: (f) => f.plugin }),
      before: t.exposeInt('before', { description: 'Hosts before it.' }),
      after: t.exposeInt('after', { description: 'Hosts after it.' }),
      rejections: t.field({
        description: 'The hosts it removed, and why.',
        type: [Rejection],
        resolve: (f) => [...f.rejections],
      }),
      reasonGroups: t.field({
        description:
          'Its rejections grouped by reason code: largest group first, then by code (twenty hosts short of RAM are one group of twenty).',
        type: [RejectionGroup],
        resolve: (f) => groupRejections(f.rejections),
      }),
      durationMs: t.float({ description: 'Time it took.', resolve: (f) => f.durationMs }),
      failure: t.string({
        nullable: true,
        description:
          'Set when the plugin threw or ran out of time (it was isolated per its failure policy).',
        resolve: (f) => (f.failure ? `${f.failure.phase}: ${f.failure.message}` : null),
      }),
    }),
  });

const WeigherScore = builder
  .objectRef<RankedHostRecord['components'][number]>('WeigherScore')
  .implement({
    ...part,
    description: "One weigher's contribution to a host's weight.",
    fields: (t) => ({
      weigher: t.exposeString('weigher', { description: "The weigher's name." }),
      raw: t.exposeFloat('raw', { description: 'Its raw score for the host.' }),
      normalized: t.float({
        description: 'The score normalised to 0..1 across hosts.',
        resolve: (w) => w.normalised,
      }),
      multiplier: t.exposeFloat('multiplier', { description: 'Its configured multiplier.' }),
    }),
  });

const RankedHost = builder.objectRef<RankedHostRecord>('RankedHost').implement({
  ...part,
  description: 'A host in the final order, with its weights.',
  fields: (t) => ({
    host: t.field({
      description: 'The host.',
      type: ResourceProvider,
      resolve: (r, _a, ctx) => providerOrThrow(ctx, r.host.uuid),
    }),
    weight: t.exposeFloat('weight', { description: 'Its total weight (higher ranks first).' }),
    weights: t.field({
      description: "Each weigher's contribution.",
      type: [WeigherScore],
      resolve: (r) => [...r.components],
    }),
  }),
});

export const Schedule = builder.objectRef<ScheduleOutcome>('Schedule').implement({
  ...cloud,
  description: 'The outcome of a scheduling run: selections, and how they were reached.',
  fields: (t) => ({
    profile: t.string({
      description: 'The scheduler profile that ran.',
      resolve: (s) => s.explanation.profile ?? 'default',
    }),
    selections: t.field({
      description: 'One per consumer, in request order.',
      type: [Selection],
      resolve: (s) => [...s.selections],
    }),
    filterSteps: t.field({
      description: 'What each filter did.',
      type: [FilterStep],
      resolve: (s) => [...s.explanation.filters],
    }),
    ranking: t.field({
      description: 'The hosts left, best first.',
      type: [RankedHost],
      resolve: (s) => [...s.ranking],
    }),
    requestAmendments: t.field({
      description:
        'Pre-candidate request changes made by plugins (e.g. forbidden aggregates), in pipeline order.',
      type: [RequestAmendment],
      resolve: (s) => [...s.explanation.amendments],
    }),
    pluginFailures: t.field({
      description: 'Plugin calls that failed and were isolated (the request was still answered).',
      type: [PluginFailure],
      resolve: (s) => [...s.explanation.failures],
    }),
    amendments: t.stringList({
      description: 'Pre-candidate request changes made by plugins, one line of text each.',
      deprecationReason: 'Use requestAmendments (typed fields instead of JSON inside a string).',
      resolve: (s) => s.explanation.amendments.map((a) => `${a.plugin}: ${JSON.stringify(a)}`),
    }),
    failures: t.stringList({
      description: 'Isolated plugin failures, one line of text each.',
      deprecationReason: 'Use pluginFailures (typed fields).',
      resolve: (s) => s.explanation.failures.map((f) => `${f.plugin} (${f.phase}): ${f.message}`),
    }),
  }),
});

type ScheduleArgs = typeof ScheduleInput.$inferInput;

/**
 * The scheduling request of a ScheduleInput (also a simulation trace's requests, schema/simulation.ts).
 * @throws BadRequestError for no consumer, a bad consumer type, uuid, request or hint.
 */
export function toScheduleRequest(input: ScheduleArgs) {
  if (input.consumerUuids.length === 0) {
    throw new BadRequestError(
      'consumerUuids must name at least one consumer.',
      ErrorCode.INVALID_INPUT,
    );
  }
  if (input.consumerType) {
    assertConsumerTypeOrThrow(input.consumerType);
  }
  const extraSpecs: Record<string, string> = {};
  for (const kv of input.extraSpecs ?? []) {
    extraSpecs[kv.key] = kv.value;
  }
  return {
    consumerUuids: input.consumerUuids.map((u) => normalizeUuidOrThrow(String(u), 'consumer uuid')),
    projectId: input.projectId,
    userId: input.userId,
    ...(input.consumerType ? { consumerType: input.consumerType } : {}),
    request: toCandidateRequestOrThrow(input.request),
    extraSpecs,
    hints: hintsOrThrow(input),
    ...(input.availabilityZone ? { availabilityZone: input.availabilityZone } : {}),
    ...(input.filters ? { filters: input.filters } : {}),
    ...(input.profile ? { profile: input.profile } : {}),
  };
}

builder.queryField('explainPlacement', (t) =>
  t.field({
    type: Schedule,
    description:
      'Runs the scheduling pipeline without claiming anything: candidates, filters, weighers, ranking, and why each provider tree was rejected.',
    args: {
      input: t.arg({
        type: ScheduleInput,
        required: true,
        description: 'The request to explain (nothing is claimed).',
      }),
    },
    resolve: (_r, args, ctx) => ctx.scheduling.service.explain(toScheduleRequest(args.input)),
  }),
);

builder.mutationField('schedule', (t) =>
  t.field({
    type: Schedule,
    description:
      'Runs the scheduling pipeline and claims the chosen allocation for each consumer, retrying on concurrent updates.',
    args: {
      input: t.arg({
        type: ScheduleInput,
        required: true,
        description: 'The request to place and claim.',
      }),
    },
    resolve: async (_r, args, ctx) => {
      const out = await ctx.scheduling.service.schedule(toScheduleRequest(args.input));
      ctx.loaders.clearAll();
      return out;
    },
  }),
);

const PluginKind = builder.enumType('PluginKind', {
  description: "A scheduler plugin's role.",
  values: {
    FILTER: { description: 'Removes hosts that do not fit.' },
    WEIGHER: { description: 'Scores hosts; the highest total wins.' },
  } as const,
});

/** A plugin as `schedulerPlugins` (and `reloadScheduler`) list it. */
export const SchedulerPlugin = builder
  .objectRef<PluginInfo & { config: unknown }>('SchedulerPlugin')
  .implement({
    ...cloud,
    description: 'A filter or weigher this replica knows.',
    fields: (t) => ({
      name: t.exposeString('name', { description: "The plugin's NAME." }),
      kind: t.field({
        description: 'Filter or weigher.',
        type: PluginKind,
        resolve: (p) => (p.kind === 'filter' ? 'FILTER' : 'WEIGHER'),
      }),
      enabled: t.boolean({
        description: "True when it runs in this replica's pipeline.",
        resolve: (p) => p.position !== null,
      }),
      position: t.int({
        description: 'Its place in the pipeline (null when disabled).',
        nullable: true,
        resolve: (p) => p.position,
      }),
      source: t.string({
        description: "'builtin' or the operator plugin's file.",
        resolve: (p) => p.source,
      }),
      config: t.field({
        description: 'Its configuration (BERTH_SCHEDULER_CONFIG), or null.',
        type: 'JSON',
        nullable: true,
        resolve: (p) => p.config ?? null,
      }),
    }),
  });

builder.queryField('schedulerPlugins', (t) =>
  t.field({
    type: [SchedulerPlugin],
    description:
      'Enabled filters and weighers, in pipeline order, then the registered but disabled ones.',
    resolve: (_r, _a, ctx) => schedulerPluginList(ctx.scheduling),
  }),
);

/** The default profile's plugins in pipeline order, then the disabled ones. */
export function schedulerPluginList(scheduling: Scheduling) {
  const cfg = scheduling.config.plugins ?? {};
  return scheduling
    .plugins()
    .map((p) => ({ ...p, config: cfg[p.name] ?? null }))
    .sort((a, b) =>
      a.kind === b.kind ? (a.position ?? 1e9) - (b.position ?? 1e9) : a.kind === 'filter' ? -1 : 1,
    );
}
