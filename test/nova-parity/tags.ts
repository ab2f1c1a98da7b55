// Nova parity harness: tags describing the inputs behind one disagreement (which host, which
// plugin). allowed-differences.ts matches on them, and the report prints them, so a disagreement
// reads "IoOpsFilter on s3-h07: berth fail, Nova pass [move-destination move-model]". The tags
// here are computed from the scenario only, for the host and plugin at hand:
//   move-destination / move-source   the host is one side of a move of an instance the plugin
//                                    counts (hinted, group member, or any for the count plugins)
//   moving-request[-host]            the request moves a group member (from this host)
//   metadata-not-python-int|float    the plugin's aggregate key has a value Python's int() /
//                                    float() refuses ('3.5', 'abc', '', '1,2')
//   metadata-comma-list              ... a comma-separated value
//   allocation-ratio-not-1, reserved the weighed inventory's ratio / reserved
//   tenant-key-variant, tenant-empty-value, tenant-in-list-value, zone-list-value,
//   host-in-two-zones, default-zone-named-by-aggregate, image-default-architecture (the image
//   names none, the profile sets Nova's default), image-arch-armv7l, supported-not-a-product,
//   nova-matches-any-position, nova-unknown-trait (transform_image_metadata: an image property
//   whose trait Nova builds is not in os-traits)
//   reads:<attribute>                a HostState attribute the request's capabilities: specs or
//                                    JsonFilter query read (reads:stats-other: a compute stat
//                                    other than num_instances / io_workload)
// compare.ts adds, from both answers: berth:pass / berth:fail (the direction), move-model (Nova
// agrees with berth once a moving instance counts on both hosts, as berth documents), minval-0
// (the raw values agree; Nova's clamp at 0 and 0-based normalisation explain the rest),
// raw-differs / raw-differs-on-another-host and follows-raw (a normalised value that differs
// because raw values do).
import type { Aggregate, Host, Scenario } from './scenario';

/**
 * Every aggregate of the run: berth and Nova's API database hold one cloud, so the request
 * filters' metadata lookups (zones, tenants) see the other scenarios' aggregates too (main.ts).
 */
let cloud: readonly Aggregate[] = [];

/** Sets the run's aggregates (main.ts, before comparing). */
export function setCloudAggregates(aggregates: readonly Aggregate[]): void {
  cloud = aggregates;
}

/** Values Python's int() accepts (validate_num_values(cast_to=int)). */
const PY_INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;
/** Values Python's float() accepts (no commas, no empty string). */
const PY_FLOAT =
  /^\s*[+-]?(?:(?:\d+(?:_\d+)*)?\.?\d+(?:_\d+)*(?:e[+-]?\d+)?|inf|infinity|nan)\s*$/i;

const METADATA_KEY: Readonly<Record<string, string>> = {
  AggregateNumInstancesFilter: 'max_instances_per_host',
  AggregateIoOpsFilter: 'max_io_ops_per_host',
  RAMWeigher: 'ram_weight_multiplier',
  DiskWeigher: 'disk_weight_multiplier',
  CPUWeigher: 'cpu_weight_multiplier',
  IoOpsWeigher: 'io_ops_weight_multiplier',
  ServerGroupSoftAffinityWeigher: 'soft_affinity_weight_multiplier',
  ServerGroupSoftAntiAffinityWeigher: 'soft_anti_affinity_weight_multiplier',
  BuildFailureWeigher: 'build_failure_weight_multiplier',
  MetricsWeigher: 'metrics_weight_multiplier',
  PCIWeigher: 'pci_weight_multiplier',
  CrossCellWeigher: 'cross_cell_move_weight_multiplier',
};

const RESOURCE: Readonly<Record<string, 'MEMORY_MB' | 'DISK_GB' | 'VCPU'>> = {
  RAMWeigher: 'MEMORY_MB',
  DiskWeigher: 'DISK_GB',
  CPUWeigher: 'VCPU',
};

