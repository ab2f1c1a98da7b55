// BuildFailureWeigher: hosts with recent failed builds weigh less (upstream:
// nova/scheduler/weights/compute.py BuildFailureWeigher). The raw weight is the host's count of
// consecutive failed builds (HostView.failedBuilds: what its compute service reported through
// reportBuildFailure / reportBuildSuccess, src/placement/build-results.ts), and, as in Nova, the
// multiplier is negated — `multiplier` (Nova's `build_failure_weight_multiplier`, default
// 1000000.0, meant to outweigh every other weigher) or the lowest aggregate value of
// `build_failure_weight_multiplier`, then times -1 — so more failures rank lower. No minval:
// the failures are normalised from the fewest to the most among the hosts weighed.
import { configKeys, numberField, pluginConfig, withConfig } from '../../src/scheduler/helpers';
import type { WeigherFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'BuildFailureWeigher';
/** Plugin kind. */
export const kind = 'weigher';

/** Aggregate metadata key overriding the multiplier per host (before it is negated). */
export const MULTIPLIER_KEY = 'build_failure_weight_multiplier';
/** Nova's default multiplier. */
export const DEFAULT_MULTIPLIER = 1000000.0;

const CONFIG = pluginConfig({
  multiplier: numberField(
    DEFAULT_MULTIPLIER,
    'Nova `build_failure_weight_multiplier`; negated when applied, 0 turns the weigher off',
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: `multiplier` (Nova's `[filter_scheduler] build_failure_weight_multiplier`). */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the weigher. Config: `multiplier` (default 1000000.0; 0 turns it off, as in Nova).
 * @throws Error for a non-finite multiplier.
 */
export const create: WeigherFactory = withConfig(CONFIG, (config) => ({
  name: NAME,
  kind,
  multiplier: config.multiplier,
  multiplierMetadataKey: MULTIPLIER_KEY,
  negateMultiplier: true,
  weigh: (host) => host.failedBuilds,
}));
