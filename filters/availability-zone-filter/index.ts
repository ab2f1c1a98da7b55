// AvailabilityZoneFilter: with an availability zone asked for, only hosts in it pass. A host's
// zones are the `availability_zone` metadata of its aggregates (comma-separated values split); a
// host in no zone aggregate is in the default zone (config `defaultAvailabilityZone`, Nova's
// [DEFAULT] default_availability_zone, 'nova'). The zone is also pushed into the candidate query,
// as Nova's request filter map_az_to_placement_aggregate does: member_of the zone's aggregates, or
// for the default zone, not a member of any other zone's aggregate (upstream:
// nova/scheduler/filters/availability_zone_filter.py, request_filter.py). With
// `zoneAggregatesByExactValue: true` the query is narrowed exactly as Nova's request filter does
// (request_filter.py:139-167): member_of the aggregates whose availability_zone is the zone's name
// as a whole (not split on commas), the default zone too; nothing when none is.
import {
  aggregateMetadataUnion,
  booleanField,
  checkedField,
  configKeys,
  pluginConfig,
  withConfig,
} from '../../src/scheduler/helpers';
import type { AggregateView, FilterFactory, PluginHandle } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'AvailabilityZoneFilter';
/** Plugin kind. */
export const kind = 'filter';

/** The aggregate metadata key naming a zone. */
export const AZ_KEY = 'availability_zone';
/** Nova's default zone name. */
export const DEFAULT_ZONE = 'nova';
/** Rejection: the host is in other zones. */
export const REASON_OTHER_ZONE = 'host is in another availability zone';
/** Reason code of {@link REASON_OTHER_ZONE}. */
export const CODE_OTHER_ZONE = 'availability_zone.mismatch';
/** Amendment: no aggregate is in the zone asked for (and it is not the default zone). */
export const REASON_NO_ZONE = 'no aggregate has availability_zone';

/** The zones of aggregates, split on commas; `[]` when none names one. */
function zonesOf(aggregates: readonly AggregateView[]): readonly string[] {
  return aggregateMetadataUnion(aggregates).get(AZ_KEY) ?? [];
}

function defaultZone(handle: PluginHandle): string {
  const v = handle.config.defaultAvailabilityZone;
  if (v === undefined) {
    return DEFAULT_ZONE;
  }
  if (typeof v !== 'string' || v === '') {
    throw new Error(
      `${handle.name}: config "defaultAvailabilityZone" must be a non-empty string, got ${JSON.stringify(v)}`,
    );
  }
  return v;
}

const CONFIG = pluginConfig({
  defaultAvailabilityZone: checkedField(
    'string',
    '`nova`',
    'Nova `[DEFAULT] default_availability_zone`: the zone of hosts in no zone aggregate',
    () => undefined,
  ),
  zoneAggregatesByExactValue: booleanField(
    false,
    "push the zone into the candidate query as Nova's request filter does (whole values, not split on commas)",
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the filter; `defaultAvailabilityZone` is the zone of hosts in no zone aggregate,
 * `zoneAggregatesByExactValue` (default false) narrows the query as Nova's request filter does.
 */
export const create: FilterFactory = withConfig(CONFIG, (config, handle) => {
  const fallback = defaultZone(handle);
  const exact = config.zoneAggregatesByExactValue;
  return {
    name: NAME,
    kind,
    onError: 'closed',
    amendRequest(req, ctx) {
      const az = req.availabilityZone;
      if (az === undefined) {
        return null;
      }
      if (exact) {
        // Nova: AggregateList.get_by_metadata(key, value=az), a database match on the value.
        const named = ctx.aggregates.filter((a) => a.metadata[AZ_KEY] === az).map((a) => a.uuid);
        return named.length > 0 ? { memberOf: [named], note: `availability zone ${az}` } : null;
      }
      const zoned = ctx.aggregates
        .map((a) => ({ uuid: a.uuid, zones: zonesOf([a]) }))
        .filter((a) => a.zones.length > 0);
      const inZone = zoned.filter((a) => a.zones.includes(az)).map((a) => a.uuid);
      if (az !== fallback) {
        return inZone.length > 0
          ? { memberOf: [inZone], note: `availability zone ${az}` }
          : { unsatisfiable: `${REASON_NO_ZONE} ${az}` };
      }
      // The default zone: hosts in its aggregates or in no zone at all, i.e. in no other zone's.
      const otherZones = zoned.filter((a) => !a.zones.includes(az)).map((a) => a.uuid);
      return otherZones.length > 0
        ? { forbiddenAggregates: otherZones, note: `default availability zone ${az}` }
        : null;
    },
    filter(host, req) {
      const az = req.availabilityZone;
      if (az === undefined) {
        return { fits: true };
      }
      const zones = zonesOf(host.aggregates);
      const hostZones = zones.length > 0 ? zones : [fallback];
      if (hostZones.includes(az)) {
        return { fits: true };
      }
      return {
        fits: false,
        reason: `${REASON_OTHER_ZONE}: in ${hostZones.join(', ')}, not ${az}`,
        code: CODE_OTHER_ZONE,
      };
    },
  };
});
