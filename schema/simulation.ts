// GraphQL: simulate — a what-if simulation of a trace of scheduling requests under a running
// profile or a pipeline of the caller's own, and optionally under a second configuration with a
// diff (src/planning/simulation.ts). Nothing is written. A reader may run the running profiles
// on a trace they give; a pipeline of their own and a trace from the audit trail are admin-only
// (src/auth/roles.ts ADMIN_ONLY_ARGUMENTS).
import { BadRequestError, ErrorCode } from '../src/placement/errors';
import type { PipelineOverrides, SimulationConfiguration } from '../src/planning/pipeline-config';
import { simulationPipeline } from '../src/planning/pipeline-config';
import { PlanningView } from '../src/planning/planning-view';
import {
  type SimulationDiffEntry as DiffEntryRecord,
  type SimulationDiff as DiffRecord,
  type SimulatedPlacement as PlacementRecord,
  type SimulationResult as ResultRecord,
  type SimulationRun as RunRecord,
  simulate,
} from '../src/planning/simulation';
import type {
  SimulatedAggregateFill as AggregateFillRecord,
  SimulatedClassFill as ClassFillRecord,
  SimulationEndState as EndStateRecord,
  SimulatedHostFill as HostFillRecord,
} from '../src/planning/simulation-end-state';
import { traceFromAudit } from '../src/planning/trace-audit';
import { cloud, part } from './access';
import { ProviderResources, providerOrThrow } from './allocation-candidate';
import { builder } from './builder';
import { CandidateStage } from './candidate-stage';
import type { Context } from './context';
import { ResourceProvider } from './resource-provider';
import { ScheduleInput, toScheduleRequest } from './schedule';

const SimulationPipelineInput = builder.inputType('SimulationPipelineInput', {
  description:
    "A scheduler pipeline of the caller's own: a base profile and what replaces its settings (admin).",
  fields: (t) => ({
    profile: t.string({
      required: false,
      description: 'The base profile (default "default"); unset fields come from it.',
    }),
    filters: t.stringList({ required: false, description: 'Filter names, in run order.' }),
    weighers: t.stringList({ required: false, description: 'Weigher names.' }),
    plugins: t.string({
      required: false,
      description:
        "JSON text: per-plugin settings, as BERTH_SCHEDULER_CONFIG writes them, merged over the base profile's key by key.",
    }),
    hostSubsetSize: t.int({
      required: false,
      description: 'Hosts the final pick is drawn from (1 to 1000).',
    }),
    pluginDirs: t.stringList({
      required: false,
      description:
        'Directories on the server with plugins not yet deployed (loaded inline for this simulation; one of the same NAME replaces the running plugin).',
    }),
  }),
});

const SimulateInput = builder.inputType('SimulateInput', {
  description: 'A trace of scheduling requests and the configuration(s) to place it under.',
  fields: (t) => ({
    requests: t.field({
      type: [ScheduleInput],
      required: false,
      description: 'A hand-written trace, placed in order (each request as `schedule` takes it).',
    }),
    fromAudit: t.int({
      required: false,
      description:
        'Or: the last N schedule calls of the audit trail, rebuilt from what their consumers hold now (admin; docs/planning.md says what is kept).',
    }),
    profile: t.string({
      required: false,
      defaultValue: 'default',
      description: 'The running profile whose pipeline places the trace.',
    }),
    pipeline: t.field({
      type: SimulationPipelineInput,
      required: false,
      description: 'A pipeline of your own instead of the profile (admin).',
    }),
    compareProfile: t.string({
      required: false,
      description: 'Places the same trace again under this profile, and diffs the two runs.',
    }),
    comparePipeline: t.field({
      type: SimulationPipelineInput,
      required: false,
      description: 'Or under this pipeline (admin).',
    }),
    seed: t.int({
      required: false,
      defaultValue: 1,
      description:
        'Seeds tie-breaks between equal weights and the host-subset pick: same seed, same answer.',
    }),
  }),
});

const SimulatedFilterStep = builder
  .objectRef<PlacementRecord['funnel'][number]>('SimulatedFilterStep')
  .implement({
    ...part,
    description: "One filter's host counts for one simulated consumer.",
    fields: (t) => ({
      filter: t.exposeString('filter', { description: "The filter's name." }),
      before: t.exposeInt('before', { description: 'Hosts before it.' }),
      after: t.exposeInt('after', { description: 'Hosts after it.' }),
    }),
  });

const host = (uuid: string | null, ctx: Context) => (uuid ? providerOrThrow(ctx, uuid) : null);

