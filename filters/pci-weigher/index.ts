// PCIWeigher: prefers hosts with fewer free PCI devices, so instances without PCI requests keep off
// PCI hosts and instances with them stack rather than fragment (upstream:
// nova/scheduler/weights/pci.py). The weight is MAX_DEVS - min(free, MAX_DEVS - 1), MAX_DEVS = 100,
// whatever the request asks, as in Nova. Nova counts the free devices of the host's PCI pools;
// berth counts the free units (capacity - used) of the PCI resource classes on the host's tree:
// by default PCI_DEVICE, SRIOV_NET_VF, CUSTOM_SRIOV_NET_PF (berth's import of Nova's pci_devices)
// and every CUSTOM_PCI_* class (Nova's PCI-in-Placement names), configurable as `resourceClasses`
// (names, or prefixes ending in `*`).
import {
  configKeys,
  nameList,
  nameListField,
  numberField,
  pluginConfig,
  withConfig,
} from '../../src/scheduler/helpers';
import type { HostView, WeigherFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'PCIWeigher';
/** Plugin kind. */
export const kind = 'weigher';

/** Aggregate metadata key overriding the multiplier per host (Nova `pci_weight_multiplier`). */
export const MULTIPLIER_KEY = 'pci_weight_multiplier';
/** Nova's default multiplier. */
export const DEFAULT_MULTIPLIER = 1;
/** Nova's cap on the devices that count. */
export const MAX_DEVS = 100;
/** The resource classes counted as PCI devices unless configured. */
export const DEFAULT_RESOURCE_CLASSES: readonly string[] = [
  'PCI_DEVICE',
  'SRIOV_NET_VF',
  'CUSTOM_SRIOV_NET_PF',
  'CUSTOM_PCI_*',
];

const PATTERN = /^[A-Z0-9_]+\*?$/;

/** A matcher for resource class names and `PREFIX*` patterns. */
export function classMatcher(patterns: readonly string[]): (rc: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.endsWith('*')));
  const prefixes = patterns.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  return (rc) => exact.has(rc) || prefixes.some((p) => rc.startsWith(p));
}

/** Free PCI devices on the host's tree: the free units of every matching class. */
export function freeDevices(host: HostView, isPci: (rc: string) => boolean): number {
  let free = 0;
  for (const provider of host.providers) {
    for (const [rc, inv] of Object.entries(provider.inventories)) {
      if (isPci(rc)) {
        free += Math.max(0, inv.capacity - inv.used);
      }
    }
  }
  return free;
}

const CONFIG = pluginConfig({
  multiplier: numberField(
    DEFAULT_MULTIPLIER,
    'Nova `[filter_scheduler] pci_weight_multiplier`; not negative',
  ),
  resourceClasses: nameListField(
    'resource classes (or prefixes ending in `*`) counted as PCI devices; default `PCI_DEVICE`, `SRIOV_NET_VF`, `CUSTOM_SRIOV_NET_PF`, `CUSTOM_PCI_*`',
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: `multiplier` (Nova's `pci_weight_multiplier`), `resourceClasses`. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the weigher. Config: `multiplier` (default 1.0, not negative, as Nova's option),
 * `resourceClasses` (default DEFAULT_RESOURCE_CLASSES).
 * @throws Error for a negative or non-numeric multiplier or a malformed class list.
 */
export const create: WeigherFactory = withConfig(CONFIG, (config) => {
  const multiplier = config.multiplier;
  if (multiplier < 0) {
    throw new Error(
      `${NAME}: config "multiplier" must not be negative (Nova: min 0.0), got ${multiplier}`,
    );
  }
  const classes =
    config.resourceClasses === undefined
      ? DEFAULT_RESOURCE_CLASSES
      : nameList(config.resourceClasses);
  if (!classes.every((c) => PATTERN.test(c))) {
    throw new Error(
      `${NAME}: config "resourceClasses" must be resource class names or prefixes ending in *, got ${JSON.stringify(classes)}`,
    );
  }
  const isPci = classMatcher(classes);
  return {
    name: NAME,
    kind,
    multiplier,
    multiplierMetadataKey: MULTIPLIER_KEY,
    weigh: (host) => MAX_DEVS - Math.min(freeDevices(host, isPci), MAX_DEVS - 1),
  };
});
