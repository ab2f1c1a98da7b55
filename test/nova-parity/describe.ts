// Nova parity harness: one line of the inputs a plugin reads for one host, printed under each
// disagreement so it can be understood (and turned into a unit test) without replaying the run.
import type { Disagreement } from './compare';
import type { Scenario } from './scenario';

const KEYS: Readonly<Record<string, readonly string[]>> = {
  AvailabilityZoneFilter: ['availability_zone'],
  AggregateNumInstancesFilter: ['max_instances_per_host'],
  AggregateIoOpsFilter: ['max_io_ops_per_host'],
  AggregateMultiTenancyIsolation: ['filter_tenant_id'],
  RAMWeigher: ['ram_weight_multiplier'],
  DiskWeigher: ['disk_weight_multiplier'],
  CPUWeigher: ['cpu_weight_multiplier'],
  IoOpsWeigher: ['io_ops_weight_multiplier'],
  ServerGroupSoftAffinityWeigher: ['soft_affinity_weight_multiplier'],
  ServerGroupSoftAntiAffinityWeigher: ['soft_anti_affinity_weight_multiplier'],
  BuildFailureWeigher: ['build_failure_weight_multiplier'],
  MetricsWeigher: ['metrics_weight_multiplier'],
  PCIWeigher: ['pci_weight_multiplier'],
  CrossCellWeigher: ['cross_cell_move_weight_multiplier', 'cell'],
  isolate_aggregates: ['trait:'],
};

const short = (uuid: string) => uuid.slice(0, 8);

function metadata(s: Scenario, host: string, prefixes: readonly string[] | null): string {
  const parts = s.aggregates
    .filter((a) => a.hosts.includes(host))
    .map((a) => {
      const kv = Object.entries(a.metadata).filter(
        ([k]) => prefixes === null || prefixes.some((p) => k.startsWith(p)),
      );
      return kv.length === 0
        ? ''
        : `${a.name}{${kv.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}}`;
    })
    .filter(Boolean);
  return parts.length === 0 ? 'no relevant aggregate metadata' : parts.join(' ');
}

function instancesOn(s: Scenario, host: string, only?: ReadonlySet<string>): string {
  const here = s.instances.filter(
    (x) => (x.host === host || x.moveTo === host) && (!only || only.has(x.uuid)),
  );
  if (here.length === 0) {
    return 'none';
  }
  return here
    .map(
      (x) => `${short(x.uuid)}${x.moveTo === host ? '(move dest)' : x.moveTo ? '(move src)' : ''}`,
    )
    .join(',');
}

/** What Nova's HostState would hold for the host (Nova's model: a move counts on its source). */
function hostFacts(s: Scenario, host: string): string {
  const h = s.hosts.find((x) => x.uuid === host)!;
  const on = s.instances.filter((x) => x.host === host);
  const used = (rc: 'VCPU' | 'MEMORY_MB' | 'DISK_GB') =>
    s.instances
      .filter((x) => x.host === host || x.moveTo === host)
      .reduce((n, x) => n + x.resources[rc], 0);
  const inv = h.inventories;
  return [
    `free_ram_mb=${inv.MEMORY_MB.total - inv.MEMORY_MB.reserved - used('MEMORY_MB')}`,
    `vcpus=${inv.VCPU.total} used=${inv.VCPU.reserved + used('VCPU')} ratio=${inv.VCPU.ratio}`,
    `free_disk_mb=${(inv.DISK_GB.total - inv.DISK_GB.reserved - used('DISK_GB')) * 1024}`,
    `num_instances=${on.length} (+${s.instances.filter((x) => x.moveTo === host).length} moving in)`,
    `io=${on.filter((x) => x.moveTo).length} host_ip=${h.ip} hv_version=${h.hypervisorVersion}`,
    `disabled=${h.disabled}`,
  ].join(' ');
}

