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
}

const COUNTING = [
  'NumInstancesFilter',
  'AggregateNumInstancesFilter',
  'IoOpsFilter',
  'AggregateIoOpsFilter',
  'SameHostFilter',
  'DifferentHostFilter',
  'ServerGroupAffinityFilter',
  'ServerGroupAntiAffinityFilter',
  'IoOpsWeigher',
  'ServerGroupSoftAffinityWeigher',
  'ServerGroupSoftAntiAffinityWeigher',
  // num_instances, num_io_ops, stats.io_workload as host state
  'JsonFilter',
  'ComputeCapabilitiesFilter',
];
const WEIGHERS = [
  'RAMWeigher',
  'DiskWeigher',
  'CPUWeigher',
  'IoOpsWeigher',
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
      'A consumer with a move in progress holds allocations on the source and the destination, and berth counts it on both (HostView.numInstances / numIoOps, the hosts of hinted instances and of group members: docs/scheduler-plugins.md). Nova counts a resizing instance on instance.host only (the source until the resize finishes): the destination tracks its resources, not the instance, its io op or its group membership.',
    nova: 'nova/compute/stats.py:45-62,86-119; nova/scheduler/host_manager.py:178,247-249; nova/objects/instance_group.py:493-513',
    status: 'documented',
  },
  {
    id: 'group-moving-instance-own-host',
    plugins: ['ServerGroupAffinityFilter', 'ServerGroupAntiAffinityFilter'],
    checks: ['verdict'],
    when: ['moving-request-host'],
    reason:
      "When the request moves a group member, Nova keeps that instance's own host eligible: its instance_group.hosts include the host the instance runs on (affinity), and the anti-affinity filter passes a host already running the instance. berth leaves the consumers being placed out of the group's hosts, so the host of an affinity group's only member there is refused.",
    nova: 'nova/scheduler/filters/affinity_filter.py:95-99,148-156; nova/scheduler/utils.py:1169-1206',
    status: 'being fixed',
  },
  {
    id: 'soft-affinity-moving-instance',
    plugins: ['ServerGroupSoftAffinityWeigher', 'ServerGroupSoftAntiAffinityWeigher'],
    checks: ['raw'],
    when: ['moving-request-host'],
    reason:
      "When the request moves a group member, Nova's soft weighers count that instance among the members on its current host (members and host_state.instances both include it); berth leaves the consumers being placed out of the group's hosts.",
    nova: 'nova/scheduler/weights/affinity.py:39-53',
    status: 'open',
  },
  {
    id: 'zone-default-named-by-aggregate',
    plugins: ['AvailabilityZoneFilter'],
    checks: ['verdict'],
    when: ['default-zone-named-by-aggregate', 'berth:pass'],
    reason:
      "Asked for the default zone by name while some aggregate carries availability_zone = that name, Nova's request filter requires those aggregates, so hosts in no zone aggregate are dropped by Placement although host_passes() would take them; berth's amendment reads the default zone as 'in no other zone' and keeps them.",
    nova: 'nova/scheduler/request_filter.py:139-167; nova/scheduler/filters/availability_zone_filter.py:55-76',
    status: 'open',
  },
  {
    id: 'zone-request-filter-exact-value',
    plugins: ['AvailabilityZoneFilter'],
    checks: ['verdict'],
    when: ['zone-list-value'],
    reason:
      "Nova's request filter finds the zone's aggregates by exact value (an aggregate in zone 'az1, az2' is not az1's), while host_passes() splits values on commas; berth splits in both places.",
    nova: 'nova/scheduler/request_filter.py:139-167; nova/objects/aggregate.py:439-452; nova/scheduler/filters/utils.py:33-43',
    status: 'open',
  },
  {
    id: 'image-properties-any-position',
    plugins: ['ImagePropertiesFilter'],
    checks: ['verdict'],
    when: ['nova-matches-any-position', 'berth:fail'],
    reason:
      "Nova's _compare_props tests each requested value for membership in the whole supported_instances tuple, so img_hv_type=xen passes a host reporting (x86_64, kvm, xen), whose vm_mode is xen. berth matches each property against the traits of its own kind (CUSTOM_HYPERVISOR_XEN).",
    nova: 'nova/scheduler/filters/image_props_filter.py:77-81,92-95',
    status: 'open',
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
    status: 'open',
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
  {
    id: 'image-properties-armv7l',
    plugins: ['ImagePropertiesFilter'],
    checks: ['verdict'],
    when: ['image-arch-armv7l', 'berth:fail'],
    reason:
      "Nova's armv7l is os-traits HW_ARCH_ARMV7 (there is no HW_ARCH_ARMV7L); berth looked for HW_ARCH_ARMV7L.",
    nova: 'nova/virt/arch.py:18; os_traits/hw/arch.py (ARMV7)',
    status: 'being fixed',
  },
  {
    id: 'image-properties-default-architecture',
    plugins: ['ImagePropertiesFilter'],
    checks: ['verdict'],
    when: ['image-default-architecture'],
    reason:
      "Nova's [filter_scheduler] image_properties_default_architecture stands in for an image without hw_architecture; berth had no such setting (imagePropertiesDefaultArchitecture now).",
    nova: 'nova/scheduler/filters/image_props_filter.py:47-56',
    status: 'being fixed',
  },
  {
    id: 'tenant-isolation-empty-value',
    plugins: ['AggregateMultiTenancyIsolation'],
    checks: ['verdict'],
    when: ['tenant-empty-value', 'berth:pass'],
    reason:
      "filter_tenant_id = '' is the set {''} in Nova: truthy, and no project is in it, so the host takes no project; berth read an empty value as no restriction.",
    nova: 'nova/scheduler/filters/aggregate_multitenancy_isolation.py:43-52; nova/scheduler/filters/utils.py:33-43',
    status: 'being fixed',
  },
  {
    id: 'capacity-weigher-free-formula',
    plugins: ['RAMWeigher', 'DiskWeigher', 'CPUWeigher'],
    checks: ['raw'],
    when: ['allocation-ratio-not-1'],
    reason:
      'Nova weighs free_ram_mb = memory_mb - memory_mb_used and free_disk_mb (no allocation ratio), and vcpus_total * cpu_allocation_ratio - vcpus_used (reserved counted as used, not scaled); berth weighed (total - reserved) * ratio - used.',
    nova: 'nova/scheduler/weights/ram.py:42, disk.py:42, cpu.py:43-46; nova/scheduler/host_manager.py:210-220; nova/compute/resource_tracker.py:1599-1603',
    status: 'being fixed',
  },
  {
    id: 'capacity-weigher-minval-0',
    plugins: ['RAMWeigher', 'DiskWeigher', 'CPUWeigher', 'IoOpsWeigher'],
    checks: ['normalized'],
    when: ['minval-0'],
    reason:
      'Nova clamps these raw weights at 0 and normalises from 0 (minval = 0), not from the smallest weight; berth normalised min..max.',
    nova: 'nova/scheduler/weights/ram.py:32 (disk.py:32, cpu.py:33, io_ops.py:32); nova/weights.py:30-56,108-116',
    status: 'being fixed',
  },
  {
    id: 'aggregate-limit-python-int',
    plugins: ['AggregateNumInstancesFilter', 'AggregateIoOpsFilter'],
    checks: ['verdict'],
    when: ['metadata-not-python-int'],
    reason:
      "Nova reads max_instances_per_host / max_io_ops_per_host with int() on each aggregate's whole value ('3.5', '1e1', '2,3', '' fail) and falls back to the option when any fails; berth parsed floats and split on commas.",
    nova: 'nova/scheduler/filters/num_instances_filter.py:55-67; io_ops_filter.py:57-69; utils.py:46-68',
    status: 'being fixed',
  },
  {
    id: 'weight-multiplier-comma-list',
    plugins: WEIGHERS,
    checks: ['multiplier'],
    when: ['metadata-comma-list'],
    reason:
      "Nova reads a weight multiplier with float() on each aggregate's whole value: '1,2' fails and the option applies; berth split values on commas.",
    nova: 'nova/scheduler/utils.py:1283-1307; nova/scheduler/filters/utils.py:24-30',
    status: 'being fixed',
  },
  {
    id: 'tenant-isolation-key-variants',
    plugins: ['AggregateMultiTenancyIsolation'],
    checks: ['verdict'],
    when: ['tenant-key-variant'],
    reason:
      'The filter reads only the key filter_tenant_id (of the aggregates that have it); berth also read filter_tenant_id2, filter_tenant_id_x, ... (those only feed the request filter in Nova).',
    nova: 'nova/scheduler/filters/aggregate_multitenancy_isolation.py:43-52',
    status: 'being fixed',
  },
  {
    id: 'tenant-request-filter-exact-value',
    plugins: ['AggregateMultiTenancyIsolation'],
    checks: ['verdict'],
    when: ['tenant-in-list-value'],
    reason:
      "require_tenant_aggregate finds the project's aggregates with an exact metadata value match (SQL value = project_id): 'p1,p2' is not p1's aggregate; berth's amendment split values on commas.",
    nova: 'nova/scheduler/request_filter.py:95-136 (110-117); nova/objects/aggregate.py:439-452',
    status: 'being fixed',
  },
];
