// AggregateInstanceTypeFilter: flavor extra specs against aggregate metadata with * ~ ! sentinels, and
// the reverse check when an aggregate sets force_metadata_check (upstream: openstack/nfv-filters
// nfv_filters/nova/scheduler/filters/aggregate_instance_type_filter.py; design note wins where they differ).
import { aggregateMetadataUnion, configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory, Verdict } from '../../src/scheduler/plugin-api';
import {
  type Alternatives,
  aggregateSide,
  describeSide,
  parseAlternatives,
  type Side,
  satisfied,
} from './alternatives';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'AggregateInstanceTypeFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Extra-spec scope read as if unscoped; stripped from keys on both sides. */
export const SCOPE = 'aggregate_instance_extra_specs';
/** Reserved aggregate key turning on the aggregate -> flavor check. */
export const FORCE_KEY = 'force_metadata_check';
/** Values of `force_metadata_check` that leave it off (compared case-insensitively). */
export const FALSE_VALUES: readonly string[] = ['false', '0', 'no', 'off'];

/** Rejection: a flavor extra spec is malformed (e.g. `!` with `*` or `~`). */
export const REASON_INVALID_FLAVOR_SPEC = 'invalid flavor extra spec';
/** Rejection: an aggregate value is malformed (force mode only; otherwise values are literal). */
export const REASON_INVALID_AGGREGATE_VALUE = 'invalid aggregate metadata value';
/** Rejection: the host's aggregates do not satisfy a flavor extra spec. */
export const REASON_FLAVOR_UNSATISFIED = 'aggregate metadata does not satisfy flavor extra spec';
/** Rejection: with force_metadata_check, the flavor does not satisfy an aggregate key. */
export const REASON_AGGREGATE_UNSATISFIED =
  'flavor does not satisfy aggregate metadata (force_metadata_check)';
/** Reason code of {@link REASON_INVALID_FLAVOR_SPEC}. */
export const CODE_INVALID_FLAVOR_SPEC = 'aggregate_instance_type.invalid_flavor_spec';
/** Reason code of {@link REASON_INVALID_AGGREGATE_VALUE}. */
export const CODE_INVALID_AGGREGATE_VALUE = 'aggregate_instance_type.invalid_aggregate_value';
/** Reason code of {@link REASON_FLAVOR_UNSATISFIED}. */
export const CODE_FLAVOR_UNSATISFIED = 'aggregate_instance_type.flavor_unsatisfied';
/** Reason code of {@link REASON_AGGREGATE_UNSATISFIED}. */
export const CODE_AGGREGATE_UNSATISFIED = 'aggregate_instance_type.aggregate_unsatisfied';

/** Each rejection reason's code. */
const CODE_OF: Readonly<Record<string, string>> = {
  [REASON_INVALID_FLAVOR_SPEC]: CODE_INVALID_FLAVOR_SPEC,
  [REASON_INVALID_AGGREGATE_VALUE]: CODE_INVALID_AGGREGATE_VALUE,
  [REASON_FLAVOR_UNSATISFIED]: CODE_FLAVOR_UNSATISFIED,
  [REASON_AGGREGATE_UNSATISFIED]: CODE_AGGREGATE_UNSATISFIED,
};

/** One flavor extra spec, parsed once per request. */
interface FlavorSpec {
  readonly specKey: string;
  /** Key compared with aggregate metadata (scope stripped). */
  readonly key: string;
  /** Unscoped and scoped keys are mandatory; other namespaces only count when the aggregates have them. */
  readonly mandatory: boolean;
  readonly raw: string;
  readonly alts: Alternatives | string;
}

/** Strips the `aggregate_instance_extra_specs:` scope. */
export function stripScope(key: string): string {
  return key.startsWith(`${SCOPE}:`) ? key.slice(SCOPE.length + 1) : key;
}

function parseFlavor(extraSpecs: Readonly<Record<string, string>>): FlavorSpec[] {
  return Object.entries(extraSpecs).map(([specKey, raw]) => ({
    specKey,
    key: stripScope(specKey),
    mandatory: !specKey.includes(':') || specKey.startsWith(`${SCOPE}:`),
    raw,
    alts: parseAlternatives(raw),
  }));
}

type SideOf = (key: string) => Side | string;

function fail(why: string, key: string, wanted: string, found: string, error?: string): Verdict {
  const detail = error === undefined ? '' : ` (${error})`;
  return {
    fits: false,
    reason: `${why}: key "${key}" wanted "${wanted}", found ${found}${detail}`,
    code: CODE_OF[why]!,
  };
}

/** Flavor -> aggregates: every flavor key must be satisfied (use cases 1-3, 7). */
function checkFlavor(specs: readonly FlavorSpec[], sideOf: SideOf): Verdict | null {
  for (const { specKey, key, mandatory, raw, alts } of specs) {
    if (typeof alts === 'string') {
      return fail(REASON_INVALID_FLAVOR_SPEC, specKey, raw, 'an invalid value', alts);
    }
    const side = sideOf(key);
    if (typeof side === 'string') {
      return fail(REASON_INVALID_AGGREGATE_VALUE, key, raw, 'an invalid value', side);
    }
    const result = side.present || mandatory ? satisfied(alts, side) : { matched: true };
    if (!result.matched) {
      return fail(REASON_FLAVOR_UNSATISFIED, specKey, raw, describeSide(side), result.error);
    }
  }
  return null;
}

/** Aggregates -> flavor under force_metadata_check: every aggregate key must be satisfied (use cases 4-7). */
function checkAggregates(
  keys: Iterable<string>,
  specs: readonly FlavorSpec[],
  sideOf: SideOf,
): Verdict | null {
  for (const key of keys) {
    if (key === FORCE_KEY) {
      continue;
    }
    const side = sideOf(key);
    if (typeof side === 'string') {
      return fail(REASON_INVALID_AGGREGATE_VALUE, key, '(a valid value)', 'an invalid value', side);
    }
    if (!side.present) {
      continue;
    }
    const entries = specs.filter((s) => s.key === key);
    const flavorSides: Side[] =
      entries.length === 0
        ? [{ present: false }]
        : entries.map((s) => ({ present: true, alts: s.alts as Alternatives, literal: false }));
    for (const flavorSide of flavorSides) {
      const result = satisfied(side.alts, flavorSide);
      if (!result.matched) {
        return fail(
          REASON_AGGREGATE_UNSATISFIED,
          key,
          side.alts.text,
          describeSide(flavorSide),
          result.error,
        );
      }
    }
  }
  return null;
}

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory<FlavorSpec[]> = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  prepare: (req) => parseFlavor(req.extraSpecs),
  filter(host, _req, specs) {
    const metadata = aggregateMetadataUnion(host.aggregates, stripScope);
    const flags = metadata.get(FORCE_KEY) ?? [];
    const force = flags.some((v) => !FALSE_VALUES.includes(v.toLowerCase()));
    const sideOf: SideOf = (key) => aggregateSide(metadata.get(key), force);
    const verdict =
      checkFlavor(specs, sideOf) ??
      (force ? checkAggregates(metadata.keys(), specs, sideOf) : null);
    return verdict ?? { fits: true };
  },
});
