// AggregateTypeAffinityFilter: a host in aggregates whose metadata sets `instance_type` takes only
// the flavors named there (upstream: nova/scheduler/filters/type_filter.py). Each value is a
// comma-separated list of flavor names; the values of all the host's aggregates are united. A host
// in no aggregate with the key takes every flavor. berth's request carries no flavor object: the
// flavor's name comes in the extra spec `flavor:name` (scoped, so AggregateInstanceExtraSpecsFilter
// does not read it as a metadata requirement).
import { aggregateValues, configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'AggregateTypeAffinityFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Aggregate metadata key listing the flavors a host takes (Nova's name). */
export const METADATA_KEY = 'instance_type';
/** Extra spec giving the request's flavor name. */
export const FLAVOR_NAME_SPEC = 'flavor:name';

/** Rejection: the host's aggregates restrict flavors and this one is not among them. */
export const REASON_FLAVOR_NOT_ALLOWED = 'flavor not allowed by aggregate instance_type';
/** Rejection: the host's aggregates restrict flavors and the request names none. */
export const REASON_NO_FLAVOR_NAME =
  'aggregate instance_type restricts flavors, request names none';
/** Reason code of {@link REASON_FLAVOR_NOT_ALLOWED}. */
export const CODE_FLAVOR_NOT_ALLOWED = 'aggregate_type_affinity.flavor_not_allowed';
/** Reason code of {@link REASON_NO_FLAVOR_NAME}. */
export const CODE_NO_FLAVOR_NAME = 'aggregate_type_affinity.no_flavor_name';

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory<string | undefined> = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  prepare: (req) => req.extraSpecs[FLAVOR_NAME_SPEC],
  filter(host, _req, flavor) {
    const allowed = aggregateValues(host.aggregates, METADATA_KEY);
    if (allowed.length === 0) {
      return { fits: true };
    }
    const list = allowed.map((v) => `"${v}"`).join(', ');
    if (flavor === undefined) {
      return {
        fits: false,
        reason: `${REASON_NO_FLAVOR_NAME} (extra spec ${FLAVOR_NAME_SPEC}); the host takes ${list}`,
        code: CODE_NO_FLAVOR_NAME,
      };
    }
    if (allowed.includes(flavor)) {
      return { fits: true };
    }
    return {
      fits: false,
      reason: `${REASON_FLAVOR_NOT_ALLOWED}: "${flavor}" wanted, the host takes ${list}`,
      code: CODE_FLAVOR_NOT_ALLOWED,
    };
  },
});