/** Nova's canonical names (fields.Architecture / HVType / VMMode.canonicalize). */
const CANONICAL: Readonly<Record<string, string>> = {
  amd64: 'x86_64',
  i386: 'i686',
  xapi: 'xen',
  pv: 'xen',
  hv: 'hvm',
  baremetal: 'hvm',
};

/** The image's (arch, hv_type, vm_mode), canonical, undefined where not given. */
function imageTuple(img: Record<string, string>): (string | undefined)[] {
  return [
    img.hw_architecture ?? img.architecture,
    img.img_hv_type ?? img.hypervisor_type,
    img.hw_vm_mode ?? img.vm_mode,
  ].map((v) => (v === undefined ? undefined : (CANONICAL[v.toLowerCase()] ?? v.toLowerCase())));
}

function hostAggregates(s: Scenario, host: string) {
  return s.aggregates.filter((a) => a.hosts.includes(host));
}

function valuesOf(s: Scenario, host: string, key: string): string[] {
  return hostAggregates(s, host).flatMap((a) => (key in a.metadata ? [a.metadata[key]!] : []));
}

/** The instances a plugin is about: hinted ones, group members, or every instance. */
function relevantInstances(s: Scenario, plugin: string): Set<string> {
  const r = s.request;
  if (plugin === 'SameHostFilter') {
    return new Set(r.sameHost ?? []);
  }
  if (plugin === 'DifferentHostFilter') {
    return new Set(r.differentHost ?? []);
  }
  if (plugin.startsWith('ServerGroup')) {
    return new Set(s.groups.find((g) => g.uuid === r.group)?.members ?? []);
  }
  return new Set(s.instances.map((x) => x.uuid));
}

function isProduct(h: Host): boolean {
  const parts = [0, 1, 2].map((i) => new Set(h.supported.map((t) => t[i])));
  const size = parts.reduce((n, p) => n * p.size, 1);
  return new Set(h.supported.map((t) => t.join('/'))).size === size;
}

