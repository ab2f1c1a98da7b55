// GraphQL: what scheduler plugins did to a request, as typed objects — request amendments made
// before the candidate query, hosts filters rejected (one by one and grouped by reason code), and
// plugin failures the pipeline isolated (src/scheduler/runtime/explanation.ts, reason-groups.ts).
import type {
  AmendStep,
  PluginFailure as PluginFailureRecord,
  Rejection as RejectionRecord,
} from '../src/scheduler/runtime/explanation';
import type { RejectionGroup as RejectionGroupRecord } from '../src/scheduler/runtime/reason-groups';
import { part } from './access';
import { providerOrThrow } from './allocation-candidate';
import { builder } from './builder';
import { ResourceProvider } from './resource-provider';

export const Rejection = builder.objectRef<RejectionRecord>('Rejection').implement({
  ...part,
  description: 'A host a filter removed, and why.',
  fields: (t) => ({
    host: t.field({
      description: 'The host removed.',
      type: ResourceProvider,
      resolve: (r, _a, ctx) => providerOrThrow(ctx, r.host),
    }),
    reason: t.exposeString('reason', {
      description:
        "Why the filter removed it: the filter's message, which may carry this host's figures.",
    }),
    code: t.exposeString('code', {
      description:
        "The stable cause, lowercase dotted (`ram.insufficient`): the filter's code, its default (the filter's name in snake case, `ram_filter`) when it gave none, or `plugin.failed_closed`.",
    }),
  }),
});

export const RejectionGroup = builder.objectRef<RejectionGroupRecord>('RejectionGroup').implement({
  ...part,
  description: "One filter's rejections that share a reason code.",
  fields: (t) => ({
    code: t.exposeString('code', { description: 'The reason code they share.' }),
    count: t.exposeInt('count', { description: 'How many hosts were rejected with it.' }),
    message: t.exposeString('message', { description: "The first rejection's reason." }),
    examples: t.field({
      description: 'The first rejections with this code (at most 3), in host order.',
      type: [Rejection],
      resolve: (g) => [...g.examples],
    }),
  }),
});

const PluginPhase = builder.enumType('PluginPhase', {
  description: 'The plugin hook that was running.',
  values: {
    AMEND_REQUEST: {
      value: 'amendRequest',
      description: 'Editing the request before the candidate query.',
    },
    PREPARE: { value: 'prepare', description: "A filter's once-per-request preparation." },
    FILTER: { value: 'filter', description: 'Judging one host.' },
    WEIGH: { value: 'weigh', description: 'Weighing one host.' },
  } as const,
});

const PluginFailureCause = builder.enumType('PluginFailureCause', {
  description: 'Why a plugin call failed.',
  values: {
    ERROR: { value: 'error', description: 'It threw or rejected.' },
    TIMEOUT: { value: 'timeout', description: 'It overran its time budget.' },
    INVALID_RESULT: { value: 'invalid-result', description: 'It returned something malformed.' },
  } as const,
});

const PluginFailurePolicy = builder.enumType('PluginFailurePolicy', {
  description: 'What the pipeline did about the failure.',
  values: {
    OPEN: { value: 'open', description: 'The filter was treated as passing.' },
    CLOSED: { value: 'closed', description: 'The filter was treated as rejecting.' },
    DROPPED: { value: 'dropped', description: "The weigher's weight was left out." },
  } as const,
});

/** GraphQL PluginFailure. */
export const PluginFailure = builder.objectRef<PluginFailureRecord>('PluginFailure').implement({
  ...part,
  description: 'A plugin call that failed and was isolated: the request was still answered.',
  fields: (t) => ({
    plugin: t.exposeString('plugin', { description: "The plugin's name." }),
    phase: t.field({
      description: 'The hook that failed.',
      type: PluginPhase,
      resolve: (f) => f.phase,
    }),
    cause: t.field({ description: 'Why.', type: PluginFailureCause, resolve: (f) => f.cause }),
    policy: t.field({
      description: 'What the pipeline did about it.',
      type: PluginFailurePolicy,
      resolve: (f) => f.policy,
    }),
    message: t.exposeString('message', { description: 'The error message or what was wrong.' }),
    hostUuid: t.id({
      description: 'The root provider being looked at when it failed, if any.',
      nullable: true,
      resolve: (f) => f.host ?? null,
    }),
  }),
});

/** GraphQL RequestAmendment. */
export const RequestAmendment = builder.objectRef<AmendStep>('RequestAmendment').implement({
  ...part,
  description:
    "One plugin's pre-candidate hook: the constraints it added to the request (all empty when it added none).",
  fields: (t) => ({
    plugin: t.exposeString('plugin', { description: "The plugin's name." }),
    memberOf: t.field({
      description: 'Any-of aggregate sets added, ANDed (member_of=in:a,b).',
      type: t.listRef(t.listRef('ID')),
      resolve: (s) => (s.amendment?.memberOf ?? []).map((set) => [...set]),
    }),
    forbiddenAggregates: t.idList({
      description: 'Aggregates no provider of the tree may belong to.',
      resolve: (s) => [...(s.amendment?.forbiddenAggregates ?? [])],
    }),
    rootRequiredTraits: t.field({
      description: 'Any-of trait sets the root provider must have, ANDed.',
      type: t.listRef(t.listRef('String')),
      resolve: (s) => (s.amendment?.rootRequiredTraits ?? []).map((set) => [...set]),
    }),
    rootForbiddenTraits: t.stringList({
      description: 'Traits the root provider must not have.',
      resolve: (s) => [...(s.amendment?.rootForbiddenTraits ?? [])],
    }),
    unsatisfiable: t.string({
      description: 'Set when the plugin decided nothing can satisfy the request, and why.',
      nullable: true,
      resolve: (s) => s.amendment?.unsatisfiable ?? null,
    }),
    note: t.string({
      description: "The plugin's own note, if any.",
      nullable: true,
      resolve: (s) => s.amendment?.note ?? null,
    }),
    failure: t.field({
      description: 'Set when the hook failed (its amendment was then not applied).',
      type: PluginFailure,
      nullable: true,
      resolve: (s) => s.failure ?? null,
    }),
  }),
});
