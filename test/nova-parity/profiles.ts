// Nova parity harness: which berth plugin is compared with which Nova 26 class, and the operator
// profiles scenarios run under (each as berth plugin configuration and as the nova.conf options
// that mean the same). The Nova side (nova_side.py) reads the class paths and options from here,
// through the scenario JSON; nothing about the pairing is hard-coded in Python.
import { builtinPlugins } from '../../filters/registry';

/** A berth filter and the Nova code that decides the same thing. */
export interface FilterPair {
  readonly berth: string;
  /** Dotted path of the Nova filter class. */
  readonly nova: string;
  /**
   * Nova request filters (nova/scheduler/request_filter.py) that berth's plugin also performs as
   * its `amendRequest`: the Nova verdict is "passes the request filter's Placement narrowing and
   * host_passes()".
   */
  readonly requestFilters?: readonly string[];
}

/** A berth weigher and the Nova weigher class. */
export interface WeigherPair {
  readonly berth: string;
  readonly nova: string;
  /** Nova's raw value is divided by this before it is compared (units: MB vs GB). */
  readonly novaRawScale?: number;
}

const F = 'nova.scheduler.filters.';
const W = 'nova.scheduler.weights.';

/** The filters compared, in the order the table prints them. */
export const FILTER_PAIRS: readonly FilterPair[] = [
  {
    berth: 'AvailabilityZoneFilter',
    nova: `${F}availability_zone_filter.AvailabilityZoneFilter`,
    requestFilters: ['map_az_to_placement_aggregate'],
  },
  {
    berth: 'ComputeFilter',
    nova: `${F}compute_filter.ComputeFilter`,
    requestFilters: ['compute_status_filter'],
  },
  {
    berth: 'AggregateInstanceExtraSpecsFilter',
    nova: `${F}aggregate_instance_extra_specs.AggregateInstanceExtraSpecsFilter`,
  },
  { berth: 'SameHostFilter', nova: `${F}affinity_filter.SameHostFilter` },
  { berth: 'DifferentHostFilter', nova: `${F}affinity_filter.DifferentHostFilter` },
  { berth: 'ServerGroupAffinityFilter', nova: `${F}affinity_filter.ServerGroupAffinityFilter` },
  {
    berth: 'ServerGroupAntiAffinityFilter',
    nova: `${F}affinity_filter.ServerGroupAntiAffinityFilter`,
  },
  { berth: 'NumInstancesFilter', nova: `${F}num_instances_filter.NumInstancesFilter` },
  {
    berth: 'AggregateNumInstancesFilter',
    nova: `${F}num_instances_filter.AggregateNumInstancesFilter`,
  },
  { berth: 'IoOpsFilter', nova: `${F}io_ops_filter.IoOpsFilter` },
  { berth: 'AggregateIoOpsFilter', nova: `${F}io_ops_filter.AggregateIoOpsFilter` },
  { berth: 'ImagePropertiesFilter', nova: `${F}image_props_filter.ImagePropertiesFilter` },
  {
    berth: 'AggregateMultiTenancyIsolation',
    nova: `${F}aggregate_multitenancy_isolation.AggregateMultiTenancyIsolation`,
    requestFilters: ['require_tenant_aggregate'],
  },
  { berth: 'AllHostsFilter', nova: `${F}all_hosts_filter.AllHostsFilter` },
  { berth: 'JsonFilter', nova: `${F}json_filter.JsonFilter` },
  {
    berth: 'ComputeCapabilitiesFilter',
    nova: `${F}compute_capabilities_filter.ComputeCapabilitiesFilter`,
  },
  { berth: 'AggregateTypeAffinityFilter', nova: `${F}type_filter.AggregateTypeAffinityFilter` },
  {
    berth: 'AggregateImagePropertiesIsolation',
    nova: `${F}aggregate_image_properties_isolation.AggregateImagePropertiesIsolation`,
  },
  { berth: 'SimpleCIDRAffinityFilter', nova: `${F}affinity_filter.SimpleCIDRAffinityFilter` },
  { berth: 'IsolatedHostsFilter', nova: `${F}isolated_hosts_filter.IsolatedHostsFilter` },
  { berth: 'MetricsFilter', nova: `${F}metrics_filter.MetricsFilter` },
  // Nova's request filters without a host filter of their own: berth's amend plugin against the
  // request filter's Placement narrowing (AllHostsFilter passes every host it leaves).
  ...[
    'require_image_type_support',
    'isolate_aggregates',
    'transform_image_metadata',
    'accelerators_filter',
    'ephemeral_encryption_filter',
  ].map((name) => ({
    berth: name,
    nova: `${F}all_hosts_filter.AllHostsFilter`,
    requestFilters: [name],
  })),
];

