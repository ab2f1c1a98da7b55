// Nova parity harness: the scenario model and its seeded generator. A scenario is one cloud as both
// sides see it: hosts (inventories in Placement terms, whether the compute service is disabled, the
// `supported_instances` its virt driver reports), instances with allocations (some mid-move),
// aggregates with metadata (bad values included on purpose), server groups and one request.
// berth-side.ts turns it into Placement data, nova_side.py into Nova objects; each side's mapping
// is written in its header. Everything comes from one 32-bit seed (mulberry32), so a scenario is
// replayed exactly from `NOVA_PARITY_SEED` and its index.
import { Dice, scenarioSeed } from './dice';
import { addExtras, type HostExtras } from './extras';
import { type Profile, profileFor } from './profiles';
import { FLAVOR_NAMES, request } from './request';

export const CLASSES = ['VCPU', 'MEMORY_MB', 'DISK_GB'] as const;
export type ResourceClass = (typeof CLASSES)[number];
export type Resources = Record<ResourceClass, number>;

/** One Placement inventory of a compute node. */
export interface Inventory {
  readonly total: number;
  readonly reserved: number;
  readonly ratio: number;
}

export interface Host {
  readonly uuid: string;
  readonly name: string;
  readonly inventories: Record<ResourceClass, Inventory>;
  /** The nova-compute service is disabled (berth: trait COMPUTE_STATUS_DISABLED). */
  readonly disabled: boolean;
  /** What the virt driver reports: [arch, hv_type, vm_mode] tuples (Nova canonical names). */
  readonly supported: readonly (readonly [string, string, string])[];
  /** The compute node's host_ip (null: not reported). */
  readonly ip: string | null;
  /** The compute node's hypervisor_version (Nova's integer encoding). */
  readonly hypervisorVersion: number;
  /** What only some plugins read (extras.ts). */
  readonly extras: HostExtras;
}

/** A host before its extras are drawn. */
export type HostBase = Omit<Host, 'extras'>;

export interface Instance {
  readonly uuid: string;
  readonly project: string;
  /** Host uuid it runs on (Nova: instance.host). */
  readonly host: string;
  readonly resources: Resources;
  /** Destination host uuid of a move in progress (berth consumer_moves; Nova: a resize). */
  moveTo?: string;
}

export interface Aggregate {
  readonly uuid: string;
  readonly name: string;
  readonly metadata: Record<string, string>;
  readonly hosts: string[];
}

export type Policy = 'affinity' | 'anti-affinity' | 'soft-affinity' | 'soft-anti-affinity';

export interface Group {
  readonly uuid: string;
  readonly name: string;
  readonly project: string;
  readonly policy: Policy;
  readonly maxServerPerHost?: number;
  readonly members: string[];
}

export interface Request {
  /** The instance to place: new, or (moving) an instance that already runs somewhere. */
  readonly consumer: string;
  readonly moving: boolean;
  readonly project: string;
  readonly user: string;
  readonly flavorName: string;
  readonly resources: Resources;
  /** Flavor extra specs (no `image:` keys: berth-side.ts adds those from `image`). */
  readonly extraSpecs: Record<string, string>;
  /** Image properties (Glance names; legacy names allowed). */
  readonly image: Record<string, string>;
  /** Scheduler hints besides same_host, different_host and group (query, cidr, ...). */
  readonly hints: Record<string, string[]>;
  readonly sameHost?: string[];
  readonly differentHost?: string[];
  readonly group?: string;
  readonly availabilityZone?: string;
}

export interface Scenario {
  readonly index: number;
  readonly seed: number;
  readonly profile: Profile;
  /** An aggregate holding only this scenario's hosts; berth requests are member_of it. */
  readonly scope: string;
  readonly hosts: Host[];
  readonly instances: Instance[];
  readonly aggregates: Aggregate[];
  readonly groups: Group[];
  readonly request: Request;
}