/** Tags for a disagreement of `plugin` on `host` (see the header). */
export function tagsFor(s: Scenario, plugin: string, host: string): string[] {
  const tags: string[] = [];
  const relevant = relevantInstances(s, plugin);
  if (s.instances.some((x) => x.moveTo === host && relevant.has(x.uuid))) {
    tags.push('move-destination');
  }
  if (s.instances.some((x) => x.host === host && x.moveTo && relevant.has(x.uuid))) {
    tags.push('move-source');
  }
  const mover = s.request.moving ? s.instances.find((x) => x.uuid === s.request.consumer) : null;
  if (mover && plugin.startsWith('ServerGroup') && relevant.has(mover.uuid)) {
    tags.push(mover.host === host ? 'moving-request-host' : 'moving-request');
  }
  const key = METADATA_KEY[plugin];
  if (key) {
    const values = valuesOf(s, host, key);
    const parse = plugin.endsWith('Filter') ? PY_INT : PY_FLOAT;
    if (values.some((v) => !parse.test(v))) {
      tags.push(`metadata-not-python-${parse === PY_INT ? 'int' : 'float'}`);
    }
    if (values.some((v) => v.includes(','))) {
      tags.push('metadata-comma-list');
    }
  }
  const rc = RESOURCE[plugin];
  if (rc) {
    const inv = s.hosts.find((h) => h.uuid === host)!.inventories[rc];
    if (inv.ratio !== 1) {
      tags.push('allocation-ratio-not-1');
    }
    if (inv.reserved !== 0) {
      tags.push('reserved');
    }
  }
  if (plugin === 'AggregateMultiTenancyIsolation') {
    const meta = hostAggregates(s, host).map((a) => a.metadata);
    if (
      meta.some((m) =>
        Object.keys(m).some((k) => k.startsWith('filter_tenant_id') && k !== 'filter_tenant_id'),
      )
    ) {
      tags.push('tenant-key-variant');
    }
    if (meta.some((m) => m.filter_tenant_id?.split(',').some((v) => v.trim() === ''))) {
      tags.push('tenant-empty-value');
    }
    const project = s.request.project;
    const listed = s.aggregates.some((a) =>
      Object.entries(a.metadata).some(
        ([k, v]) =>
          k.startsWith('filter_tenant_id') &&
          v !== project &&
          v.split(',').some((p) => p.trim() === project),
      ),
    );
    if (listed && s.profile.nova.some((o) => o.name === 'limit_tenants_to_placement_aggregate')) {
      tags.push('tenant-in-list-value');
    }
  }
  if (plugin === 'AvailabilityZoneFilter') {
    if (cloud.some((a) => (a.metadata.availability_zone ?? '').includes(','))) {
      tags.push('zone-list-value');
    }
    if (new Set(valuesOf(s, host, 'availability_zone')).size > 1) {
      tags.push('host-in-two-zones');
    }
    const fallback = s.profile.nova.find((o) => o.name === 'default_availability_zone');
    const az = s.request.availabilityZone;
    if (
      az === String(fallback?.value ?? 'nova') &&
      cloud.some((a) => a.metadata.availability_zone === az)
    ) {
      tags.push('default-zone-named-by-aggregate');
    }
  }
  if (plugin === 'ImagePropertiesFilter') {
    const h = s.hosts.find((x) => x.uuid === host)!;
    const want = imageTuple(s.request.image);
    const fallback = s.profile.nova.find((o) => o.name === 'image_properties_default_architecture');
    if (want[0] === undefined && fallback !== undefined) {
      tags.push('image-default-architecture');
      want[0] = String(fallback.value);
    }
    if (want[0] === 'armv7l') {
      tags.push('image-arch-armv7l');
    }
    if (want.filter((v) => v !== undefined).length > 1 && !isProduct(h)) {
      tags.push('supported-not-a-product');
    }
    // Nova's _compare_props tests `value in tuple`, whatever the position (a vm_mode `xen`
    // satisfies img_hv_type=xen); a per-position match would not.
    const anywhere = h.supported.some((t) => want.every((v) => v === undefined || t.includes(v)));
    const inPlace = h.supported.some((t) => want.every((v, i) => v === undefined || t[i] === v));
    if (anywhere && !inPlace) {
      tags.push('nova-matches-any-position');
    }
  }
  if (plugin === 'transform_image_metadata') {
    // Nova builds HW_ARCH_ARMV7L and COMPUTE_VIOMMU_<MODEL>, which os-traits lacks, and then
    // requires no trait at all for the image.
    const img = s.request.image;
    const arch = (img.hw_architecture ?? img.architecture)?.toLowerCase();
    if (arch === 'armv7l' || img.hw_viommu_model !== undefined) {
      tags.push('nova-unknown-trait');
    }
  }
  if (plugin === 'ComputeCapabilitiesFilter' || plugin === 'JsonFilter') {
    for (const attribute of hostStateRead(s, plugin)) {
      tags.push(`reads:${attribute}`);
    }
  }
  return tags;
}

/** The HostState attributes (or stats keys) a request's capabilities / query read. */
function hostStateRead(s: Scenario, plugin: string): string[] {
  const names = new Set<string>();
  if (plugin === 'ComputeCapabilitiesFilter') {
    for (const key of Object.keys(s.request.extraSpecs)) {
      const parts = key.split(':');
      if (parts[0] === 'capabilities' && parts.length > 1) {
        names.add(parts[1] === 'stats' && parts.length > 2 ? `stats.${parts[2]}` : parts[1]!);
      } else if (parts.length === 1) {
        names.add(parts[0]!);
      }
    }
  } else {
    for (const m of (s.request.hints.query ?? []).join(' ').matchAll(/"\$([A-Za-z_.]+)/g)) {
      names.add(m[1]!);
    }
  }
  return [...names].map((n) =>
    /^(stats\.)?num_(proj|vm|task|os_type)_/.test(n) ? 'stats-other' : n,
  );
}

/** The weighers Nova clamps at 0 and normalises from 0 (`minval = 0`). */
export const NOVA_MINVAL_ZERO: ReadonlySet<string> = new Set([
  'RAMWeigher',
  'DiskWeigher',
  'CPUWeigher',
  'IoOpsWeigher',
]);