/** The weighers compared. */
export const WEIGHER_PAIRS: readonly WeigherPair[] = [
  { berth: 'RAMWeigher', nova: `${W}ram.RAMWeigher` },
  { berth: 'DiskWeigher', nova: `${W}disk.DiskWeigher`, novaRawScale: 1024 },
  { berth: 'CPUWeigher', nova: `${W}cpu.CPUWeigher` },
  { berth: 'IoOpsWeigher', nova: `${W}io_ops.IoOpsWeigher` },
  { berth: 'ServerGroupSoftAffinityWeigher', nova: `${W}affinity.ServerGroupSoftAffinityWeigher` },
  {
    berth: 'ServerGroupSoftAntiAffinityWeigher',
    nova: `${W}affinity.ServerGroupSoftAntiAffinityWeigher`,
  },
  { berth: 'BuildFailureWeigher', nova: `${W}compute.BuildFailureWeigher` },
  { berth: 'MetricsWeigher', nova: `${W}metrics.MetricsWeigher` },
  { berth: 'PCIWeigher', nova: `${W}pci.PCIWeigher` },
  { berth: 'CrossCellWeigher', nova: `${W}cross_cell.CrossCellWeigher` },
];

/** berth plugins deliberately not compared, and why (printed under the table). */
export const NOT_COMPARED: Readonly<Record<string, string>> = {
  RamFilter: 'no such class in python3-nova 26 (upstream removed it; Placement checks RAM)',
  DiskFilter: 'no such class in python3-nova 26 (upstream removed it; Placement checks disk)',
  NumInstancesWeigher: 'no such class in python3-nova 26 (added to Nova later)',
  HypervisorVersionWeigher: 'no such class in python3-nova 26 (added to Nova later)',
  NUMATopologyFilter: 'needs a NUMATopology mapping of berth NUMA-cell providers: not built yet',
  PciPassthroughFilter:
    'needs PCI requests (flavor aliases -> InstancePCIRequests) and PciDeviceStats pools by vendor/product: not built yet',
  AggregateInstanceTypeFilter: 'not a Nova filter (nfv-filters)',
  ReservationFilter: 'not a Nova filter (Blazar)',
};

/**
 * nova.conf options every scenario runs with: the request filters compared above are each
 * enabled by their berth plugin being listed, where Nova checks an option (default false).
 */
export const NOVA_ALWAYS: readonly NovaOption[] = [
  { group: 'scheduler', name: 'query_placement_for_image_type_support', value: true },
  { group: 'scheduler', name: 'enable_isolated_aggregate_filtering', value: true },
  { group: 'scheduler', name: 'image_metadata_prefilter', value: true },
];

/** One nova.conf option: `[group] name = value` (group null: [DEFAULT]). */
export interface NovaOption {
  readonly group: string | null;
  readonly name: string;
  readonly value: number | string | boolean | readonly string[];
}

/** An operator profile: berth plugin configuration and the equivalent nova.conf. */
export interface Profile {
  readonly name: string;
  readonly berth: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly nova: readonly NovaOption[];
  /** Aggregate metadata features drawn more often under this profile (scenario.ts). */
  readonly emphasis: readonly string[];
}

const fs = 'filter_scheduler';
/** The metrics profile's [metrics] weight_setting (Nova MonitorMetricType names). */
const METRICS_SETTING = ['cpu.frequency=0.01', 'cpu.percent=-1'];

