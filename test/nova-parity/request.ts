// Nova parity harness: the request half of a scenario: flavor (name, resources, extra specs with
// Nova's operators, `capabilities:` specs over host state), image properties, project, and the
// scheduler hints (same_host, different_host, group, a JsonFilter `query`, build_near_host_ip /
// cidr). Values are drawn so that every plugin sees passing and failing hosts, and some inputs
// Nova raises on or reads differently (a `<` between text and a number, Python str() compares).
import type { Dice } from './dice';
import type { Group, HostBase, Instance, Request, Resources } from './scenario';

/** Isolated images (profile isolated-hosts) and others. */
export const IMAGES = [
  '6a0e2f6a-3c55-4b7e-9a61-1f0c1b7a0001',
  '6a0e2f6a-3c55-4b7e-9a61-1f0c1b7a0002',
  '6a0e2f6a-3c55-4b7e-9a61-1f0c1b7a0003',
];
export const FLAVOR_NAMES = ['m1.small', 'm1.medium', 'gpu.large'];

const REQUESTS: readonly Resources[] = [
  { VCPU: 1, MEMORY_MB: 256, DISK_GB: 1 },
  { VCPU: 2, MEMORY_MB: 512, DISK_GB: 5 },
];

/** Extra specs a request may carry: [key, requirement]. */
const SPECS: readonly (readonly [string, string])[] = [
  ['ssd', 'true'],
  ['ssd', '<in> tr'],
  ['tier', '<or> gold <or> silver'],
  ['tier', 's== gold'],
  ['tier', 's!= bronze'],
  ['gpus', '>= 2'],
  ['gpus', '== 4'],
  ['gpus', '= 3'],
  ['cpu_gen', '<all-in> 3 4'],
  ['cpu_gen', '4'],
  ['aggregate_instance_extra_specs:ssd', 'true'],
  ['aggregate_instance_extra_specs:tier', 'gold'],
  ['hw:cpu_policy', 'dedicated'],
  ['capabilities:cpu_info:arch', 'x86_64'],
  ['capabilities:free_ram_mb', '>= 16384'],
  ['capabilities:vcpus_total', '>= 32'],
  ['capabilities:num_instances', '<= 3'],
  ['capabilities:io_workload', 's== 0'],
  ['capabilities:stats:num_instances', '>= 2'],
  ['capabilities:hypervisor_version', '>= 8000000'],
  ['capabilities:cpu_allocation_ratio', 's== 4.0'],
  ['capabilities:hypervisor_type', 's== QEMU'],
  ['num_instances', '>= 2'],
  ['free_disk_mb', '>= 409600'],
];

/** A JsonFilter query for the scenario (a JSON text). */
function query(d: Dice, hosts: HostBase[]): string {
  const host = d.pick(hosts);
  const q = d.pick<unknown[]>([
    ['>=', '$free_ram_mb', d.pick([4096, 16384, 65536])],
    ['<', '$num_instances', d.pick([2, 4])],
    ['and', ['>=', '$vcpus_total', 16], ['<', '$vcpus_used', d.pick([4, 10, 20])]],
    ['or', ['>', '$free_disk_mb', 400000], ['=', '$num_io_ops', 0]],
    ['not', ['=', '$host', host.name]],
    ['in', '$host_ip', host.ip ?? '10.0.0.1', d.pick(hosts).ip ?? '10.0.0.2'],
    ['>=', '$hypervisor_version', 8000000],
    ['=', '$cpu_allocation_ratio', d.pick([1.5, 4, 16])],
    ['=', '$service.disabled', false],
    ['>', '$total_usable_ram_mb', 32768],
    ['<=', '$disk_mb_used', 102400],
    ['>=', '$stats.num_instances', '2'],
    ['<', '$free_ram_mb', '$total_usable_ram_mb', 100000],
    ['<', '$host', 5],
    ['=', '$cpu_info', 'x'],
  ]);
  return JSON.stringify(q);
}

function image(d: Dice): Record<string, string> {
  if (d.chance(0.4)) {
    return {};
  }
  const legacy = d.chance(0.2);
  const out: Record<string, string> = {};
  if (d.chance(0.7)) {
    out.id = d.pick(IMAGES);
  }
  if (d.chance(0.6)) {
    out[legacy ? 'architecture' : 'hw_architecture'] = d.pick([
      'x86_64',
      'amd64',
      'aarch64',
      'armv7l',
      'i686',
      'ppc64le',
    ]);
  }
  if (d.chance(0.4)) {
    out[legacy ? 'hypervisor_type' : 'img_hv_type'] = d.pick(['kvm', 'qemu', 'xen', 'xapi', 'lxc']);
  }
  if (d.chance(0.3)) {
    out[legacy ? 'vm_mode' : 'hw_vm_mode'] = d.pick(['hvm', 'xen', 'exe', 'pv', 'hv']);
  }
  if (d.chance(0.3)) {
    out.os_distro = d.pick(['windows', 'ubuntu', 'centos']);
  }
  return out;
}

/** The scenario's request. */
export function request(
  d: Dice,
  hosts: HostBase[],
  insts: Instance[],
  grps: Group[],
  projects: string[],
): Request {
  const still = insts.filter((x) => x.moveTo === undefined);
  const mover = still.length > 0 && d.chance(0.2) ? d.pick(still) : undefined;
  const project = mover?.project ?? d.pick(projects);
  // A move keeps the instance's own group (Nova's RequestSpec.instance_group); a new instance
  // may join one of its project's groups.
  const projectGroups = grps.filter((g) => g.project === project);
  const group = mover
    ? grps.find((g) => g.members.includes(mover.uuid))
    : projectGroups.length > 0 && d.chance(0.6)
      ? d.pick(projectGroups)
      : undefined;
  const named = () => [
    ...d.some(
      insts.map((x) => x.uuid),
      1,
      2,
    ),
    ...(d.chance(0.15) ? [d.uuid()] : []),
  ];
  const extraSpecs: Record<string, string> = {};
  if (d.chance(0.6)) {
    for (const [key, value] of d.some(SPECS, 1, 3)) {
      extraSpecs[key] ??= value;
    }
  }
  if (d.chance(0.05)) {
    extraSpecs[`capabilities:num_proj_${project}`] = '>= 1';
  }
  const hints: Record<string, string[]> = {};
  if (d.chance(0.3)) {
    hints.query = [query(d, hosts)];
  }
  if (d.chance(0.15)) {
    hints.build_near_host_ip = [d.pick(hosts).ip ?? '10.0.0.1'];
    if (d.chance(0.6)) {
      hints.cidr = [d.pick(['/24', '/16', '/8', '/255.255.0.0', '/30'])];
    }
  }
  return {
    consumer: mover?.uuid ?? d.uuid(),
    moving: mover !== undefined,
    project,
    user: 'u1',
    flavorName: d.pick(FLAVOR_NAMES),
    resources: d.pick(REQUESTS),
    extraSpecs,
    image: image(d),
    hints,
    ...(insts.length > 0 && d.chance(0.2) ? { sameHost: named() } : {}),
    ...(insts.length > 0 && d.chance(0.2) ? { differentHost: named() } : {}),
    ...(group ? { group: group.uuid } : {}),
    ...(d.chance(0.4)
      ? { availabilityZone: d.pick(['az1', 'az2', 'az3', 'nova', 'az9', 'az1']) }
      : {}),
  };
}