const SimulatedPlacement = builder.objectRef<PlacementRecord>('SimulatedPlacement').implement({
  ...part,
  description: 'Where one consumer of the trace went, or why it did not.',
  fields: (t) => ({
    index: t.exposeInt('index', {
      description: 'Position of the consumer in the trace (0-based).',
    }),
    request: t.exposeInt('request', { description: 'Position of its request in the trace.' }),
    consumerUuid: t.exposeID('consumerUuid', { description: 'The simulated consumer.' }),
    host: t.field({
      type: ResourceProvider,
      nullable: true,
      description: 'The host (root provider) it was placed on; null when nothing fitted.',
      resolve: (p, _a, ctx) => host(p.host, ctx),
    }),
    allocations: t.field({
      type: [ProviderResources],
      description: 'What it would take, per provider (empty when not placed).',
      resolve: (p) => [...p.allocations],
    }),
    reason: t.string({
      nullable: true,
      description: 'Why it was not placed (null when it was).',
      resolve: (p) => p.reason,
    }),
    funnel: t.field({
      type: [SimulatedFilterStep],
      description: 'Hosts before and after each filter.',
      resolve: (p) => [...p.funnel],
    }),
    weight: t.float({
      nullable: true,
      description: "The chosen host's total weight.",
      resolve: (p) => p.weight,
    }),
    candidateStage: t.field({
      type: CandidateStage,
      nullable: true,
      description:
        'How the allocation-candidate query narrowed the hosts, when none had candidates.',
      resolve: (p) => p.candidateStage,
    }),
  }),
});

const SimulatedClassFill = builder.objectRef<ClassFillRecord>('SimulatedClassFill').implement({
  ...part,
  description: 'Capacity, usage and free capacity of one resource class.',
  fields: (t) => ({
    resourceClass: t.exposeString('resourceClass', { description: 'The resource class.' }),
    capacity: t.exposeFloat('capacity', { description: '(total - reserved) × allocation ratio.' }),
    used: t.exposeFloat('used', { description: 'Used, the trace included.' }),
    free: t.exposeFloat('free', { description: 'capacity - used (never below 0).' }),
    fraction: t.exposeFloat('fraction', { description: 'used / capacity (0 when no capacity).' }),
  }),
});

const SimulatedHostFill = builder.objectRef<HostFillRecord>('SimulatedHostFill').implement({
  ...part,
  description: 'A host the trace placed on, as the trace left it.',
  fields: (t) => ({
    host: t.field({
      type: ResourceProvider,
      description: 'The host (root provider).',
      resolve: (h, _a, ctx) => providerOrThrow(ctx, h.host),
    }),
    classes: t.field({
      type: [SimulatedClassFill],
      description: 'Its provider tree, per class.',
      resolve: (h) => [...h.classes],
    }),
    placed: t.exposeInt('placed', { description: 'Consumers of the trace placed on it.' }),
  }),
});

const SimulatedAggregateFill = builder
  .objectRef<AggregateFillRecord>('SimulatedAggregateFill')
  .implement({
    ...part,
    description: "An aggregate's fill: every provider tree with a member in it.",
    fields: (t) => ({
      uuid: t.exposeID('uuid', { description: 'The aggregate.' }),
      name: t.string({
        nullable: true,
        description: 'Its name, when it has one.',
        resolve: (a) => a.name,
      }),
      classes: t.field({
        type: [SimulatedClassFill],
        description: 'Per class.',
        resolve: (a) => [...a.classes],
      }),
    }),
  });

const SimulationEndState = builder.objectRef<EndStateRecord>('SimulationEndState').implement({
  ...part,
  description: 'What the trace left: fill and fragmentation (docs/planning.md defines them).',
  fields: (t) => ({
    classes: t.field({
      type: [SimulatedClassFill],
      description: 'Cloud-wide, per class.',
      resolve: (e) => [...e.classes],
    }),
    hosts: t.field({
      type: [SimulatedHostFill],
      description: 'Hosts the trace placed on, fullest first.',
      resolve: (e) => [...e.hosts],
    }),
    aggregates: t.field({
      type: [SimulatedAggregateFill],
      description: 'Per aggregate.',
      resolve: (e) => [...e.aggregates],
    }),
    largestFlavor: t.string({
      nullable: true,
      description: 'The trace\'s largest request, as "VCPU:8,MEMORY_MB:16384".',
      resolve: (e) => e.largestFlavor,
    }),
    largestFlavorFits: t.int({
      description: 'How many more of it fit at the end (headroom).',
      resolve: (e) => e.largestFlavorFits(),
    }),
    stranded: t.field({
      type: [SimulatedClassFill],
      description:
        'Hosts where not one more of the smallest request fits, per class: their capacity, usage and free capacity (free: what is stranded).',
      resolve: (e) => [...e.stranded],
    }),
  }),
});

const SimulationRun = builder.objectRef<RunRecord>('SimulationRun').implement({
  ...part,
  description: 'The trace placed under one configuration.',
  fields: (t) => ({
    label: t.exposeString('label', { description: 'The profile name, or "custom".' }),
    requests: t.exposeInt('requests', { description: 'Requests in the trace.' }),
    consumers: t.exposeInt('consumers', { description: 'Consumers in the trace.' }),
    placed: t.exposeInt('placed', { description: 'Consumers placed.' }),
    failed: t.exposeInt('failed', { description: 'Consumers not placed.' }),
    placements: t.field({
      type: [SimulatedPlacement],
      description: 'One per consumer, in trace order.',
      resolve: (r) => [...r.placements],
    }),
    end: t.field({
      type: SimulationEndState,
      description: 'The end state.',
      resolve: (r) => r.end,
    }),
    durationMs: t.exposeFloat('durationMs', { description: 'Time the run took.' }),
  }),
});