/** The inputs behind a disagreement, on one line. */
export function describeInputs(d: Disagreement): string {
  const s = d.scenario;
  const r = s.request;
  const h = s.hosts.find((x) => x.uuid === d.host);
  const profile = s.profile.nova.map((o) => `${o.name}=${o.value}`).join(' ') || 'Nova defaults';
  if (!h) {
    return `profile ${s.profile.name} (${profile})`;
  }
  const group = s.groups.find((g) => g.uuid === r.group);
  const members = new Set(group?.members ?? []);
  const moving = r.moving
    ? `request moves ${short(r.consumer)} (on ${s.hosts.find((x) => x.uuid === s.instances.find((i) => i.uuid === r.consumer)?.host)?.name})`
    : 'new instance';
  switch (d.plugin) {
    case 'AvailabilityZoneFilter':
      return `az=${r.availabilityZone}; ${metadata(s, h.uuid, KEYS[d.plugin]!)}; ${profile}`;
    case 'ComputeFilter':
      return `service disabled=${h.disabled}`;
    case 'AggregateInstanceExtraSpecsFilter':
      return `extra_specs=${JSON.stringify(r.extraSpecs)}; ${metadata(s, h.uuid, null)}`;
    case 'SameHostFilter':
    case 'DifferentHostFilter': {
      const hint = new Set((d.plugin === 'SameHostFilter' ? r.sameHost : r.differentHost) ?? []);
      return `hint=${[...hint].map(short).join(',')}; hinted instances on host: ${instancesOn(s, h.uuid, hint)}`;
    }
    case 'ServerGroupAffinityFilter':
    case 'ServerGroupAntiAffinityFilter':
    case 'ServerGroupSoftAffinityWeigher':
    case 'ServerGroupSoftAntiAffinityWeigher':
      return `group ${group?.policy ?? '-'} max_server_per_host=${group?.maxServerPerHost ?? 1} members=${[...members].map(short).join(',') || 'none'}; members on host: ${instancesOn(s, h.uuid, members)}; ${moving}; ${metadata(s, h.uuid, KEYS[d.plugin] ?? [])}`;
    case 'NumInstancesFilter':
    case 'AggregateNumInstancesFilter':
    case 'IoOpsFilter':
    case 'AggregateIoOpsFilter':
    case 'IoOpsWeigher':
      return `instances on host: ${instancesOn(s, h.uuid)}; ${metadata(s, h.uuid, KEYS[d.plugin] ?? [])}; ${profile}`;
    case 'JsonFilter':
      return `query=${r.hints.query?.[0] ?? 'none'}; ${hostFacts(s, h.uuid)}`;
    case 'ComputeCapabilitiesFilter': {
      const specs = Object.entries(r.extraSpecs).filter(
        ([k]) => k.startsWith('capabilities:') || !k.includes(':'),
      );
      return `specs=${JSON.stringify(Object.fromEntries(specs))}; ${hostFacts(s, h.uuid)}`;
    }
    case 'SimpleCIDRAffinityFilter':
      return `build_near_host_ip=${r.hints.build_near_host_ip?.[0]} cidr=${r.hints.cidr?.[0] ?? '(/24)'}; host_ip=${h.ip}`;
    case 'ImagePropertiesFilter':
      return `image=${JSON.stringify(r.image)}; host supported_instances=${JSON.stringify(h.supported)}`;
    case 'require_image_type_support':
    case 'isolate_aggregates':
    case 'transform_image_metadata':
    case 'accelerators_filter':
    case 'ephemeral_encryption_filter': {
      const specs = Object.entries(r.extraSpecs).filter(([k]) => /^(trait|accel|hw:eph)/.test(k));
      return `image=${JSON.stringify(r.image)}; specs=${JSON.stringify(Object.fromEntries(specs))}; host traits=${h.extras.capabilities.join(',')} supported=${JSON.stringify(h.supported)}; ${metadata(s, h.uuid, ['trait:'])}`;
    }
    case 'MetricsFilter':
    case 'MetricsWeigher':
      return `metrics=${JSON.stringify(h.extras.metrics)}; ${metadata(s, h.uuid, KEYS[d.plugin] ?? [])}; ${profile}`;
    case 'PCIWeigher':
      return `free PCI devices=${h.extras.pciDevices}; ${metadata(s, h.uuid, KEYS[d.plugin]!)}; ${profile}`;
    case 'BuildFailureWeigher':
      return `failed builds=${h.extras.failedBuilds}; ${metadata(s, h.uuid, KEYS[d.plugin]!)}; ${profile}`;
    case 'CrossCellWeigher':
      return `cell=${h.extras.cell} hints=${JSON.stringify(r.hints)}; ${metadata(s, h.uuid, KEYS[d.plugin]!)}; ${profile}`;
    case 'AggregateMultiTenancyIsolation':
      return `project=${r.project}; ${metadata(s, h.uuid, KEYS[d.plugin]!)}; ${profile}`;
    default: {
      const rc = { RAMWeigher: 'MEMORY_MB', DiskWeigher: 'DISK_GB', CPUWeigher: 'VCPU' }[
        d.plugin
      ] as 'MEMORY_MB' | 'DISK_GB' | 'VCPU' | undefined;
      const inv = rc ? h.inventories[rc] : undefined;
      const used = rc
        ? s.instances
            .filter((x) => x.host === h.uuid || x.moveTo === h.uuid)
            .reduce((n, x) => n + x.resources[rc], 0)
        : 0;
      const invText = inv
        ? `${rc} total=${inv.total} reserved=${inv.reserved} ratio=${inv.ratio} used=${used}; `
        : '';
      return `${invText}${metadata(s, h.uuid, KEYS[d.plugin] ?? [])}; ${profile}`;
    }
  }
}