const ARCHES = ['x86_64', 'x86_64', 'x86_64', 'aarch64', 'armv7l', 'i686', 'ppc64le'];
const HV_TYPES = ['kvm', 'kvm', 'qemu', 'xen', 'lxc'];
const VM_MODES = ['hvm', 'hvm', 'xen', 'exe'];
const FLAVORS: readonly Resources[] = [
  { VCPU: 1, MEMORY_MB: 512, DISK_GB: 10 },
  { VCPU: 2, MEMORY_MB: 2048, DISK_GB: 20 },
  { VCPU: 4, MEMORY_MB: 8192, DISK_GB: 40 },
  { VCPU: 8, MEMORY_MB: 16384, DISK_GB: 80 },
];
const FEATURES = [
  'az',
  'tenant',
  'maxinst',
  'maxio',
  'spec',
  'spec',
  'mult',
  'ratio',
  'image',
  'flavor',
];
const MULTIPLIER_KEYS = [
  'ram_weight_multiplier',
  'disk_weight_multiplier',
  'cpu_weight_multiplier',
  'io_ops_weight_multiplier',
  'soft_affinity_weight_multiplier',
  'soft_anti_affinity_weight_multiplier',
];
/** A cloud's capacity in Placement terms: (total - reserved) * ratio. */
export function capacity(inv: Inventory): number {
  return Math.floor((inv.total - inv.reserved) * inv.ratio);
}

function host(d: Dice, k: number, i: number): HostBase {
  const inv = (totals: number[], reserved: number[], ratios: number[]): Inventory => ({
    total: d.pick(totals),
    reserved: d.pick(reserved),
    ratio: d.pick(ratios),
  });
  let supported: [string, string, string][] = [];
  if (!d.chance(0.05)) {
    const arches = d.chance(0.2) ? d.some([...new Set(ARCHES)], 2, 2) : [d.pick(ARCHES)];
    const modes = d.chance(0.3) ? d.some([...new Set(VM_MODES)], 2, 2) : [d.pick(VM_MODES)];
    const hv = d.pick(HV_TYPES);
    supported = arches.flatMap((a) => modes.map((m): [string, string, string] => [a, hv, m]));
    if (supported.length === 4 && d.chance(0.3)) {
      supported.splice(d.int(0, 3), 1); // not a product of its parts: berth cannot tell
    }
  }
  return {
    uuid: d.uuid(),
    name: `s${k}-h${String(i).padStart(2, '0')}`,
    inventories: {
      VCPU: inv([8, 16, 32, 64], [0, 0, 1, 2, 4], [1, 1, 1.5, 4, 16]),
      MEMORY_MB: inv([16384, 32768, 65536, 131072], [0, 0, 512, 4096], [1, 1, 1.5, 2]),
      DISK_GB: inv([200, 500, 1000, 2000], [0, 0, 10, 100], [1, 1, 1.5]),
    },
    disabled: d.chance(0.15),
    supported,
    ip: d.chance(0.05) ? null : `10.${k % 250}.${d.int(0, 3)}.${d.int(1, 250)}`,
    hypervisorVersion: d.pick([4002000, 6000000, 8000000, 8002000, 9000000]),
  };
}

function metadataFeature(d: Dice, feature: string, projects: string[]): Record<string, string> {
  switch (feature) {
    case 'az':
      return { availability_zone: d.pick(['az1', 'az2', 'az3', 'az1', 'az2', 'az1, az2']) };
    case 'tenant': {
      const key = d.pick(['filter_tenant_id', 'filter_tenant_id', 'filter_tenant_id2']);
      const value = d.pick([
        d.pick(projects),
        d.pick(projects),
        d.some(projects, 2, 2).join(','),
        `${d.pick(projects)}, ${d.pick(projects)}`,
        '',
      ]);
      return { [key]: value };
    }
    case 'maxinst':
      return {
        max_instances_per_host: d.pick(['1', '2', '3', '5', '3.5', 'abc', '', ' 4 ', '1e1', '2,3']),
      };
    case 'maxio':
      return { max_io_ops_per_host: d.pick(['0', '1', '2', '1', '3.5', 'abc', '', '1,2']) };
    case 'spec':
      return d.pick<Record<string, string>>([
        { ssd: d.pick(['true', 'false']) },
        { tier: d.pick(['gold', 'silver', 'bronze']) },
        { gpus: d.pick(['2', '4', '4', 'x']) },
        { cpu_gen: d.pick(['3', '4', '3,4']) },
      ]);
    case 'image':
      return d.pick<Record<string, string>>([
        { os_distro: d.pick(['windows', 'ubuntu,centos', 'ubuntu']) },
        { hw_architecture: d.pick(['x86_64', 'aarch64,x86_64']) },
        { hw_vm_mode: 'hvm' },
      ]);
    case 'flavor':
      return { instance_type: d.pick([...FLAVOR_NAMES, 'm1.small, m1.medium']) };
    case 'mult':
      return {
        [d.pick(MULTIPLIER_KEYS)]: d.pick(['2', '-1', '0.5', '0', '3.5', 'abc', '', '1,2']),
      };
    default:
      return {
        [d.pick(['cpu_allocation_ratio', 'ram_allocation_ratio', 'disk_allocation_ratio'])]: d.pick(
          ['2.0', '0.5', '8', 'abc'],
        ),
      };
  }
}

