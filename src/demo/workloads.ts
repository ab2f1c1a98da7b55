// The demo cloud's tenants: five projects with quota limits, Nova flavors, server groups and the
// boot requests that fill the hosts (each a multi-create placed by one `schedule` call), a few
// hundred instances in all. One project runs close to its instance limit, so the console shows
// quota pressure.
import { A100_CLASS, DEDICATED_PROJECT } from './hosts';
import type { DemoRandom } from './random';
import type { DemoBoot, DemoFlavor, DemoProject, DemoServerGroup } from './types';

const flavor = (
  name: string,
  vcpus: number,
  ramMb: number,
  diskGb: number,
  more: Partial<Pick<DemoFlavor, 'extraSpecs' | 'rootRequired' | 'sharedDisk'>> & {
    resources?: Record<string, number>;
  } = {},
): DemoFlavor => ({
  name,
  resources: { VCPU: vcpus, MEMORY_MB: ramMb, DISK_GB: diskGb, ...more.resources },
  extraSpecs: more.extraSpecs ?? {},
  rootRequired: more.rootRequired ?? [],
  ...(more.sharedDisk ? { sharedDisk: true } : {}),
});

/** The flavors, by name. */
export const FLAVORS = {
  small: flavor('m1.small', 1, 2048, 20),
  medium: flavor('m1.medium', 2, 4096, 40),
  large: flavor('m1.large', 4, 8192, 80),
  xlarge: flavor('m1.xlarge', 8, 16384, 160),
  smallCeph: flavor('m1.small.ceph', 1, 2048, 20, { sharedDisk: true }),
  mediumCeph: flavor('m1.medium.ceph', 2, 4096, 40, { sharedDisk: true }),
  avx512: flavor('c1.xlarge-avx512', 8, 32768, 40, { rootRequired: ['HW_CPU_X86_AVX512F'] }),
  mem2x: flavor('r1.2xlarge', 8, 131072, 100, {
    extraSpecs: { 'aggregate_instance_extra_specs:memory': 'high' },
  }),
  mem4x: flavor('r1.4xlarge', 16, 262144, 200, {
    extraSpecs: { 'aggregate_instance_extra_specs:memory': 'high' },
  }),
  vgpu: flavor('g1.xlarge-vgpu', 8, 32768, 80, {
    resources: { VGPU: 1 },
    extraSpecs: { 'aggregate_instance_extra_specs:gpu': 'vgpu' },
  }),
  a100: flavor('a1.6xlarge-2a100', 24, 196608, 400, {
    resources: { [A100_CLASS]: 2 },
    extraSpecs: { 'aggregate_instance_extra_specs:gpu': 'a100' },
  }),
} as const;

/** The projects and their limits (quota is checked atomically by `schedule`). */
export const PROJECTS: readonly DemoProject[] = [
  {
    id: 'acme-web',
    users: ['alice', 'bob'],
    limits: { INSTANCES: 120, VCPU: 400, MEMORY_MB: 800 * 1024 },
  },
  {
    id: DEDICATED_PROJECT,
    users: ['carol'],
    limits: { INSTANCES: 60, VCPU: 600, MEMORY_MB: 4096 * 1024 },
  },
  {
    id: 'initech-ci',
    users: ['dave', 'ci-bot'],
    limits: { INSTANCES: 150, VCPU: 320, MEMORY_MB: 640 * 1024 },
  },
  {
    id: 'umbrella-ml',
    users: ['erin', 'frank'],
    limits: { INSTANCES: 40, VCPU: 500, MEMORY_MB: 2048 * 1024, VGPU: 16, [A100_CLASS]: 8 },
  },
  { id: 'hooli-staging', users: ['gavin'], limits: { INSTANCES: 16, VCPU: 48 } },
];

/** What workloads.ts builds. */
export interface DemoWorkloads {
  readonly serverGroups: DemoServerGroup[];
  readonly boots: DemoBoot[];
}

