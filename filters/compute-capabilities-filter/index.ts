// ComputeCapabilitiesFilter: flavor extra specs in the `capabilities:` scope must match the host's
// state (upstream: nova/scheduler/filters/compute_capabilities_filter.py). `capabilities:a:b` reads
// host attribute `a` (or, when the host has no such attribute, compute stat `a`), then key `b` of
// it (a JSON text is parsed first), and matches Python's `str()` of it with Nova's extra-spec
// operators (`>= 1024`, `s== x`, `<in> y`, ...). An unscoped key is read the same way when it names
// a host attribute or stat (Nova's backward compatibility); other scopes are ignored. Host state is
// berth's reading of Nova's HostState (filters/host-state: free_ram_mb, vcpus_used, num_instances,
// host_ip, hypervisor_version, stats.num_instances / io_workload, ...). Attributes Placement holds
// nothing for (cpu_info, hypervisor_type, supported_instances, metrics, other stats) fail the spec,
// as a missing capability does in Nova: for Ironic-style capabilities use traits (`trait:CUSTOM_X`).
// Config `countMovesOn` (`both`, or `source` as Nova): where a moving consumer counts in
// num_instances, num_io_ops and the stats (filters/host-counts).
import { configKeys, matchExtraSpec, pluginConfig, withConfig } from '../../src/scheduler/helpers';
import type { FilterFactory, HostView, Verdict } from '../../src/scheduler/plugin-api';
import { MOVE_COUNTING_KEY, type MoveCounting, moveCountingField } from '../host-counts';
import {
  FLOAT_ATTRIBUTES,
  hostStateValue,
  isHostStateAttribute,
  type PyValue,
  pyStr,
  STATS_KEYS,
  UNMAPPED_ATTRIBUTES,
} from '../host-state';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'ComputeCapabilitiesFilter';
/** Plugin kind. */
export const kind = 'filter';

/** The extra-spec scope this filter reads. */
export const SCOPE = 'capabilities';

/** Rejection: the host state has no value at the spec's path. */
export const REASON_UNAVAILABLE = 'host state lacks the capability';
/** Rejection: the value does not match. */
export const REASON_NO_MATCH = 'host capability does not match the extra spec';
/** Reason code of {@link REASON_UNAVAILABLE}. */
export const CODE_UNAVAILABLE = 'compute_capabilities.unavailable';
/** Reason code of {@link REASON_NO_MATCH}. */
export const CODE_NO_MATCH = 'compute_capabilities.no_match';

/** One spec to check: its key, the attribute path, and the requirement. */
interface Spec {
  readonly key: string;
  readonly path: readonly string[];
  readonly wanted: string;
}

/** The specs this filter reads, in the request's order (Nova `_satisfies_extra_specs`). */
export function capabilitySpecs(extraSpecs: Readonly<Record<string, string>>): Spec[] {
  const specs: Spec[] = [];
  for (const [key, wanted] of Object.entries(extraSpecs)) {
    const scope = key.split(':');
    if (scope.length === 1) {
      if (isHostStateAttribute(key) || STATS_KEYS.includes(key)) {
        specs.push({ key, path: scope, wanted });
      }
    } else if (scope[0] === SCOPE) {
      specs.push({ key, path: scope.slice(1), wanted });
    }
  }
  return specs;
}

const isDict = (v: PyValue): v is { readonly [key: string]: PyValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Nova `_get_capabilities`: the value at `path`, or null where Nova gets None. */
function capabilityAt(host: HostView, path: readonly string[], moves: MoveCounting): PyValue {
  let cap: PyValue = null;
  for (const [i, item] of path.entries()) {
    if (i === 0) {
      // The host itself: an attribute, else a compute stat. `service` is a ReadOnlyDict in Nova,
      // not a dict, so nothing below it can be read.
      const attribute = item === 'service' ? null : hostStateValue(host, item, moves);
      const stats = hostStateValue(host, 'stats', moves) as Record<string, PyValue>;
      cap = attribute ?? (Object.hasOwn(stats, item) ? stats[item]! : null);
    } else {
      if (typeof cap === 'string') {
        try {
          cap = JSON.parse(cap) as PyValue;
        } catch {
          return null;
        }
      }
      cap = isDict(cap) && Object.hasOwn(cap, item) ? cap[item]! : null;
    }
    if (cap === null) {
      return null;
    }
  }
  return cap;
}

function check(host: HostView, spec: Spec, moves: MoveCounting): Verdict {
  const cap = capabilityAt(host, spec.path, moves);
  if (cap === null) {
    const top = spec.path[0] ?? '';
    const why = UNMAPPED_ATTRIBUTES.includes(top)
      ? `berth holds no ${top}`
      : `no value at ${spec.path.join(':')}`;
    return {
      fits: false,
      reason: `${REASON_UNAVAILABLE}: ${spec.key} (${why})`,
      code: CODE_UNAVAILABLE,
    };
  }
  const value = pyStr(cap, spec.path.length === 1 && FLOAT_ATTRIBUTES.has(spec.path[0]!));
  if (matchExtraSpec(value, spec.wanted).matched) {
    return { fits: true };
  }
  return {
    fits: false,
    reason: `${REASON_NO_MATCH}: ${spec.key} wanted "${spec.wanted}", the host has "${value}"`,
    code: CODE_NO_MATCH,
  };
}

const CONFIG = pluginConfig({
  [MOVE_COUNTING_KEY]: moveCountingField(),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: `countMovesOn` (filters/host-counts). */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Creates the filter. @throws Error for an unknown `countMovesOn`. */
export const create: FilterFactory<readonly Spec[]> = withConfig(CONFIG, (config) => {
  const moves = config[MOVE_COUNTING_KEY] as MoveCounting;
  return {
    name: NAME,
    kind,
    onError: 'closed',
    prepare: (req) => capabilitySpecs(req.extraSpecs),
    filter(host, _req, specs) {
      for (const spec of specs) {
        const verdict = check(host, spec, moves);
        if (!verdict.fits) {
          return verdict;
        }
      }
      return { fits: true };
    },
  };
});
