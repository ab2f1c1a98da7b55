// GraphQL: Schedule.candidateStage — "why no allocation candidates?" for explainPlacement and a
// schedule that found none (src/placement/allocation-candidates/candidate-stage.ts).
import type {
  CandidateMiss as CandidateMissRecord,
  CandidateStageConstraint,
  CandidateStage as CandidateStageRecord,
  ClosestMiss as ClosestMissRecord,
} from '../src/placement/allocation-candidates/candidate-stage';
import { part } from './access';
import { providerOrThrow } from './allocation-candidate';
import { builder } from './builder';
import { ResourceProvider } from './resource-provider';
import { Schedule } from './schedule';

const CandidateConstraintKind = builder.enumType('CandidateConstraintKind', {
  description: 'What a constraint of an allocation-candidate request is about.',
  values: {
    RESOURCE_CAPACITY: {
      description: 'A resource class amount: some provider has that much free capacity.',
    },
    RESOURCE_UNITS: {
      description:
        "A resource class amount within an inventory's min_unit, max_unit and step_size.",
    },
    REQUIRED_TRAITS: { description: 'A required trait (or any of several: `in:A,B`).' },
    FORBIDDEN_TRAITS: { description: "The group's forbidden traits (`!T`)." },
    MEMBER_OF: { description: 'A member_of term (any of its aggregates).' },
    FORBIDDEN_AGGREGATES: {
      description:
        "The group's forbidden aggregates (`member_of=!a`, including those scheduler plugins push in).",
    },
    IN_TREE: { description: "The group's in_tree provider." },
    GROUP_TOGETHER: {
      description:
        "A group's constraints all at once (a granular group's on one provider), or every group at once.",
    },
    ROOT_REQUIRED: { description: 'A root_required trait (on the root of the tree).' },
    ROOT_FORBIDDEN: { description: 'The forbidden root_required traits (`!T`).' },
    SAME_SUBTREE: { description: 'same_subtree: the groups under one subtree.' },
    ISOLATE: { description: 'group_policy=isolate: granular groups on distinct providers.' },
  } as const,
});

const CandidateConstraint = builder
  .objectRef<CandidateStageConstraint>('CandidateConstraint')
  .implement({
    ...part,
    description: 'One constraint of the request and how many hosts it keeps.',
    fields: (t) => ({
      kind: t.field({
        type: CandidateConstraintKind,
        description: 'What it is about.',
        resolve: (c) => c.kind,
      }),
      code: t.exposeString('code', {
        description: 'Stable reason code (e.g. `candidate.resource.capacity`).',
      }),
      group: t.string({
        nullable: true,
        description:
          "The request group it belongs to ('' = the unsuffixed group); null for a request-wide constraint.",
        resolve: (c) => c.group,
      }),
      label: t.exposeString('label', {
        description: 'The constraint for people, e.g. `MEMORY_MB: 600000`.',
      }),
      resourceClass: t.string({
        nullable: true,
        description: 'The resource class of a RESOURCE_* constraint.',
        resolve: (c) => c.resourceClass ?? null,
      }),
      amount: t.field({
        type: 'SafeInt',
        nullable: true,
        description: 'The amount asked of a RESOURCE_* constraint.',
        resolve: (c) => c.amount ?? null,
      }),
      hostsAlone: t.exposeInt('hostsAlone', {
        description: 'Hosts that meet this constraint, ignoring every other.',
      }),
      hostsAfter: t.exposeInt('hostsAfter', {
        description: 'Hosts that meet this constraint and every one listed before it.',
      }),
    }),
  });

const CandidateMiss = builder.objectRef<CandidateMissRecord>('CandidateMiss').implement({
  ...part,
  description: 'A constraint a host misses, and what it lacks.',
  fields: (t) => ({
    kind: t.field({
      type: CandidateConstraintKind,
      description: 'What the constraint is about.',
      resolve: (m) => m.kind,
    }),
    code: t.exposeString('code', { description: 'Stable reason code.' }),
    label: t.exposeString('label', { description: 'The constraint (as in `constraints`).' }),
    message: t.exposeString('message', {
      description: 'What the host lacks, e.g. `MEMORY_MB 600000 requested, 512000 free`.',
    }),
  }),
});

const ClosestMiss = builder.objectRef<ClosestMissRecord>('ClosestMiss').implement({
  ...part,
  description: 'A host that fails few constraints of the request.',
  fields: (t) => ({
    host: t.field({
      type: ResourceProvider,
      description: "The host's root provider.",
      resolve: (m, _a, ctx) => providerOrThrow(ctx, m.hostUuid),
    }),
    misses: t.field({
      type: [CandidateMiss],
      description: 'The constraints it fails, in request order.',
      resolve: (m) => [...m.misses],
    }),
  }),
});

/** GraphQL CandidateStage (also a simulated placement's, schema/simulation.ts). */
export const CandidateStage = builder.objectRef<CandidateStageRecord>('CandidateStage').implement({
  ...part,
  description:
    'How the allocation-candidate query narrowed the hosts: each constraint of the request (as scheduler plugins amended it) alone and in order, and the hosts that miss by the fewest constraints.',
  fields: (t) => ({
    hostsTotal: t.exposeInt('hostsTotal', {
      description: 'Hosts in the cloud (root providers that are not sharing providers).',
    }),
    hostsWithCandidates: t.exposeInt('hostsWithCandidates', {
      description: 'Hosts the allocation-candidate query returned (handed to the filters).',
    }),
    constraints: t.field({
      type: [CandidateConstraint],
      description:
        "The request's constraints in order: per group its resources (capacity, then units), traits, aggregates, in_tree and all of the group at once; then the request-wide ones. A last row appears when the constraints are met only separately.",
      resolve: (s) => [...s.constraints],
    }),
    blocking: t.field({
      type: [CandidateConstraint],
      description: 'Constraints that alone keep no host: each one explains zero candidates.',
      resolve: (s) => [...s.blocking],
    }),
    closestMisses: t.field({
      type: [ClosestMiss],
      description:
        'When no host has candidates: the hosts failing the fewest constraints (at most 10), closest first (for capacity, the most free).',
      resolve: (s) => [...s.closestMisses],
    }),
    summary: t.exposeString('summary', { description: 'One line for logs and people.' }),
  }),
});

builder.objectField(Schedule, 'candidateStage', (t) =>
  t.field({
    type: CandidateStage,
    nullable: true,
    description:
      'How the allocation-candidate query narrowed the hosts: always for explainPlacement, for schedule when no host had candidates; null otherwise and when a plugin declared the request unsatisfiable first.',
    resolve: (s) => (s.candidateStage ? s.candidateStage() : null),
  }),
);