/** The profiles; scenario i runs PROFILES[seed-derived index]. */
export const PROFILES: readonly Profile[] = [
  { name: 'nova-defaults', berth: {}, nova: [], emphasis: [] },
  {
    name: 'tight-limits',
    berth: {
      NumInstancesFilter: { maxInstancesPerHost: 4 },
      AggregateNumInstancesFilter: { maxInstancesPerHost: 4 },
      IoOpsFilter: { maxIoOpsPerHost: 1 },
      AggregateIoOpsFilter: { maxIoOpsPerHost: 1 },
      AvailabilityZoneFilter: { defaultAvailabilityZone: 'az1' },
      ImagePropertiesFilter: { imagePropertiesDefaultArchitecture: 'x86_64' },
    },
    nova: [
      { group: fs, name: 'max_instances_per_host', value: 4 },
      { group: fs, name: 'max_io_ops_per_host', value: 1 },
      { group: null, name: 'default_availability_zone', value: 'az1' },
      { group: fs, name: 'image_properties_default_architecture', value: 'x86_64' },
    ],
    emphasis: ['maxinst', 'maxio', 'az'],
  },
  {
    name: 'ratios-in-aggregates',
    berth: {},
    nova: [],
    emphasis: ['ratio', 'ratio', 'spec'],
  },
  {
    name: 'weigher-multipliers',
    berth: {
      RAMWeigher: { multiplier: -1 },
      DiskWeigher: { multiplier: 2.5 },
      CPUWeigher: { multiplier: 0.5 },
      IoOpsWeigher: { multiplier: 3 },
      ServerGroupSoftAffinityWeigher: { multiplier: 2 },
      ServerGroupSoftAntiAffinityWeigher: { multiplier: 0.5 },
      BuildFailureWeigher: { multiplier: 500 },
      PCIWeigher: { multiplier: 2 },
      CrossCellWeigher: { multiplier: 3 },
    },
    nova: [
      { group: fs, name: 'ram_weight_multiplier', value: -1 },
      { group: fs, name: 'disk_weight_multiplier', value: 2.5 },
      { group: fs, name: 'cpu_weight_multiplier', value: 0.5 },
      { group: fs, name: 'io_ops_weight_multiplier', value: 3 },
      { group: fs, name: 'soft_affinity_weight_multiplier', value: 2 },
      { group: fs, name: 'soft_anti_affinity_weight_multiplier', value: 0.5 },
      { group: fs, name: 'build_failure_weight_multiplier', value: 500 },
      { group: fs, name: 'pci_weight_multiplier', value: 2 },
      { group: fs, name: 'cross_cell_move_weight_multiplier', value: 3 },
    ],
    emphasis: ['mult', 'mult'],
  },
  {
    name: 'tenant-isolation',
    berth: { AggregateMultiTenancyIsolation: { limitTenantsToPlacementAggregate: true } },
    nova: [{ group: 'scheduler', name: 'limit_tenants_to_placement_aggregate', value: true }],
    emphasis: ['tenant', 'tenant'],
  },
  {
    name: 'tenant-required',
    berth: {
      AggregateMultiTenancyIsolation: {
        limitTenantsToPlacementAggregate: true,
        placementAggregateRequiredForTenants: true,
      },
    },
    nova: [
      { group: 'scheduler', name: 'limit_tenants_to_placement_aggregate', value: true },
      { group: 'scheduler', name: 'placement_aggregate_required_for_tenants', value: true },
    ],
    emphasis: ['tenant'],
  },
  {
    // Metrics not required (Nova fails the request where a required one is missing: berth drops
    // the weigher, see docs/scheduler-plugins.md).
    name: 'metrics',
    berth: {
      MetricsFilter: { weightSetting: METRICS_SETTING },
      MetricsWeigher: {
        weightSetting: METRICS_SETTING,
        required: false,
        weightOfUnavailable: -500,
        multiplier: 2,
      },
    },
    nova: [
      { group: 'metrics', name: 'weight_setting', value: METRICS_SETTING },
      { group: 'metrics', name: 'required', value: false },
      { group: 'metrics', name: 'weight_of_unavailable', value: -500 },
      { group: 'metrics', name: 'weight_multiplier', value: 2 },
    ],
    emphasis: [],
  },
  {
    // Per scenario (profileFor): its hosts h00 and h01 are isolated, for two of the images.
    name: 'isolated-hosts',
    berth: {},
    nova: [],
    emphasis: ['image'],
  },
];

/**
 * berth's settings for Nova's behaviour where berth decides otherwise by default (the
 * configurable entries of allowed-differences.ts; docs/scheduler-plugins.md "Deliberate
 * differences"). Every scenario is also judged under its profile with these merged in: the
 * Nova-compatible profile (NOVA_COMPATIBLE_SUFFIX).
 */
export const NOVA_COMPATIBLE: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  AvailabilityZoneFilter: { zoneAggregatesByExactValue: true },
  NumInstancesFilter: { countMovesOn: 'source' },
  AggregateNumInstancesFilter: { countMovesOn: 'source' },
  IoOpsFilter: { countMovesOn: 'source' },
  AggregateIoOpsFilter: { countMovesOn: 'source' },
  JsonFilter: { countMovesOn: 'source' },
  ComputeCapabilitiesFilter: { countMovesOn: 'source' },
  IoOpsWeigher: { countMovesOn: 'source' },
  ServerGroupSoftAffinityWeigher: { countMovingMembers: true },
  ServerGroupSoftAntiAffinityWeigher: { countMovingMembers: true },
};

