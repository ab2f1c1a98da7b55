// GraphQL: schedulerProfiles and reloadScheduler — the named scheduler pipelines this replica runs,
// and re-reading their configuration without a restart (as SIGHUP does).
import type { ProfileInfo } from '../src/app/scheduling';
import type { PipelineGeneration } from '../src/scheduler/runtime/pipeline-set';
import { adminOnly, cloud } from './access';
import { builder } from './builder';
import { SchedulerPlugin, schedulerPluginList } from './schedule';

const SchedulerProfile = builder.objectRef<ProfileInfo>('SchedulerProfile').implement({
  ...cloud,
  description:
    'A named scheduler pipeline (ScheduleInput.profile). `default` is BERTH_SCHEDULER_FILTERS / BERTH_SCHEDULER_WEIGHERS / BERTH_SCHEDULER_CONFIG; BERTH_SCHEDULER_PROFILES adds others.',
  fields: (t) => ({
    name: t.exposeString('name', { description: "The profile's name." }),
    filters: t.stringList({
      description: 'Its filters, in run order.',
      resolve: (p) => [...p.filters],
    }),
    weighers: t.stringList({ description: 'Its weighers.', resolve: (p) => [...p.weighers] }),
    hostSubsetSize: t.exposeInt('hostSubsetSize', {
      description: 'How many of the best hosts the pick is drawn from.',
    }),
    config: t.field({
      type: 'JSON',
      description:
        "Per-plugin configuration: BERTH_SCHEDULER_CONFIG's with the profile's merged over it.",
      resolve: (p) => p.plugins,
    }),
  }),
});

builder.queryField('schedulerProfiles', (t) =>
  t.field({
    type: [SchedulerProfile],
    description: 'The scheduler profiles this replica runs, `default` first.',
    resolve: (_r, _a, ctx) => ctx.scheduling.profiles(),
  }),
);

const SchedulerReload = builder.objectRef<PipelineGeneration>('SchedulerReload').implement({
  ...adminOnly,
  description: 'The scheduler configuration a reload swapped in.',
  fields: (t) => ({
    generation: t.exposeInt('number', {
      description: 'The pipeline generation now running (1 at start-up, one more per reload).',
    }),
    loadedAt: t.string({
      description: 'When it was built (ISO 8601).',
      resolve: (g) => g.loadedAt.toISOString(),
    }),
    profiles: t.field({
      type: [SchedulerProfile],
      description: 'The profiles now running.',
      resolve: (_g, _a, ctx) => ctx.scheduling.profiles(),
    }),
    plugins: t.field({
      type: [SchedulerPlugin],
      description: 'The plugins now registered, as schedulerPlugins lists them.',
      resolve: (_g, _a, ctx) => schedulerPluginList(ctx.scheduling),
    }),
  }),
});

builder.mutationField('reloadScheduler', (t) =>
  t.field({
    type: SchedulerReload,
    description:
      "Re-reads this replica's scheduler configuration (the @file values of BERTH_SCHEDULER_CONFIG and BERTH_SCHEDULER_PROFILES, and BERTH_PLUGIN_DIRS), rebuilds every profile and swaps them in, as SIGHUP does; requests already running finish on the old pipelines. A configuration that does not build is refused (berth.scheduler.reload_failed) and the running one is kept. Admin only; other replicas and workers are not reloaded.",
    resolve: (_r, _a, ctx) => ctx.scheduling.reload(),
  }),
);
