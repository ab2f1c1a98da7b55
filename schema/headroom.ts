// GraphQL: headroom and planningFlavors — how many more instances of each flavor fit, counted on
// a private planning view of the cloud (src/planning/headroom-run.ts does the work).
import type {
  FlavorHeadroom as FlavorHeadroomRecord,
  HeadroomCount,
  HeadroomGroupBy as HeadroomGroupByValue,
  HeadroomGroup as HeadroomGroupRecord,
  HeadroomLimit as HeadroomLimitRecord,
} from '../src/planning/headroom';
import { type HeadroomAnswer, headroom, planningFlavors } from '../src/planning/headroom-run';
import { cloud, part } from './access';
import { KeyValueInput } from './aggregate';
import {
  AllocationCandidatesRequest,
  ResourceAmount,
  toCandidateRequestOrThrow,
} from './allocation-candidate';
import { builder, type PothosTypes } from './builder';

const HeadroomGroupBy = builder.enumType('HeadroomGroupBy', {
  description: 'How headroom is grouped besides cloud-wide.',
  values: {
    NONE: { description: 'Cloud-wide only.' },
    AGGREGATE: {
      description: "Per aggregate the host's root provider is in (a host in two counts in both).",
    },
    ZONE: {
      description:
        "Per availability zone (aggregate metadata `availability_zone`; hosts in none are in AvailabilityZoneFilter's default zone).",
    },
    ROOT: { description: 'Per host (root provider).' },
  } as const,
});

const PlanningFlavorInput = builder.inputType('PlanningFlavorInput', {
  description: 'A flavor to count: what one instance asks for, as schedule would be asked.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'The flavor name, e.g. `m1.large`.' }),
    request: t.field({
      type: AllocationCandidatesRequest,
      required: true,
      description: 'What one instance needs (limit and randomize are ignored).',
    }),
    extraSpecs: t.field({
      type: [KeyValueInput],
      required: false,
      description: 'Flavor extra specs, as ScheduleInput.extraSpecs.',
    }),
    availabilityZone: t.string({
      required: false,
      description: 'Place in this availability zone, as ScheduleInput.availabilityZone.',
    }),
  }),
});

const HeadroomInput = builder.inputType('HeadroomInput', {
  description: 'A headroom question.',
  fields: (t) => ({
    flavors: t.field({
      type: [PlanningFlavorInput],
      required: false,
      description: 'The flavors to count (1 to 50); absent: the configured planning flavors.',
    }),
    profile: t.string({
      required: false,
      defaultValue: 'default',
      description: 'The scheduler profile whose filters decide (schedulerProfiles).',
    }),
    groupBy: t.field({
      type: HeadroomGroupBy,
      required: false,
      defaultValue: 'NONE',
      description: 'How counts are grouped besides cloud-wide.',
    }),
    projectId: t.string({
      required: false,
      description: 'The project filters see (default `headroom`).',
    }),
  }),
});

const PlanningFlavor = builder
  .objectRef<ReturnType<typeof planningFlavors>[number]>('PlanningFlavor')
  .implement({
    ...cloud,
    description:
      "A configured planning flavor (BERTH_PLANNING_FLAVORS, or Nova's classic m1.* set): what headroom counts when no flavor is given.",
    fields: (t) => ({
      name: t.exposeString('name', { description: 'The flavor name.' }),
      resources: t.field({
        type: [ResourceAmount],
        description: 'What one instance asks for.',
        resolve: (f) =>
          Object.entries(f.resources).map(([resourceClass, amount]) => ({ resourceClass, amount })),
      }),
      required: t.stringList({
        description: 'Traits the host must have.',
        resolve: (f) => [...f.required],
      }),
    }),
  });

const HeadroomLimit = builder.objectRef<HeadroomLimitRecord>('HeadroomLimit').implement({
  ...part,
  description: 'Hosts whose room for the flavor ended on one constraint.',
  fields: (t) => ({
    by: t.exposeString('by', {
      description:
        "A resource class (its free capacity ran out), a filter's reason code (e.g. `num_instances.too_many`), or a `candidate.*` code / `not_a_candidate` for hosts the engine never offers for this flavor.",
    }),
    hosts: t.exposeInt('hosts', { description: 'How many hosts.' }),
  }),
});

