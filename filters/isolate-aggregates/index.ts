// isolate_aggregates: an aggregate whose metadata has `trait:<T>=required` admits only requests
// that require T; for any other request it becomes a forbidden aggregate of the candidate query
// (upstream: nova/scheduler/request_filter.py isolate_aggregates and nova/objects/aggregate.py
// _get_non_matching_by_metadata_keys_from_db, Nova's `[scheduler]
// enable_isolated_aggregate_filtering`). The traits a request requires are Nova's
// `ResourceRequest.all_required_traits`: the single traits its request groups require (an any-of
// set `in:A,B` requires neither alone), plus the flavor's `trait:<T>` / `trait<suffix>:<T>` and
// the image's `image:trait:<T>` extra specs set to `required` (Nova builds the groups from those);
// `root_required` is not among them, in Nova either. Keys and values are compared as written.
import { booleanField, configKeys, pluginConfig, withConfig } from '../../src/scheduler/helpers';
import type {
  AggregateView,
  AmendFactory,
  RequestAmendment,
  RequestSpec,
} from '../../src/scheduler/plugin-api';

/** Nova's function name, as written in `enabledFilters`. */
export const NAME = 'isolate_aggregates';
/** Plugin kind (a pre-candidate hook: it judges no host). */
export const kind = 'filter';

/** The aggregate metadata key prefix, and the extra-spec prefix of a required trait. */
export const TRAIT_PREFIX = 'trait:';
/** The metadata (and extra spec) value that makes a trait required. */
export const REQUIRED = 'required';

// Nova's extra-spec key pattern for traits (scheduler/utils.py XS_KEYPAT, a Python `$` that also
// matches before a final newline): trait, an optional group suffix, a colon, the trait name.
const FLAVOR_TRAIT = /^trait([a-zA-Z0-9_-]{1,64})?:([^\n]*)\n?$/;
const IMAGE_TRAIT = `image:${TRAIT_PREFIX}`;

/** The traits `req` requires, as Nova's `ResourceRequest.all_required_traits` counts them. */
export function requiredTraits(req: RequestSpec): Set<string> {
  const traits = new Set<string>();
  for (const group of req.candidateRequest.groups) {
    for (const anyOf of group.requiredTraits) {
      if (anyOf.length === 1) {
        traits.add(anyOf[0]!);
      }
    }
  }
  for (const [key, value] of Object.entries(req.extraSpecs)) {
    if (value !== REQUIRED) {
      continue;
    }
    const trait = key.startsWith(IMAGE_TRAIT)
      ? key.slice(IMAGE_TRAIT.length)
      : FLAVOR_TRAIT.exec(key)?.[2];
    if (trait !== undefined) {
      traits.add(trait);
    }
  }
  return traits;
}

/**
 * The aggregates `required` does not admit: those with a `trait:<T>` key set to `required` for a
 * T outside it (Nova `AggregateList.get_non_matching_by_metadata_keys`).
 */
export function isolatedAggregates(
  aggregates: readonly AggregateView[],
  required: ReadonlySet<string>,
): string[] {
  return aggregates
    .filter((a) =>
      Object.entries(a.metadata).some(
        ([key, value]) =>
          value === REQUIRED &&
          key.startsWith(TRAIT_PREFIX) &&
          !required.has(key.slice(TRAIT_PREFIX.length)),
      ),
    )
    .map((a) => a.uuid);
}

const CONFIG = pluginConfig({
  enableIsolatedAggregateFiltering: booleanField(
    true,
    'Nova `[scheduler] enable_isolated_aggregate_filtering`; false turns the hook off',
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: Nova's `[scheduler] enable_isolated_aggregate_filtering`. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the hook. Config: `enableIsolatedAggregateFiltering` (default true: listing the plugin
 * turns it on; false turns it off, e.g. in one profile).
 * @throws Error when it is not a boolean.
 */
export const create: AmendFactory = withConfig(CONFIG, (config) => {
  const enabled = config.enableIsolatedAggregateFiltering;
  return {
    name: NAME,
    kind,
    // Failing open would let any request into the isolated aggregates.
    onError: 'closed',
    amendRequest(req, ctx): RequestAmendment | null {
      if (!enabled) {
        return null;
      }
      const forbidden = isolatedAggregates(ctx.aggregates, requiredTraits(req));
      return forbidden.length === 0
        ? null
        : {
            forbiddenAggregates: forbidden,
            note: `forbidden member_of !in:${forbidden.join(',')} (trait-isolated aggregates)`,
          };
    },
  };
});
