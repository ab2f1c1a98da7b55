// The demo cloud's hardware: three availability zones of compute hosts as nova-compute reports
// them to Placement (VCPU / MEMORY_MB / DISK_GB with Nova's allocation ratios and reserved
// amounts), NUMA cells and GPUs as child providers, a Ceph pool sharing DISK_GB with the
// diskless hosts of one zone, and host aggregates with the metadata Nova's filters and weighers
// read. Sizes are those of common two-socket servers.
import type { DemoRandom } from './random';
import type { DemoAggregate, DemoInventory, DemoProvider } from './types';

/** The availability zones, in order. */
export const ZONES = ['zone-a', 'zone-b', 'zone-c'] as const;
/** The custom resource class of the passthrough GPUs. */
export const A100_CLASS = 'CUSTOM_NVIDIA_A100';
/** The vGPU type trait Nova's libvirt driver would report for the vGPU-capable GPUs. */
export const VGPU_TYPE_TRAIT = 'CUSTOM_VGPU_A40_6Q';
/** The project whose hosts are set apart (aggregate metadata filter_tenant_id). */
export const DEDICATED_PROJECT = 'globex-analytics';

const DISABLED = 'COMPUTE_STATUS_DISABLED';
const BASE_TRAITS = [
  'COMPUTE_IMAGE_TYPE_QCOW2',
  'COMPUTE_IMAGE_TYPE_RAW',
  'COMPUTE_NET_ATTACH_INTERFACE',
  'COMPUTE_VOLUME_EXTEND',
  'COMPUTE_VOLUME_MULTI_ATTACH',
  'HW_CPU_HYPERTHREADING',
  'HW_CPU_X86_AVX2',
  'HW_CPU_X86_SSE42',
];
const GIB = 1024;

const inv = (
  resourceClass: string,
  total: number,
  allocationRatio = 1,
  reserved = 0,
): DemoInventory => ({ resourceClass, total, reserved, allocationRatio });

/** A host's CPU, memory and (optionally) local disk, as nova-compute reports them. */
function compute(cores: number, cpuRatio: number, memGib: number, diskGb?: number) {
  const out = [inv('VCPU', cores, cpuRatio), inv('MEMORY_MB', memGib * GIB, 1, 4 * GIB)];
  if (diskGb !== undefined) {
    out.push(inv('DISK_GB', diskGb, 1, 20));
  }
  return out;
}

/** What hosts.ts builds. */
export interface DemoHardware {
  readonly aggregates: DemoAggregate[];
  readonly providers: DemoProvider[];
  readonly hostCount: number;
  readonly disabledHosts: string[];
}