function aggregates(d: Dice, k: number, hosts: HostBase[], profile: Profile, projects: string[]) {
  const out: Aggregate[] = [];
  const zoneOf = new Map<string, string>();
  const n = d.int(0, 6);
  for (let i = 0; i < n; i += 1) {
    const features = d.some([...FEATURES, ...profile.emphasis], 1, 3);
    const metadata: Record<string, string> = {};
    for (const f of features) {
      Object.assign(metadata, metadataFeature(d, f, projects));
    }
    const p = 0.2 + d.next() * 0.5;
    const zone = metadata.availability_zone;
    // Nova refuses a host in two zones; berth does not care. Mostly keep Nova's rule.
    const strict = d.chance(0.9);
    const members = hosts
      .filter((_h) => d.chance(p))
      .filter((h) => !zone || !strict || (zoneOf.get(h.uuid) ?? zone) === zone)
      .map((h) => h.uuid);
    if (zone) {
      for (const h of members) {
        zoneOf.set(h, zone);
      }
    }
    out.push({ uuid: d.uuid(), name: `s${k}-agg${i}`, metadata, hosts: members });
  }
  return out;
}

function fits(used: Resources, add: Resources, host: HostBase, reserve: Resources): boolean {
  return CLASSES.every(
    (rc) => used[rc] + add[rc] + reserve[rc] <= capacity(host.inventories[rc]) * 0.98,
  );
}

function instances(d: Dice, hosts: HostBase[], projects: string[], request: Resources): Instance[] {
  const used = new Map(hosts.map((h) => [h.uuid, { VCPU: 0, MEMORY_MB: 0, DISK_GB: 0 }]));
  const add = (h: string, r: Resources) => {
    const u = used.get(h)!;
    for (const rc of CLASSES) {
      u[rc] += r[rc];
    }
  };
  const out: Instance[] = [];
  for (const h of hosts) {
    const count = d.int(0, 8);
    for (let i = 0; i < count; i += 1) {
      const flavor = d.pick(FLAVORS);
      if (!fits(used.get(h.uuid)!, flavor, h, request)) {
        break;
      }
      add(h.uuid, flavor);
      out.push({ uuid: d.uuid(), project: d.pick(projects), host: h.uuid, resources: flavor });
    }
  }
  for (const inst of out) {
    if (d.chance(0.12)) {
      const dest = d.pick(hosts);
      if (dest.uuid !== inst.host && fits(used.get(dest.uuid)!, inst.resources, dest, request)) {
        add(dest.uuid, inst.resources);
        inst.moveTo = dest.uuid;
      }
    }
  }
  return out;
}

function groups(d: Dice, k: number, insts: Instance[], projects: string[]): Group[] {
  const taken = new Set<string>();
  const policies: Policy[] = ['affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity'];
  return Array.from({ length: insts.length > 0 ? d.int(0, 2) : 0 }, (_, i) => {
    const project = d.pick(projects);
    const policy = d.pick(policies);
    const pool = insts.filter((x) => x.project === project && !taken.has(x.uuid));
    const members = d.some(pool, 0, 4).map((x) => x.uuid);
    for (const m of members) {
      taken.add(m);
    }
    const max = policy === 'anti-affinity' && d.chance(0.3) ? { maxServerPerHost: 2 } : {};
    return { uuid: d.uuid(), name: `s${k}-g${i}`, project, policy, ...max, members };
  });
}

/** Scenario `index` of the run seeded `master`. */
export function generate(master: number, index: number): Scenario {
  const seed = scenarioSeed(master, index);
  const d = new Dice(seed);
  const profile = profileFor(index);
  const projects = [1, 2, 3].map((p) => `s${index}-p${p}`);
  const hosts = Array.from({ length: d.int(8, 30) }, (_, i) => host(d, index, i));
  const maxRequest: Resources = { VCPU: 2, MEMORY_MB: 512, DISK_GB: 5 };
  const insts = instances(d, hosts, projects, maxRequest);
  const aggs = aggregates(d, index, hosts, profile, projects);
  const grps = groups(d, index, insts, projects);
  const scope = d.uuid();
  const req = request(d, hosts, insts, grps, projects);
  const more = addExtras(seed, index, hosts, req);
  return {
    index,
    seed,
    profile,
    scope,
    hosts: hosts.map((h) => ({ ...h, extras: more.extras[h.uuid]! })),
    instances: insts,
    aggregates: [...aggs, ...more.aggregates],
    groups: grps,
    request: req,
  };
}
