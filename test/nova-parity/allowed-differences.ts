// Nova parity harness: the allow-list. Every place where berth's Nova-named plugin is known to
// decide otherwise than Nova 26, with the reason and the Nova source it differs from. A
// disagreement is allowed when an entry names its plugin and check and all the entry's tags are
// on it (tags.ts); any other disagreement fails `npm run conformance:nova-parity`.
//
// Shrink it: when a fix lands, delete its entry and run the harness (a few seeds:
// NOVA_PARITY_SCENARIOS=300); entries that matched nothing in a run are listed at the end of the
// report. Disable entries without editing: NOVA_PARITY_ALLOW=none (strict) or
// NOVA_PARITY_ALLOW=-id1,-id2 (all but those). Two rules are built in (compare.ts): a weigher's
// normalised values that differ because its raw values do are allowed when those raw
// disagreements are ('follows-raw'), and a best-host disagreement is allowed when every weigher
// disagreement of its scenario is.

/** A filter verdict, or a weigher's raw value, normalised value or multiplier. */
export type Check = 'verdict' | 'raw' | 'normalized' | 'multiplier';

export interface AllowedDifference {
  /** Short stable name (NOVA_PARITY_ALLOW refers to it). */
  readonly id: string;
  readonly plugins: readonly string[];
  readonly checks: readonly Check[];
  /** Tags that must all be present (tags.ts; `berth:pass` / `berth:fail` give the direction). */
  readonly when: readonly string[];
  readonly reason: string;
  /** The Nova 26 source berth differs from (file:line under /usr/lib/python3/dist-packages). */
  readonly nova: string;
  /**
   * `being fixed`: a fix is under way (delete the entry when it lands); `documented`: berth means
   * to differ and says so in docs/scheduler-plugins.md; `open`: nobody has decided yet.
   */
  readonly status: 'being fixed' | 'documented' | 'open';
  /**
   * The berth setting that makes it decide as Nova (`Plugin.key = value`, profiles.ts
   * NOVA_COMPATIBLE): the entry does not apply to the Nova-compatible profile.
   */
  readonly configurable?: string;
}

/** Plugins counting a host's instances or io ops (HostView.numInstances / numIoOps). */
const COUNTING = [
  'NumInstancesFilter',
  'AggregateNumInstancesFilter',
  'IoOpsFilter',
  'AggregateIoOpsFilter',
  'IoOpsWeigher',
  // num_instances, num_io_ops, stats.io_workload as host state
  'JsonFilter',
  'ComputeCapabilitiesFilter',
];
/** Plugins reading where named instances or group members run. */
const WHERE_INSTANCES_RUN = [
  'SameHostFilter',
  'DifferentHostFilter',
  'ServerGroupAffinityFilter',
  'ServerGroupAntiAffinityFilter',
  'ServerGroupSoftAffinityWeigher',
  'ServerGroupSoftAntiAffinityWeigher',
];

