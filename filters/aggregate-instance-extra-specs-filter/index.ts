// AggregateInstanceExtraSpecsFilter: flavor extra specs must match the host's aggregate metadata
// (upstream: nova/scheduler/filters/aggregate_instance_extra_specs.py).

import {
  aggregateMetadataUnion,
  configKeys,
  matchExtraSpec,
  pluginConfig,
} from '../../src/scheduler/helpers';
import type { FilterFactory, Verdict } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'AggregateInstanceExtraSpecsFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** The only extra-spec namespace this filter reads (unscoped keys are read too). */
export const SCOPE = 'aggregate_instance_extra_specs';

/** Rejection: no aggregate of the host has the key. */
export const REASON_KEY_MISSING = 'aggregate metadata lacks an extra-spec key';
/** Rejection: the key is there but no value matches. */
export const REASON_NO_MATCH = 'no aggregate metadata value matches an extra spec';
/** Rejection: a numeric operator met a value that is not a number. */
export const REASON_NOT_NUMERIC = 'numeric extra-spec operator on a non-numeric value';
/** Reason code of {@link REASON_KEY_MISSING}. */
export const CODE_KEY_MISSING = 'aggregate_extra_specs.key_missing';
/** Reason code of {@link REASON_NO_MATCH}. */
export const CODE_NO_MATCH = 'aggregate_extra_specs.no_match';
/** Reason code of {@link REASON_NOT_NUMERIC}. */
export const CODE_NOT_NUMERIC = 'aggregate_extra_specs.not_numeric';

/** The metadata key an extra spec is compared with, or `null` when the spec belongs to another namespace. */
export function metadataKey(specKey: string): string | null {
  const colon = specKey.indexOf(':');
  if (colon < 0) {
    return specKey;
  }
  return specKey.slice(0, colon) === SCOPE ? specKey.slice(colon + 1) : null;
}

function check(key: string, wanted: string, found: readonly string[] | undefined): Verdict {
  if (found === undefined || found.length === 0) {
    return {
      fits: false,
      reason: `${REASON_KEY_MISSING}: key "${key}" wanted "${wanted}", found nothing`,
      code: CODE_KEY_MISSING,
    };
  }
  const errors: string[] = [];
  for (const value of found) {
    const result = matchExtraSpec(value, wanted);
    if (result.matched) {
      return { fits: true };
    }
    if (result.error !== undefined) {
      errors.push(result.error);
    }
  }
  const foundText = found.map((v) => `"${v}"`).join(', ');
  const numeric = errors.length > 0;
  const base = numeric ? `${REASON_NOT_NUMERIC} (${errors[0]})` : REASON_NO_MATCH;
  return {
    fits: false,
    reason: `${base}: key "${key}" wanted "${wanted}", found ${foundText}`,
    code: numeric ? CODE_NOT_NUMERIC : CODE_NO_MATCH,
  };
}

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  filter(host, req) {
    const specs = Object.entries(req.extraSpecs);
    if (specs.length === 0) {
      return { fits: true };
    }
    const metadata = aggregateMetadataUnion(host.aggregates);
    for (const [specKey, wanted] of specs) {
      const key = metadataKey(specKey);
      if (key === null) {
        continue;
      }
      const verdict = check(key, wanted, metadata.get(key));
      if (!verdict.fits) {
        return verdict;
      }
    }
    return { fits: true };
  },
});