/** The name of a profile's Nova-compatible variant. */
export const NOVA_COMPATIBLE_SUFFIX = '.nova';

/** `p` with NOVA_COMPATIBLE merged into its berth configuration. */
export function novaCompatible(p: Profile): Profile {
  const berth: Record<string, Readonly<Record<string, unknown>>> = { ...p.berth };
  for (const [plugin, config] of Object.entries(NOVA_COMPATIBLE)) {
    berth[plugin] = { ...berth[plugin], ...config };
  }
  return { ...p, name: `${p.name}${NOVA_COMPATIBLE_SUFFIX}`, berth };
}

/** The compared filters whose Nova-compatible configuration differs (run again under it). */
export function novaCompatibleFilters(): FilterPair[] {
  return presentFilters().filter((f) => f.berth in NOVA_COMPATIBLE);
}

/** The profile of scenario `index` (isolated-hosts gets that scenario's host names). */
export function profileFor(index: number): Profile {
  const p = PROFILES[index % PROFILES.length]!;
  if (p.name !== 'isolated-hosts') {
    return p;
  }
  const hosts = [`s${index}-h00`, `s${index}-h01`];
  const images = ISOLATED_IMAGES;
  const restrict = index % 2 === 0;
  return {
    ...p,
    name: `isolated-hosts-s${index}`,
    berth: {
      IsolatedHostsFilter: {
        isolatedHosts: hosts,
        isolatedImages: images,
        restrictIsolatedHostsToIsolatedImages: restrict,
      },
    },
    nova: [
      { group: fs, name: 'isolated_hosts', value: hosts.join(',') },
      { group: fs, name: 'isolated_images', value: images.join(',') },
      { group: fs, name: 'restrict_isolated_hosts_to_isolated_images', value: restrict },
    ],
  };
}

/** The images isolated-hosts profiles isolate (request.ts IMAGES[0..1]). */
const ISOLATED_IMAGES = [
  '6a0e2f6a-3c55-4b7e-9a61-1f0c1b7a0001',
  '6a0e2f6a-3c55-4b7e-9a61-1f0c1b7a0002',
];

/** NAMEs of berth's built-in plugins (filters/registry.ts). */
export const BERTH_PLUGINS: ReadonlySet<string> = new Set(builtinPlugins.map((m) => m.NAME));
const CONFIG_KEYS = new Map(builtinPlugins.map((m) => [m.NAME, m.CONFIG_KEYS]));

/** The pairs whose berth plugin exists in this tree. */
export function presentFilters(): FilterPair[] {
  return FILTER_PAIRS.filter((p) => BERTH_PLUGINS.has(p.berth));
}

/** The weigher pairs whose berth plugin exists in this tree. */
export function presentWeighers(): WeigherPair[] {
  return WEIGHER_PAIRS.filter((p) => BERTH_PLUGINS.has(p.berth));
}

/**
 * BERTH_SCHEDULER_PROFILES for the test app: the scenarios' profiles, weighing with the compared
 * weighers. A configuration key a plugin of this tree does not take (not in its CONFIG_KEYS) is
 * left out and reported: the Nova side still sets the option, so the difference shows as
 * disagreements rather than as a start-up failure.
 */
export function berthProfilesSetting(profiles: readonly Profile[]): {
  setting: string;
  dropped: string[];
} {
  const weighers = presentWeighers().map((p) => p.berth);
  const filters = presentFilters().map((p) => p.berth);
  const out: Record<string, unknown> = {};
  const dropped = new Set<string>();
  for (const p of profiles) {
    const plugins: Record<string, Record<string, unknown>> = {};
    for (const [name, config] of Object.entries(p.berth)) {
      if (!BERTH_PLUGINS.has(name)) {
        continue; // not compared either
      }
      const keys = CONFIG_KEYS.get(name);
      for (const [key, value] of Object.entries(config)) {
        if (keys !== undefined && !keys.includes(key)) {
          dropped.add(`${name}.${key}`);
        } else {
          plugins[name] = { ...plugins[name], [key]: value };
        }
      }
    }
    out[p.name] = { filters, weighers, plugins };
  }
  return { setting: JSON.stringify(out), dropped: [...dropped] };
}
