// Explicit list of the built-in scheduler plugins, one line each (reviewable; duplicate NAMEs throw at
// start-up in createRegistry). Order here is irrelevant: run order comes from configuration.
import type { PluginModule } from '../src/scheduler/plugin-api';
import * as aggregateInstanceExtraSpecsFilter from './aggregate-instance-extra-specs-filter/index';
import * as aggregateInstanceTypeFilter from './aggregate-instance-type-filter/index';
import * as availabilityZoneFilter from './availability-zone-filter/index';
import * as computeFilter from './compute-filter/index';
import * as cpuWeigher from './cpu-weigher/index';
import * as differentHostFilter from './different-host-filter/index';
import * as diskFilter from './disk-filter/index';
import * as diskWeigher from './disk-weigher/index';
import * as ramFilter from './ram-filter/index';
import * as ramWeigher from './ram-weigher/index';
import * as reservationFilter from './reservation-filter/index';
import * as sameHostFilter from './same-host-filter/index';

/** Every built-in plugin module; pass to `createRegistry` from `src/scheduler/registry.ts`. */
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
  cpuWeigher,
  diskWeigher,
  ramWeigher,
];
