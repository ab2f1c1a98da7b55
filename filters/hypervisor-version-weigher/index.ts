// HypervisorVersionWeigher: weighs hosts by their hypervisor version; the default multiplier 1.0
// prefers newer hypervisors (upstream: nova/scheduler/weights/hypervisor_version.py). Placement
// holds no hypervisor version, so berth reads it from a root provider trait: the trait prefix
// (config `traitPrefix`, default `CUSTOM_HYPERVISOR_VERSION_`) followed by the version as Nova's
// integer encoding (libvirt 8.0.0 -> 8000000): `CUSTOM_HYPERVISOR_VERSION_8000000`. The highest
// such trait counts; a host without one weighs 0.
import {
  checkedField,
  configKeys,
  numberField,
  pluginConfig,
  withConfig,
} from '../../src/scheduler/helpers';
import type { HostView, WeigherFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'HypervisorVersionWeigher';
/** Plugin kind. */
export const kind = 'weigher';

/** Aggregate metadata key overriding the multiplier per host (Nova `hypervisor_version_weight_multiplier`). */
export const MULTIPLIER_KEY = 'hypervisor_version_weight_multiplier';
/** Nova's default multiplier. */
export const DEFAULT_MULTIPLIER = 1;
/** Default trait prefix. */
export const DEFAULT_TRAIT_PREFIX = 'CUSTOM_HYPERVISOR_VERSION_';

/** The hypervisor version a host advertises through `prefix` traits on its root (0 if none). */
export function hypervisorVersion(host: HostView, prefix: string): number {
  let version = 0;
  for (const trait of host.root.traits) {
    if (trait.length > prefix.length && trait.startsWith(prefix)) {
      const digits = trait.slice(prefix.length);
      if (/^\d+$/.test(digits)) {
        version = Math.max(version, Number(digits));
      }
    }
  }
  return version;
}

const CONFIG = pluginConfig({
  multiplier: numberField(
    DEFAULT_MULTIPLIER,
    'Nova `[filter_scheduler] hypervisor_version_weight_multiplier`',
  ),
  traitPrefix: checkedField(
    'string',
    '`CUSTOM_HYPERVISOR_VERSION_`',
    'the root trait prefix carrying the hypervisor version',
    (v) =>
      typeof v === 'string' && /^CUSTOM_[A-Z0-9_]*$/.test(v)
        ? undefined
        : `must be a custom trait prefix (CUSTOM_[A-Z0-9_]*), got ${JSON.stringify(v)}`,
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: `multiplier` (Nova's `hypervisor_version_weight_multiplier`), `traitPrefix`. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the weigher. Config: `multiplier` (default 1.0), `traitPrefix` (a custom trait prefix).
 * @throws Error for a non-finite multiplier or a prefix that cannot start a custom trait.
 */
export const create: WeigherFactory = withConfig(CONFIG, (config) => {
  const prefix = (config.traitPrefix as string | undefined) ?? DEFAULT_TRAIT_PREFIX;
  return {
    name: NAME,
    kind,
    multiplier: config.multiplier,
    multiplierMetadataKey: MULTIPLIER_KEY,
    weigh: (host) => hypervisorVersion(host, prefix),
  };
});
