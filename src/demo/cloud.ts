// `berth demo`'s cloud: a small but realistic OpenStack region, the same for the same seed. The
// CLI (src/cli/demo-command.ts) creates it through the public API; this file only describes it.
import { A100_CLASS, buildHardware, VGPU_TYPE_TRAIT, ZONES } from './hosts';
import { DemoRandom } from './random';
import type { DemoCloud } from './types';
import { buildWorkloads, PROJECTS } from './workloads';

/** The seed when none is given. */
export const DEFAULT_SEED = 2026;

/** The demo cloud for `seed`: hosts, aggregates, projects, server groups and boot requests. */
export function buildDemoCloud(seed: number = DEFAULT_SEED): DemoCloud {
  const rnd = new DemoRandom(seed);
  const hw = buildHardware(rnd);
  const wl = buildWorkloads(rnd, ZONES);
  return {
    seed,
    marker: hw.providers[0]!.name,
    customResourceClasses: [A100_CLASS],
    customTraits: [VGPU_TYPE_TRAIT],
    aggregates: hw.aggregates,
    providers: hw.providers,
    hostCount: hw.hostCount,
    disabledHosts: hw.disabledHosts,
    projects: PROJECTS,
    serverGroups: wl.serverGroups,
    boots: wl.boots,
  };
}

/** Instances the cloud's boot requests ask for. */
export function instanceCount(cloud: DemoCloud): number {
  return cloud.boots.reduce((n, b) => n + b.consumerUuids.length, 0);
}
