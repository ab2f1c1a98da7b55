// AggregateMultiTenancyIsolation: a host in aggregates whose metadata has `filter_tenant_id`
// accepts only the projects listed there (comma-separated, trimmed, unioned over the host's
// aggregates); a host in no such aggregate accepts every project; an empty `filter_tenant_id`
// accepts none (upstream: nova/scheduler/filters/aggregate_multitenancy_isolation.py, which reads
// that one key only). With `limitTenantsToPlacementAggregate`, the aggregates that have a key
// starting with `filter_tenant_id` (`filter_tenant_id2`, `filter_tenant_id_b`, ... : one project
// per key) whose whole value is the project are pushed into the candidate query as member_of, as
// Nova's request filter require_tenant_aggregate does (nova/scheduler/request_filter.py).
import {
  aggregateMetadataUnion,
  booleanField,
  configKeys,
  pluginConfig,
  withConfig,
} from '../../src/scheduler/helpers';
import type {
  AggregateView,
  FilterFactory,
  RequestAmendment,
} from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'AggregateMultiTenancyIsolation';
/** Plugin kind. */
export const kind = 'filter';

/**
 * The aggregate metadata key naming the projects a host is for (host filter), and the prefix of
 * the keys naming one project each (request filter).
 */
export const TENANT_KEY = 'filter_tenant_id';
/** Rejection: the host's aggregates are for other projects. */
export const REASON_PROJECT_NOT_ALLOWED = 'host is reserved for other projects';
/** Reason code of {@link REASON_PROJECT_NOT_ALLOWED}. */
export const CODE_PROJECT_NOT_ALLOWED = 'tenant_isolation.project_not_allowed';
/** Unsatisfiable (placementAggregateRequiredForTenants): no aggregate is for the project. */
export const REASON_NO_TENANT_AGGREGATE = 'No hosts available for tenant';

// Cached host views share frozen aggregate lists: the answer is computed once per list.
const memo = new WeakMap<readonly AggregateView[], ReadonlySet<string> | null>();

/**
 * The projects a host's aggregates admit (Nova `aggregate_metadata_get_by_host(host_state,
 * key="filter_tenant_id")`), or `null` when none of them has the key. An empty value admits none.
 */
function allowedProjects(aggregates: readonly AggregateView[]): ReadonlySet<string> | null {
  const known = memo.get(aggregates);
  if (known !== undefined) {
    return known;
  }
  const values = aggregateMetadataUnion(aggregates).get(TENANT_KEY);
  const allowed = values === undefined ? null : new Set(values);
  if (Object.isFrozen(aggregates)) {
    memo.set(aggregates, allowed);
  }
  return allowed;
}

const CONFIG = pluginConfig({
  limitTenantsToPlacementAggregate: booleanField(
    false,
    "Nova `[scheduler] limit_tenants_to_placement_aggregate`: push the project's aggregates into the candidate query",
  ),
  placementAggregateRequiredForTenants: booleanField(
    false,
    'Nova `[scheduler] placement_aggregate_required_for_tenants`: a project without an aggregate gets no host',
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/**
 * Configuration keys: Nova's `[scheduler] limit_tenants_to_placement_aggregate` and
 * `placement_aggregate_required_for_tenants` (both default false).
 */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the filter. Config: `limitTenantsToPlacementAggregate` (push the project's aggregates
 * into the candidate query) and `placementAggregateRequiredForTenants` (with the former, a project
 * without an aggregate of its own gets no host).
 * @throws Error when a setting is not a boolean.
 */
export const create: FilterFactory = withConfig(CONFIG, (config) => {
  const limit = config.limitTenantsToPlacementAggregate;
  const required = config.placementAggregateRequiredForTenants;
  return {
    name: NAME,
    kind,
    // Failing open would place projects on hosts reserved for others.
    onError: 'closed',
    amendRequest(req, ctx): RequestAmendment | null {
      if (!limit) {
        return null;
      }
      // Nova matches the whole value (AggregateList.get_by_metadata(value=project_id)): one
      // project per key, comma lists are not split.
      const uuids = ctx.aggregates
        .filter((a) =>
          Object.entries(a.metadata).some(
            ([key, value]) => key.startsWith(TENANT_KEY) && value === req.projectId,
          ),
        )
        .map((a) => a.uuid);
      if (uuids.length > 0) {
        return {
          memberOf: [uuids],
          note: `project ${req.projectId}: required member_of in:${uuids.join(',')}`,
        };
      }
      return required ? { unsatisfiable: `${REASON_NO_TENANT_AGGREGATE} ${req.projectId}` } : null;
    },
    filter(host, req) {
      const allowed = allowedProjects(host.aggregates);
      if (allowed === null || allowed.has(req.projectId)) {
        return { fits: true };
      }
      // The other projects are not named: the requester may be scoped to its own project.
      const count = [...allowed].filter((p) => p !== '').length;
      return {
        fits: false,
        reason:
          count === 0
            ? `${REASON_PROJECT_NOT_ALLOWED}: ${TENANT_KEY} is empty, no project is allowed`
            : `${REASON_PROJECT_NOT_ALLOWED}: ${req.projectId} is not one of the ${count} allowed`,
        code: CODE_PROJECT_NOT_ALLOWED,
      };
    },
  };
});