/** The server groups and boot requests, in the order they are sent. */
export function buildWorkloads(rnd: DemoRandom, zones: readonly string[]): DemoWorkloads {
  const serverGroups: DemoServerGroup[] = [];
  const group = (
    name: string,
    projectId: string,
    userId: string,
    policy: DemoServerGroup['policy'],
    maxServerPerHost?: number,
  ): string => {
    const uuid = rnd.uuid();
    serverGroups.push({ uuid, name, projectId, userId, policy, maxServerPerHost });
    return uuid;
  };
  const boots: DemoBoot[] = [];
  /** `count` instances in multi-creates of up to `batch`, each in a zone when `zone` says so. */
  const boot = (
    projectId: string,
    f: DemoFlavor,
    count: number,
    o: { batch?: number; zone?: string | 'any'; group?: string } = {},
  ) => {
    const users = PROJECTS.find((p) => p.id === projectId)!.users;
    for (let left = count; left > 0; ) {
      const n = Math.min(left, rnd.int(1, o.batch ?? 5));
      left -= n;
      const zone = o.zone === 'any' ? (rnd.chance(0.6) ? rnd.pick(zones) : undefined) : o.zone;
      boots.push({
        consumerUuids: Array.from({ length: n }, () => rnd.uuid()),
        projectId,
        userId: rnd.pick(users),
        flavor: f,
        ...(zone ? { availabilityZone: zone } : {}),
        ...(o.group ? { group: o.group } : {}),
      });
    }
  };
  const [zoneA, zoneB, zoneC] = zones;

  // acme-web: a web tier spread one per host, app servers and caches anywhere.
  const web = group('web-frontends', 'acme-web', 'alice', 'ANTI_AFFINITY');
  boot('acme-web', FLAVORS.medium, 8, { batch: 8, zone: zoneA, group: web });
  boot('acme-web', FLAVORS.large, 32, { zone: 'any' });
  boot('acme-web', FLAVORS.xlarge, 10, { zone: 'any' });
  boot('acme-web', FLAVORS.small, 24, { batch: 8, zone: 'any' });
  // globex-analytics: a database cluster on one big-memory host, more big-memory nodes, workers.
  const db = group('db-cluster', DEDICATED_PROJECT, 'carol', 'AFFINITY');
  boot(DEDICATED_PROJECT, FLAVORS.mem4x, 3, { batch: 3, group: db });
  boot(DEDICATED_PROJECT, FLAVORS.mem2x, 8, { batch: 2 });
  boot(DEDICATED_PROJECT, FLAVORS.xlarge, 20, { zone: zoneA });
  // initech-ci: CI runners on the Ceph-backed zone (disks in the pool), spread where possible.
  const runners = group('ci-runners', 'initech-ci', 'dave', 'SOFT_ANTI_AFFINITY');
  boot('initech-ci', FLAVORS.mediumCeph, 40, { batch: 10, zone: zoneC, group: runners });
  boot('initech-ci', FLAVORS.smallCeph, 50, { batch: 10, zone: zoneC });
  boot('initech-ci', FLAVORS.medium, 30, { batch: 10, zone: 'any' });
  // umbrella-ml: vGPU desktops, A100 trainers at most two per host, AVX-512 preprocessing.
  const trainers = group('trainers', 'umbrella-ml', 'erin', 'ANTI_AFFINITY', 2);
  boot('umbrella-ml', FLAVORS.vgpu, 12, { batch: 4, zone: zoneB });
  boot('umbrella-ml', FLAVORS.a100, 3, { batch: 3, zone: zoneB, group: trainers });
  boot('umbrella-ml', FLAVORS.avx512, 10, { zone: 'any' });
  // hooli-staging: a small project near its instance limit.
  boot('hooli-staging', FLAVORS.small, 15, { zone: 'any' });
  return { serverGroups, boots };
}