/** Builds the hosts, their children, the storage pool and the aggregates. */
export function buildHardware(rnd: DemoRandom): DemoHardware {
  const agg = (name: string, metadata: Record<string, string>): DemoAggregate => ({
    uuid: rnd.uuid(),
    name,
    metadata,
  });
  const zones = ZONES.map((z) => agg(z, { availability_zone: z }));
  const [zoneA, zoneB, zoneC] = zones as [DemoAggregate, DemoAggregate, DemoAggregate];
  const highmem = agg('highmem', { memory: 'high', ram_weight_multiplier: '2.0' });
  const vgpu = agg('gpu-vgpu', { gpu: 'vgpu' });
  const a100 = agg('gpu-a100', { gpu: 'a100', cpu_weight_multiplier: '0.5' });
  const dense = agg('cpu-dense', { cpu_weight_multiplier: '2.0' });
  const dedicated = agg(`dedicated-${DEDICATED_PROJECT}`, {
    filter_tenant_id: DEDICATED_PROJECT,
  });
  const ceph = agg('ceph-zone-c', { storage: 'ceph' });
  const aggregates = [...zones, highmem, vgpu, a100, dense, dedicated, ceph];

  const providers: DemoProvider[] = [];
  const hosts: DemoProvider[] = [];
  const host = (
    name: string,
    inventories: DemoInventory[],
    traits: string[],
    aggs: DemoAggregate[],
  ): DemoProvider => {
    const p = {
      uuid: rnd.uuid(),
      name,
      inventories,
      traits: [...traits].sort(),
      aggregates: aggs.map((a) => a.uuid),
    };
    providers.push(p);
    hosts.push(p);
    return p;
  };
  const child = (
    parent: DemoProvider,
    suffix: string,
    inventories: DemoInventory[],
    traits: string[],
  ) =>
    providers.push({
      uuid: rnd.uuid(),
      name: `${parent.name}_${suffix}`,
      parentUuid: parent.uuid,
      inventories,
      traits,
      aggregates: [],
    });
  const nn = (i: number) => String(i).padStart(2, '0');
  // Hosts in maintenance (nova-compute sets the trait on a disabled service): one general host
  // in zone-a (not a set-apart one), one in zone-c.
  const disabled = new Set([`cmp-a-${nn(rnd.int(1, 11))}`, `cmp-c-${nn(rnd.int(1, 12))}`]);
  // Two hardware generations of general-purpose hosts: the newer have more cores, more memory
  // and AVX-512.
  const general = (
    zone: DemoAggregate,
    letter: string,
    i: number,
    extra: DemoAggregate[],
    ssd: boolean,
  ) => {
    const name = `cmp-${letter}-${nn(i)}`;
    const newer = rnd.chance(0.5);
    const traits = [
      ...BASE_TRAITS,
      ...(newer ? ['HW_CPU_X86_AVX512F'] : []),
      ...(ssd ? ['STORAGE_DISK_SSD'] : []),
      ...(disabled.has(name) ? [DISABLED] : []),
    ];
    // Without SSDs: a small local disk (swap, config drives); instance disks are in Ceph.
    const inventories = newer
      ? compute(48, 4, 384, ssd ? 1788 : 480)
      : compute(32, 4, 256, ssd ? 894 : 480);
    return host(name, inventories, traits, [zone, ...extra]);
  };

  // zone-a: general purpose (three of them set apart for one project), NUMA hosts, big-memory hosts.
  for (let i = 1; i <= 14; i++) {
    general(zoneA, 'a', i, i > 11 ? [dedicated] : [], true);
  }
  for (let i = 1; i <= 4; i++) {
    const root = host(
      `numa-a-${nn(i)}`,
      [inv('DISK_GB', 1788, 1, 20)],
      [...BASE_TRAITS, 'HW_CPU_X86_AVX512F', 'STORAGE_DISK_SSD'],
      [zoneA],
    );
    for (const cell of [0, 1]) {
      child(
        root,
        `NUMA${cell}`,
        [inv('VCPU', 28, 2), inv('MEMORY_MB', 192 * GIB, 1, 2 * GIB)],
        ['HW_NUMA_ROOT'],
      );
    }
  }
  for (let i = 1; i <= 3; i++) {
    host(
      `mem-a-${nn(i)}`,
      compute(64, 2, 1024, 3576),
      [...BASE_TRAITS, 'HW_CPU_X86_AVX512F'],
      [zoneA, highmem],
    );
  }
  // zone-b: CPU-dense general hosts, vGPU hosts (two physical GPUs each), A100 passthrough hosts.
  for (let i = 1; i <= 10; i++) {
    general(zoneB, 'b', i, [dense], true);
  }
  for (let i = 1; i <= 4; i++) {
    const root = host(
      `gpu-b-${nn(i)}`,
      compute(48, 2, 384, 1788),
      [...BASE_TRAITS, 'COMPUTE_ACCELERATORS'],
      [zoneB, vgpu],
    );
    for (const pci of ['pci_0000_3b_00_0', 'pci_0000_d8_00_0']) {
      child(root, pci, [inv('VGPU', 8)], [VGPU_TYPE_TRAIT, 'HW_GPU_API_VULKAN']);
    }
  }
  for (let i = 1; i <= 2; i++) {
    const root = host(
      `ai-b-${nn(i)}`,
      compute(96, 1, 1024, 7152),
      [...BASE_TRAITS, 'COMPUTE_ACCELERATORS', 'HW_CPU_X86_AVX512F'],
      [zoneB, a100],
    );
    child(root, 'gpu0', [inv(A100_CLASS, 4)], []);
  }
  // zone-c: hosts whose instance disks live in a Ceph pool shared through an aggregate. The pool
  // is also in the zone's aggregate: Placement reads the zone (member_of) on every provider of a
  // candidate, sharing ones included, as Nova's documentation asks of sharing providers.
  for (let i = 1; i <= 12; i++) {
    general(zoneC, 'c', i, [ceph], false);
  }
  const hostCount = hosts.length;
  providers.push({
    uuid: rnd.uuid(),
    name: 'ceph-zone-c-pool',
    inventories: [inv('DISK_GB', 120_000, 1.5)],
    traits: ['MISC_SHARES_VIA_AGGREGATE'],
    aggregates: [zoneC.uuid, ceph.uuid],
  });

  return { aggregates, providers, hostCount, disabledHosts: [...disabled] };
}