/** The fields FlavorHeadroom and HeadroomGroup share. */
const countFields = (
  t: PothosSchemaTypes.ObjectFieldBuilder<
    PothosSchemaTypes.ExtendDefaultTypes<PothosTypes>,
    HeadroomCount
  >,
) => ({
  count: t.exposeInt('count', {
    description: 'Instances that still fit, packed as Headroom.packing says.',
  }),
  independentCount: t.exposeInt('independentCount', {
    description:
      'Instances that fit if each host were filled alone from the current state (differs from count only where hosts share a provider: an upper bound).',
  }),
  hosts: t.exposeInt('hosts', { description: 'Hosts counted.' }),
  hostsWithRoom: t.exposeInt('hostsWithRoom', {
    description: 'Hosts that take at least one more.',
  }),
  runsOutFirst: t.string({
    nullable: true,
    description:
      'The limit of the most hosts among those with room (of all hosts when none has room): what runs out first as the flavor fills. Null without hosts.',
    resolve: (c) => c.runsOutFirst,
  }),
  limits: t.field({
    type: [HeadroomLimit],
    description: "Every host's limit (what ended its room), most hosts first.",
    resolve: (c) => [...c.limits],
  }),
});

const HeadroomGroup = builder.objectRef<HeadroomGroupRecord>('HeadroomGroup').implement({
  ...part,
  description: "One group's headroom: an aggregate, an availability zone or a host.",
  fields: (t) => ({
    key: t.exposeString('key', {
      description: 'The aggregate uuid, zone name or root provider uuid.',
    }),
    name: t.string({
      nullable: true,
      description: 'The aggregate or host name (null for zones and unnamed aggregates).',
      resolve: (g) => g.name,
    }),
    ...countFields(t),
  }),
});

const FlavorHeadroom = builder.objectRef<FlavorHeadroomRecord>('FlavorHeadroom').implement({
  ...part,
  description: "One flavor's headroom, cloud-wide and per group.",
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The flavor name.' }),
    ...countFields(t),
    groups: t.field({
      type: [HeadroomGroup],
      description: 'Per group (empty for groupBy NONE).',
      resolve: (f) => [...f.groups],
    }),
  }),
});

const Headroom = builder.objectRef<HeadroomAnswer>('Headroom').implement({
  ...cloud,
  description: 'How many more instances of each flavor can still be placed (docs/planning.md).',
  fields: (t) => ({
    profile: t.exposeString('profile', { description: 'The profile whose filters decided.' }),
    packing: t.exposeString('packing', { description: 'The packing rule used, in one sentence.' }),
    hosts: t.exposeInt('hosts', { description: 'Hosts in the cloud.' }),
    flavors: t.field({
      type: [FlavorHeadroom],
      description: 'One entry per flavor, in the order asked.',
      resolve: (h) => [...h.flavors],
    }),
    durationMs: t.exposeFloat('durationMs', { description: 'Time spent counting, in ms.' }),
  }),
});

builder.queryField('headroom', (t) =>
  t.field({
    type: Headroom,
    description:
      "How many more instances of each flavor fit, under Placement's rules and a profile's filters, cloud-wide and per group (nothing is claimed).",
    args: {
      input: t.arg({ type: HeadroomInput, required: true, description: 'The question.' }),
    },
    resolve: (_r, { input }, ctx) =>
      headroom(
        { planning: ctx.scheduling.planning, pipelines: ctx.scheduling.pipelines },
        {
          ...(input.flavors
            ? {
                flavors: input.flavors.map((f) => ({
                  name: f.name,
                  request: toCandidateRequestOrThrow(f.request),
                  extraSpecs: Object.fromEntries(
                    (f.extraSpecs ?? []).map((kv) => [kv.key, kv.value]),
                  ),
                  ...(f.availabilityZone ? { availabilityZone: f.availabilityZone } : {}),
                })),
              }
            : {}),
          ...(input.profile ? { profile: input.profile } : {}),
          groupBy: (input.groupBy ?? 'NONE').toLowerCase() as HeadroomGroupByValue,
          ...(input.projectId ? { projectId: input.projectId } : {}),
        },
      ),
  }),
);

builder.queryField('planningFlavors', (t) =>
  t.field({
    type: [PlanningFlavor],
    description:
      'The flavors headroom counts when none is given (BERTH_PLANNING_FLAVORS, or m1.tiny … m1.xlarge).',
    resolve: (_r, _a, ctx) => [...planningFlavors(ctx.scheduling.planning)],
  }),
);