const SimulationDiffEntry = builder.objectRef<DiffEntryRecord>('SimulationDiffEntry').implement({
  ...part,
  description: 'A consumer the two runs placed differently.',
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'Position of the consumer in the trace.' }),
    consumerUuid: t.exposeID('consumerUuid', { description: 'The consumer.' }),
    runHost: t.field({
      type: ResourceProvider,
      nullable: true,
      description: 'Its host in the run (null: not placed).',
      resolve: (d, _a, ctx) => host(d.runHost, ctx),
    }),
    compareHost: t.field({
      type: ResourceProvider,
      nullable: true,
      description: 'Its host in the compared run (null: not placed).',
      resolve: (d, _a, ctx) => host(d.compareHost, ctx),
    }),
  }),
});

const SimulationDiff = builder.objectRef<DiffRecord>('SimulationDiff').implement({
  ...part,
  description: 'The two runs compared consumer by consumer.',
  fields: (t) => ({
    same: t.exposeInt('same', { description: 'Same host in both, or placed in neither.' }),
    differentHost: t.exposeInt('differentHost', { description: 'Placed in both, on other hosts.' }),
    onlyInRun: t.exposeInt('onlyInRun', {
      description: 'Placed in the run, not in the compared one.',
    }),
    onlyInCompare: t.exposeInt('onlyInCompare', {
      description: 'Placed in the compared run, not in the run.',
    }),
    entries: t.field({
      type: [SimulationDiffEntry],
      description: 'The consumers placed differently.',
      resolve: (d) => [...d.entries],
    }),
  }),
});

const SimulationResult = builder.objectRef<ResultRecord>('SimulationResult').implement({
  ...cloud,
  description:
    'A simulation: the run, and with a second configuration the compared run and the diff.',
  fields: (t) => ({
    run: t.field({ type: SimulationRun, description: 'The run.', resolve: (r) => r.run }),
    compare: t.field({
      type: SimulationRun,
      nullable: true,
      description: 'The same trace under the compared configuration.',
      resolve: (r) => r.compare,
    }),
    diff: t.field({
      type: SimulationDiff,
      nullable: true,
      description: 'The run against the compared run.',
      resolve: (r) => r.diff,
    }),
  }),
});

type PipelineArgs = typeof SimulationPipelineInput.$inferInput;

/** The pipeline input without its unset (null) fields. */
const overridesOf = (p: PipelineArgs): PipelineOverrides =>
  Object.fromEntries(Object.entries(p).filter(([, v]) => v != null)) as PipelineOverrides;

/** The configuration a pipeline input (else a profile name) names; none without either. */
const configurationOf = (
  profile: string | null | undefined,
  pipeline: PipelineArgs | null | undefined,
): SimulationConfiguration | undefined =>
  pipeline ? { pipeline: overridesOf(pipeline) } : profile ? { profile } : undefined;

builder.queryField('simulate', (t) =>
  t.field({
    type: SimulationResult,
    description:
      'Places a trace of scheduling requests, in order, on a private copy-on-write view of the cloud under a scheduler configuration (and optionally a second one, with a diff). Writes nothing.',
    args: {
      input: t.arg({
        type: SimulateInput,
        required: true,
        description: 'Trace and configuration.',
      }),
    },
    resolve: async (_r, { input }, ctx) => {
      const given = (input.requests ? 1 : 0) + (input.fromAudit != null ? 1 : 0);
      if (given !== 1) {
        throw new BadRequestError(
          'Give the trace as requests or fromAudit (exactly one of them).',
          ErrorCode.SIMULATION_INVALID_TRACE,
        );
      }
      const trace = input.requests
        ? input.requests.map((r) => toScheduleRequest(r))
        : (
            await traceFromAudit(
              ctx.services.dataSource,
              ctx.services.allocations,
              input.fromAudit!,
            )
          ).requests;
      const gen = ctx.scheduling.pipelines.current;
      const seed = input.seed ?? 1;
      const run = simulationPipeline(
        gen,
        configurationOf(input.profile ?? 'default', input.pipeline)!,
        seed,
      );
      const compareWith = configurationOf(input.compareProfile, input.comparePipeline);
      let compare: ReturnType<typeof simulationPipeline> | undefined;
      try {
        compare = compareWith ? simulationPipeline(gen, compareWith, seed) : undefined;
        const planning = ctx.scheduling.planning;
        return await simulate(
          () => PlanningView.open(planning),
          trace,
          run,
          compare,
          () => planning.candidates.revision,
        );
      } finally {
        run.dispose();
        compare?.dispose();
      }
    },
  }),
);
