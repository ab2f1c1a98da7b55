// accelerators_filter: a flavor with a Cyborg device profile (extra spec `accel:device_profile`)
// needs a compute node whose nova-compute handles accelerator requests: the root trait
// COMPUTE_ACCELERATORS becomes required in the candidate query (upstream:
// nova/scheduler/request_filter.py accelerators_filter; Nova runs it on every request, with no
// option). The device profile's own request groups (Cyborg's data) are not expanded here: the
// caller puts them into the candidate request, as Nova's ResourceRequest does from Cyborg.
import { configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { AmendFactory, RequestAmendment } from '../../src/scheduler/plugin-api';

/** Nova's function name, as written in `enabledFilters`. */
export const NAME = 'accelerators_filter';
/** Plugin kind (a pre-candidate hook: it judges no host). */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration (Nova has no option for it). */
export const CONFIG_KEYS = configKeys(CONFIG);

/** The flavor extra spec naming a Cyborg device profile. */
export const DEVICE_PROFILE_KEY = 'accel:device_profile';
/** The os-traits trait nova-compute reports when it can handle accelerator requests. */
export const ACCELERATORS_TRAIT = 'COMPUTE_ACCELERATORS';

/** The amendment for a request with extra specs `extraSpecs` (Nova: a non-empty profile name). */
export function acceleratorsAmendment(
  extraSpecs: Readonly<Record<string, string>>,
): RequestAmendment | null {
  return extraSpecs[DEVICE_PROFILE_KEY]
    ? {
        rootRequiredTraits: [[ACCELERATORS_TRAIT]],
        note: `required root trait ${ACCELERATORS_TRAIT} (${DEVICE_PROFILE_KEY}=${extraSpecs[DEVICE_PROFILE_KEY]})`,
      }
    : null;
}

/** Creates the hook; it takes no configuration. */
export const create: AmendFactory = () => ({
  name: NAME,
  kind,
  // Failing open would offer compute nodes that cannot attach the accelerators.
  onError: 'closed',
  amendRequest: (req) => acceleratorsAmendment(req.extraSpecs),
});
