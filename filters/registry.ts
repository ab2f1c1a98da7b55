// Explicit list of the built-in scheduler plugins, one line each (reviewable; duplicate NAMEs throw at
// start-up in createRegistry). Order here is irrelevant: run order comes from configuration.
import type { PluginModule } from '../src/scheduler/plugin-api';
import * as acceleratorsFilter from './accelerators-filter/index';
import * as aggregateImagePropertiesIsolation from './aggregate-image-properties-isolation/index';
import * as aggregateInstanceExtraSpecsFilter from './aggregate-instance-extra-specs-filter/index';
import * as aggregateInstanceTypeFilter from './aggregate-instance-type-filter/index';
import * as aggregateIoOpsFilter from './aggregate-io-ops-filter/index';
import * as aggregateMultiTenancyIsolation from './aggregate-multi-tenancy-isolation/index';
import * as aggregateNumInstancesFilter from './aggregate-num-instances-filter/index';
import * as aggregateTypeAffinityFilter from './aggregate-type-affinity-filter/index';
import * as allHostsFilter from './all-hosts-filter/index';
import * as availabilityZoneFilter from './availability-zone-filter/index';
import * as buildFailureWeigher from './build-failure-weigher/index';
import * as computeCapabilitiesFilter from './compute-capabilities-filter/index';
import * as computeFilter from './compute-filter/index';
import * as cpuWeigher from './cpu-weigher/index';
import * as crossCellWeigher from './cross-cell-weigher/index';
import * as differentHostFilter from './different-host-filter/index';
import * as diskFilter from './disk-filter/index';
import * as diskWeigher from './disk-weigher/index';
import * as ephemeralEncryptionFilter from './ephemeral-encryption-filter/index';
import * as hypervisorVersionWeigher from './hypervisor-version-weigher/index';
import * as imagePropertiesFilter from './image-properties-filter/index';
import * as ioOpsFilter from './io-ops-filter/index';
import * as ioOpsWeigher from './io-ops-weigher/index';
import * as isolateAggregates from './isolate-aggregates/index';
import * as isolatedHostsFilter from './isolated-hosts-filter/index';
import * as jsonFilter from './json-filter/index';
import * as metricsFilter from './metrics-filter/index';
import * as metricsWeigher from './metrics-weigher/index';
import * as numInstancesFilter from './num-instances-filter/index';
import * as numInstancesWeigher from './num-instances-weigher/index';
import * as numaTopologyFilter from './numa-topology-filter/index';
import * as pciPassthroughFilter from './pci-passthrough-filter/index';
import * as pciWeigher from './pci-weigher/index';
import * as ramFilter from './ram-filter/index';
import * as ramWeigher from './ram-weigher/index';
import * as requireImageTypeSupport from './require-image-type-support/index';
import * as reservationFilter from './reservation-filter/index';
import * as sameHostFilter from './same-host-filter/index';
import * as serverGroupAffinityFilter from './server-group-affinity-filter/index';
import * as serverGroupAntiAffinityFilter from './server-group-anti-affinity-filter/index';
import * as serverGroupSoftAffinityWeigher from './server-group-soft-affinity-weigher/index';
import * as serverGroupSoftAntiAffinityWeigher from './server-group-soft-anti-affinity-weigher/index';
import * as simpleCidrAffinityFilter from './simple-cidr-affinity-filter/index';
import * as transformImageMetadata from './transform-image-metadata/index';

/** Every built-in plugin module; pass to `createRegistry` from `src/scheduler/runtime/registry.ts`. */
export const builtinPlugins: readonly PluginModule[] = [
  aggregateInstanceExtraSpecsFilter,
  aggregateInstanceTypeFilter,
  availabilityZoneFilter,
  computeFilter,
  differentHostFilter,
  diskFilter,
  ramFilter,
  reservationFilter,
  sameHostFilter,
  aggregateIoOpsFilter,
  aggregateMultiTenancyIsolation,
  aggregateNumInstancesFilter,
  imagePropertiesFilter,
  ioOpsFilter,
  numInstancesFilter,
  numaTopologyFilter,
  pciPassthroughFilter,
  serverGroupAffinityFilter,
  serverGroupAntiAffinityFilter,
  aggregateImagePropertiesIsolation,
  aggregateTypeAffinityFilter,
  allHostsFilter,
  computeCapabilitiesFilter,
  isolatedHostsFilter,
  jsonFilter,
  metricsFilter,
  simpleCidrAffinityFilter,
  requireImageTypeSupport,
  isolateAggregates,
  transformImageMetadata,
  acceleratorsFilter,
  ephemeralEncryptionFilter,
  cpuWeigher,
  diskWeigher,
  ramWeigher,
  hypervisorVersionWeigher,
  ioOpsWeigher,
  numInstancesWeigher,
  serverGroupSoftAffinityWeigher,
  serverGroupSoftAntiAffinityWeigher,
  crossCellWeigher,
  metricsWeigher,
  pciWeigher,
  buildFailureWeigher,
];
