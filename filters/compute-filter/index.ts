// ComputeFilter: hosts whose root carries COMPUTE_STATUS_DISABLED are out; the trait is also pushed down
// as a forbidden root trait (upstream: nova/scheduler/filters/compute_filter.py and the
// compute_status_filter in nova/scheduler/request_filter.py).
import { configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'ComputeFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** The os-traits trait Nova sets on disabled compute nodes. */
export const DISABLED_TRAIT = 'COMPUTE_STATUS_DISABLED';

/** Rejection: the compute node is disabled. */
export const REASON_DISABLED = 'compute node is disabled';
/** Reason code of that rejection. */
export const CODE_DISABLED = 'compute.disabled';

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  amendRequest: () => ({
    rootForbiddenTraits: [DISABLED_TRAIT],
    note: `forbidden root trait ${DISABLED_TRAIT}`,
  }),
  filter(host) {
    if (host.root.traits.includes(DISABLED_TRAIT)) {
      return {
        fits: false,
        reason: `${REASON_DISABLED}: the root provider has trait ${DISABLED_TRAIT}`,
        code: CODE_DISABLED,
      };
    }
    return { fits: true };
  },
});
