// BuildFailureWeigher: hosts with recent failed builds weigh less (upstream:
// nova/scheduler/weights/compute.py BuildFailureWeigher). The raw weight is the host's count of
// consecutive failed builds (HostView.failedBuilds: what its compute service reported through
// reportBuildFailure / reportBuildSuccess, src/placement/build-results.ts), and, as in Nova, the
// multiplier is negated — `multiplier` (Nova's `build_failure_weight_multiplier`, default
// 1000000.0, meant to outweigh every other weigher) or the lowest aggregate value of
// `build_failure_weight_multiplier`, then times -1 — so more failures rank lower. No minval:
// the failures are normalised from the fewest to the most among the hosts weighed.
import { readNumberOrThrow } from '../../src/scheduler/helpers';
import type { WeigherFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'BuildFailureWeigher';
/** Plugin kind. */
export const kind = 'weigher';
/** Configuration keys: `multiplier` (Nova's `[filter_scheduler] build_failure_weight_multiplier`). */
export const CONFIG_KEYS: readonly string[] = ['multiplier'];

/** Aggregate metadata key overriding the multiplier per host (before it is negated). */
export const MULTIPLIER_KEY = 'build_failure_weight_multiplier';
/** Nova's default multiplier. */
export const DEFAULT_MULTIPLIER = 1000000.0;

/**
 * Creates the weigher. Config: `multiplier` (default 1000000.0; 0 turns it off, as in Nova).
 * @throws Error for a non-finite multiplier.
 */
export const create: WeigherFactory = (_config, handle) => ({
  name: NAME,
  kind,
  multiplier: readNumberOrThrow(handle, 'multiplier', DEFAULT_MULTIPLIER),
  multiplierMetadataKey: MULTIPLIER_KEY,
  negateMultiplier: true,
  weigh: (host) => host.failedBuilds,
});
