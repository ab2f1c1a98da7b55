// PciPassthroughFilter: with the extra spec `pci_passthrough:alias` = `alias1:count[,alias2:count]`,
// a host passes when its tree has enough free devices for every alias (upstream:
// nova/scheduler/filters/pci_passthrough_filter.py; devices as Placement sees them since Nova's
// PCI-in-Placement: inventories of a resource class on child providers of the compute node).
// berth has no PCI device pools, so the plugin configuration maps each alias to the resource class
// (and optional traits) its devices are inventoried as: `{"aliases": {"a1": {"resourceClass":
// "CUSTOM_PCI_8086_1572", "traits": ["CUSTOM_PHYSNET_A"]}}}`. Free units are summed over the
// non-root providers of the tree that have every trait of the alias.
import { checkedField, configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory, HostView, PluginHandle } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'PciPassthroughFilter';
/** Plugin kind. */
export const kind = 'filter';

/** The extra-spec key naming the aliases and counts. */
export const ALIAS_KEY = 'pci_passthrough:alias';
/** Rejection: the request names an unknown alias or is malformed. */
export const REASON_INVALID_REQUEST = 'invalid PCI alias request';
/** Rejection: not enough free devices. */
export const REASON_NOT_ENOUGH_DEVICES = 'not enough free PCI devices';
/** Reason code of {@link REASON_INVALID_REQUEST}. */
export const CODE_INVALID_REQUEST = 'pci_passthrough.invalid_request';
/** Reason code of {@link REASON_NOT_ENOUGH_DEVICES}. */
export const CODE_NOT_ENOUGH_DEVICES = 'pci_passthrough.not_enough_devices';

/** What an alias stands for. */
export interface AliasSpec {
  readonly resourceClass: string;
  readonly traits: readonly string[];
}

/** One device demand of a request: devices of one class carrying some traits. */
interface Demand {
  readonly aliases: string;
  readonly resourceClass: string;
  readonly traits: readonly string[];
  readonly count: number;
}

type State = readonly Demand[] | { readonly error: string } | null;

const NAME_PATTERN = /^[A-Z0-9_]+$/;

function readAliasesOrThrow(handle: PluginHandle): ReadonlyMap<string, AliasSpec> {
  const raw = handle.config.aliases ?? {};
  const fail = (why: string): never => {
    throw new Error(`${handle.name}: config "aliases" ${why}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    fail('must be an object of alias name -> {resourceClass, traits?}');
  }
  const out = new Map<string, AliasSpec>();
  for (const [alias, spec] of Object.entries(raw as Record<string, unknown>)) {
    const s = spec as { resourceClass?: unknown; traits?: unknown } | null;
    if (typeof s?.resourceClass !== 'string' || !NAME_PATTERN.test(s.resourceClass)) {
      fail(`: alias "${alias}" needs a resourceClass such as CUSTOM_PCI_8086_1572`);
    }
    const traits = s!.traits ?? [];
    if (
      !Array.isArray(traits) ||
      !traits.every((t) => typeof t === 'string' && NAME_PATTERN.test(t))
    ) {
      fail(`: alias "${alias}" traits must be a list of trait names`);
    }
    out.set(alias, { resourceClass: s!.resourceClass as string, traits: traits as string[] });
  }
  return out;
}

/**
 * The device demands of a `pci_passthrough:alias` value; aliases naming the same class and traits
 * are added up. @throws Error naming the problem (unknown alias, bad count).
 */
export function parseAliasRequest(
  value: string,
  aliases: ReadonlyMap<string, AliasSpec>,
): Demand[] {
  const byKey = new Map<string, Demand>();
  for (const part of value.split(',')) {
    const [name = '', countText, extra] = part.split(':').map((s) => s.trim());
    const spec = aliases.get(name);
    if (spec === undefined) {
      throw new Error(`alias "${name}" is not defined`);
    }
    if (countText === undefined || extra !== undefined || !/^[1-9]\d*$/.test(countText)) {
      throw new Error(`"${part.trim()}" must be alias:count with a count of at least 1`);
    }
    const key = `${spec.resourceClass}|${[...spec.traits].sort().join(',')}`;
    const prior = byKey.get(key);
    byKey.set(key, {
      aliases: prior ? `${prior.aliases}+${name}` : name,
      resourceClass: spec.resourceClass,
      traits: spec.traits,
      count: (prior?.count ?? 0) + Number(countText),
    });
  }
  return [...byKey.values()];
}

/** Free units of the demand's class on the non-root providers carrying all its traits. */
function freeDevices(host: HostView, demand: Demand): number {
  let free = 0;
  for (const p of host.providers) {
    const inv = p.inventories[demand.resourceClass];
    if (
      p.parentUuid !== null &&
      inv !== undefined &&
      demand.traits.every((t) => p.traits.includes(t))
    ) {
      free += inv.capacity - inv.used;
    }
  }
  return free;
}

const CONFIG = pluginConfig({
  aliases: checkedField(
    'object: alias → {resourceClass, traits}',
    'none',
    'Nova `[pci] alias`: the aliases extra spec `pci_passthrough:alias` may name',
    () => undefined,
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: `aliases` (Nova's `[pci] alias`, as resource classes). */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the filter. Config: `aliases`, alias name -> `{resourceClass, traits?}`.
 * @throws Error when an alias lacks a valid resource class or has invalid traits.
 */
export const create: FilterFactory<State> = (_config, handle) => {
  const aliases = readAliasesOrThrow(handle);
  return {
    name: NAME,
    kind,
    onError: 'closed',
    prepare(req) {
      const value = req.extraSpecs[ALIAS_KEY];
      if (value === undefined || value.trim() === '') {
        return null;
      }
      try {
        return parseAliasRequest(value, aliases);
      } catch (err) {
        return { error: (err as Error).message };
      }
    },
    filter(host, _req, state) {
      if (state === null) {
        return { fits: true };
      }
      if ('error' in state) {
        return {
          fits: false,
          reason: `${REASON_INVALID_REQUEST}: ${state.error}`,
          code: CODE_INVALID_REQUEST,
        };
      }
      for (const demand of state) {
        const free = freeDevices(host, demand);
        if (free < demand.count) {
          return {
            fits: false,
            reason: `${REASON_NOT_ENOUGH_DEVICES}: ${demand.aliases} wanted ${demand.count} ${demand.resourceClass}, found ${free} free`,
            code: CODE_NOT_ENOUGH_DEVICES,
          };
        }
      }
      return { fits: true };
    },
  };
};