export const ALLOWED_DIFFERENCES: readonly AllowedDifference[] = [
  {
    id: 'move-counted-on-both-hosts',
    plugins: COUNTING,
    checks: ['verdict', 'raw', 'normalized'],
    when: ['move-model'],
    reason:
      'A consumer with a move in progress holds allocations on the source and the destination, and berth counts it on both by default (HostView.numInstances / numIoOps). Nova counts a resizing instance on instance.host only: the source, where it is an io op while in resize_prep / resize_migrating, until its disk has moved. countMovesOn: "source" counts as Nova.',
    nova: 'nova/compute/resource_tracker.py:934-938,1540-1563; nova/compute/stats.py:44-62,86-119; nova/compute/manager.py:5905',
    status: 'documented',
    configurable:
      'countMovesOn = "source" (the count filters and weighers, JsonFilter, ComputeCapabilitiesFilter)',
  },
  {
    id: 'move-member-on-both-hosts',
    plugins: WHERE_INSTANCES_RUN,
    checks: ['verdict', 'raw', 'normalized'],
    when: ['move-model'],
    reason:
      "An instance with a move in progress runs, for berth, wherever it holds allocations: on its destination too (the hosts of hinted instances and of group members, the claim-time group check). Nova's instance_group.hosts and host_state.instances know the source only until the disk has moved, so different_host and anti-affinity let another instance onto the host it is moving to.",
    nova: 'nova/scheduler/host_manager.py:864-910; nova/objects/instance_group.py:493-515; nova/scheduler/filters/affinity_filter.py:34-66',
    status: 'documented',
  },
  {
    id: 'group-moving-instance-own-host',
    plugins: ['ServerGroupAffinityFilter', 'ServerGroupAntiAffinityFilter'],
    checks: ['verdict'],
    when: ['moving-request-host'],
    reason:
      "When the request moves a group member, Nova keeps that instance's own host eligible: its instance_group.hosts include the host the instance runs on (affinity), and the anti-affinity filter passes a host already running the instance. berth leaves the consumers being placed out of the group's hosts, as its claim-time check (src/placement/server-group-guard.ts) does.",
    nova: 'nova/scheduler/filters/affinity_filter.py:95-99,148-156; nova/scheduler/utils.py:1169-1206',
    status: 'documented',
  },
  {
    id: 'soft-affinity-moving-instance',
    plugins: ['ServerGroupSoftAffinityWeigher', 'ServerGroupSoftAntiAffinityWeigher'],
    checks: ['raw'],
    when: ['moving-request-host'],
    reason:
      "When the request moves a group member, Nova's soft weighers count that instance among the members on its current host (members and host_state.instances both include it); berth leaves the consumers being placed out unless countMovingMembers: true.",
    nova: 'nova/scheduler/weights/affinity.py:39-53',
    status: 'documented',
    configurable: 'countMovingMembers = true (ServerGroupSoft*Weigher)',
  },
  {
    id: 'zone-default-named-by-aggregate',
    plugins: ['AvailabilityZoneFilter'],
    checks: ['verdict'],
    when: ['default-zone-named-by-aggregate', 'berth:pass'],
    reason:
      "Asked for the default zone by name while some aggregate carries availability_zone = that name, Nova's request filter requires those aggregates, so hosts in no zone aggregate are dropped by Placement although host_passes() would take them; berth's amendment reads the default zone as 'in no other zone' and keeps them.",
    nova: 'nova/scheduler/request_filter.py:139-167; nova/scheduler/filters/availability_zone_filter.py:55-76',
    status: 'documented',
    configurable: 'AvailabilityZoneFilter.zoneAggregatesByExactValue = true',
  },
  {
    id: 'zone-request-filter-exact-value',
    plugins: ['AvailabilityZoneFilter'],
    checks: ['verdict'],
    when: ['zone-list-value'],
    reason:
      "Nova's request filter finds the zone's aggregates by exact value (an aggregate in zone 'az1, az2' is not az1's when another aggregate is exactly 'az1'), while host_passes() splits values on commas; berth splits in both places.",
    nova: 'nova/scheduler/request_filter.py:139-167; nova/objects/aggregate.py:439-452; nova/scheduler/filters/utils.py:33-43',
    status: 'documented',
    configurable: 'AvailabilityZoneFilter.zoneAggregatesByExactValue = true',
  },
  {
    id: 'image-properties-any-position',
    plugins: ['ImagePropertiesFilter'],
    checks: ['verdict'],
    when: ['nova-matches-any-position', 'berth:fail'],
    reason:
      "Nova's _compare_props tests each requested value for membership in the whole supported_instances tuple, so img_hv_type=xen passes a host reporting (x86_64, kvm, xen), whose vm_mode is xen. berth matches each property against the traits of its own kind (CUSTOM_HYPERVISOR_XEN).",
    nova: 'nova/scheduler/filters/image_props_filter.py:77-81,92-95',
    status: 'documented',
  },
  {
    id: 'image-properties-tuples',
    plugins: ['ImagePropertiesFilter'],
    checks: ['verdict'],
    when: ['supported-not-a-product', 'berth:pass'],
    reason:
      'Placement has no supported_instances tuples: berth matches each image property on its own against root traits (docs/scheduler-plugins.md), so a host reporting (x86_64, kvm, hvm) and (aarch64, kvm, exe) passes an x86_64 exe image, which Nova refuses (no single tuple has both).',
    nova: 'nova/scheduler/filters/image_props_filter.py:92-95',
    status: 'documented',
  },
  {
    id: 'image-metadata-trait-not-in-os-traits',
    plugins: ['transform_image_metadata'],
    checks: ['verdict'],
    when: ['nova-unknown-trait', 'berth:fail'],
    reason:
      "For hw_architecture=armv7l and hw_viommu_model Nova builds HW_ARCH_ARMV7L and COMPUTE_VIOMMU_<MODEL>, which os-traits does not define: it logs an error and requires no trait at all for the image. berth requires HW_ARCH_ARMV7 and COMPUTE_VIOMMU_MODEL_<MODEL>, the traits os-traits defines for those values (the libvirt driver reports them), with the image's other traits.",
    nova: 'nova/scheduler/request_filter.py:201-232; nova/virt/libvirt/driver.py:12290',
    status: 'documented',
  },
  {
    id: 'host-state-without-hypervisor-type',
    plugins: ['ComputeCapabilitiesFilter', 'JsonFilter'],
    checks: ['verdict'],
    when: ['reads:hypervisor_type', 'berth:fail'],
    reason:
      "Placement holds no hypervisor type: berth's HostState reading has hypervisor_type None (filters/host-state UNMAPPED_ATTRIBUTES), where libvirt reports 'QEMU', so a capabilities:hypervisor_type spec fails every host.",
    nova: 'nova/scheduler/host_manager.py:231; nova/scheduler/filters/compute_capabilities_filter.py:34-66,68-106',
    status: 'documented',
  },
  {
    id: 'json-query-host-ip-text',
    plugins: ['JsonFilter'],
    checks: ['verdict'],
    when: ['reads:host_ip', 'berth:pass'],
    reason:
      "Nova's HostState.host_ip is a netaddr.IPAddress (ComputeNode.host_ip is an IPAddressField), which never equals a JSON string: ['in', '$host_ip', '10.0.0.5'] fails every host in Nova. berth compares the address text and passes the host that has it.",
    nova: 'nova/objects/compute_node.py:81 (host_ip: IPAddressField); nova/scheduler/filters/json_filter.py:31-44,57-59',
    status: 'documented',
  },
  {
    id: 'host-state-stats-subset',
    plugins: ['ComputeCapabilitiesFilter', 'JsonFilter'],
    checks: ['verdict'],
    when: ['reads:stats-other', 'berth:fail'],
    reason:
      "berth's compute stats are num_instances and io_workload only; Nova's compute also keeps num_vm_<state>, num_task_<state>, num_os_type_<type> and num_proj_<project>.",
    nova: 'nova/compute/stats.py:86-119; nova/scheduler/host_manager.py:244',
    status: 'documented',
  },
];
