// CPUWeigher: weighs hosts by free VCPU on the tree; positive multiplier spreads, negative packs
// (upstream: nova/scheduler/weights/cpu.py).
import { freeCapacity, readNumberOrThrow } from '../../src/scheduler/helpers';
import type { PluginFactory, WeigherPlugin } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'CPUWeigher';
/** Plugin kind. */
export const kind = 'weigher';

/** Resource class weighed. */
export const RESOURCE_CLASS = 'VCPU';
/** Aggregate metadata key overriding the multiplier per host (Nova `cpu_weight_multiplier`). */
export const MULTIPLIER_KEY = 'cpu_weight_multiplier';

/**
 * Creates the weigher. Config: `multiplier` (default 1.0).
 * @throws Error when `multiplier` is not a finite number.
 */
export const create: PluginFactory = (_config, handle) =>
  ({
    name: NAME,
    kind,
    multiplier: readNumberOrThrow(handle, 'multiplier', 1),
    multiplierMetadataKey: MULTIPLIER_KEY,
    weigh: (host) => freeCapacity(host, RESOURCE_CLASS),
  }) satisfies WeigherPlugin;
