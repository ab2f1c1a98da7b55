// GraphQL: reportBuildFailure / reportBuildSuccess and ResourceProvider.failedBuilds — the build
// results a compute service reports for its host, which BuildFailureWeigher reads (upstream:
// nova/compute/manager.py _build_failed / _build_succeeded, nova/compute/stats.py; Nova's
// compute keeps the count in its own stats, berth in src/placement/build-results.ts).
import { type BuildResultRecord, BuildResultService } from '../src/placement/build-results';
import { cloud } from './access';
import { providerOrThrow } from './allocation-candidate';
import { builder } from './builder';
import type { Context } from './context';
import { ResourceProvider } from './resource-provider';

const BuildResult = builder.objectRef<BuildResultRecord>('BuildResult').implement({
  ...cloud,
  description: "A host's consecutive failed builds after a reported build result.",
  fields: (t) => ({
    host: t.field({
      type: ResourceProvider,
      description: "The host's root provider.",
      resolve: (r, _a, ctx) => providerOrThrow(ctx, r.providerUuid),
    }),
    failedBuilds: t.exposeInt('failedBuilds', {
      description:
        'Consecutive failed builds since the last successful one (Nova HostState.failed_builds).',
    }),
  }),
});

const BuildResultInput = builder.inputType('BuildResultInput', {
  description: 'The host a build result is reported for.',
  fields: (t) => ({
    providerUuid: t.id({
      required: true,
      description: "The host's root provider (Nova: the compute node's uuid).",
    }),
  }),
});

const service = (ctx: Context) =>
  new BuildResultService(ctx.services.dataSource, ctx.services.changes);

function reportField(name: 'reportBuildFailure' | 'reportBuildSuccess', description: string) {
  builder.mutationField(name, (t) =>
    t.field({
      type: BuildResult,
      description,
      args: {
        input: t.arg({ type: BuildResultInput, required: true, description: 'The host.' }),
      },
      resolve: (_r, args, ctx) => {
        const uuid = String(args.input.providerUuid);
        return name === 'reportBuildFailure'
          ? service(ctx).reportFailure(uuid)
          : service(ctx).reportSuccess(uuid);
      },
    }),
  );
}

reportField(
  'reportBuildFailure',
  "A build failed (or was rescheduled) on the host: its failed-build count goes up by one (nova-compute's _build_failed). BuildFailureWeigher ranks hosts with more failures lower. Error placement.resource_provider.not_found for an unknown provider, berth.invalid_input for a provider that is not a root.",
);
reportField(
  'reportBuildSuccess',
  "A build succeeded on the host: its failed-build count goes back to 0 (nova-compute's _build_succeeded). A host already at 0 is left alone (nothing written, no audit event).",
);

builder.objectField(ResourceProvider, 'failedBuilds', (t) =>
  t.int({
    description:
      'Consecutive failed builds reported for this host (reportBuildFailure; 0 after reportBuildSuccess, and for a provider that is not a root), as the scheduler of the replica that answers sees it.',
    resolve: async (rp, _a, ctx) => {
      if (rp.parentProviderId !== null) {
        return 0;
      }
      const index = await ctx.services.candidates.current();
      const slot = index.slotOfId(rp.id);
      return slot < 0 ? 0 : (index.failedBuilds[slot] ?? 0);
    },
  }),
);
