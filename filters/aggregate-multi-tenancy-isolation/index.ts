// AggregateMultiTenancyIsolation: a host in aggregates whose metadata has `filter_tenant_id` (or
// any key starting with it: `filter_tenant_id2`, `filter_tenant_id_b`, ... for lists longer than
// one metadata value) accepts only the projects listed there (comma-separated, unioned over the
// host's aggregates); a host in no such aggregate accepts every project. With
// `limitTenantsToPlacementAggregate`, the project's aggregates are also pushed into the candidate
// query as member_of, as Nova's request filter require_tenant_aggregate does (upstream:
// nova/scheduler/filters/aggregate_multitenancy_isolation.py, nova/scheduler/request_filter.py).
import {
  aggregateMetadataUnion,
  readBooleanOrThrow,
  splitMetadataValue,
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
 * Configuration keys: Nova's `[scheduler] limit_tenants_to_placement_aggregate` and
 * `placement_aggregate_required_for_tenants` (both default false).
 */
export const CONFIG_KEYS: readonly string[] = [
  'limitTenantsToPlacementAggregate',
  'placementAggregateRequiredForTenants',
];

/** The aggregate metadata key (and key prefix) naming the projects a host is for. */
export const TENANT_KEY = 'filter_tenant_id';
/** Rejection: the host's aggregates are for other projects. */
export const REASON_PROJECT_NOT_ALLOWED = 'host is reserved for other projects';
/** Unsatisfiable (placementAggregateRequiredForTenants): no aggregate is for the project. */
export const REASON_NO_TENANT_AGGREGATE = 'No hosts available for tenant';

// Cached host views share frozen aggregate lists: the answer is computed once per list.
const memo = new WeakMap<readonly AggregateView[], ReadonlySet<string> | null>();

/** The projects a host's aggregates admit, or `null` when none of them restricts projects. */
function allowedProjects(aggregates: readonly AggregateView[]): ReadonlySet<string> | null {
  const known = memo.get(aggregates);
  if (known !== undefined) {
    return known;
  }
  const allowed = collect(aggregateMetadataUnion(aggregates));
  if (Object.isFrozen(aggregates)) {
    memo.set(aggregates, allowed);
  }
  return allowed;
}

function collect(metadata: ReadonlyMap<string, readonly string[]>): ReadonlySet<string> | null {
  let allowed: Set<string> | null = null;
  for (const [key, values] of metadata) {
    if (key.startsWith(TENANT_KEY)) {
      allowed ??= new Set();
      for (const v of values) {
        if (v !== '') {
          allowed.add(v);
        }
      }
    }
  }
  return allowed === null || allowed.size === 0 ? null : allowed;
}

/**
 * Creates the filter. Config: `limitTenantsToPlacementAggregate` (push the project's aggregates
 * into the candidate query) and `placementAggregateRequiredForTenants` (with the former, a project
 * without an aggregate of its own gets no host).
 * @throws Error when a setting is not a boolean.
 */
export const create: FilterFactory = (_config, handle) => {
  const limit = readBooleanOrThrow(handle, 'limitTenantsToPlacementAggregate', false);
  const required = readBooleanOrThrow(handle, 'placementAggregateRequiredForTenants', false);
  return {
    name: NAME,
    kind,
    // Failing open would place projects on hosts reserved for others.
    onError: 'closed',
    amendRequest(req, ctx): RequestAmendment | null {
      if (!limit) {
        return null;
      }
      const uuids = ctx.aggregates
        .filter((a) =>
          Object.entries(a.metadata).some(
            ([key, raw]) =>
              key.startsWith(TENANT_KEY) && splitMetadataValue(raw).includes(req.projectId),
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
      return {
        fits: false,
        reason: `${REASON_PROJECT_NOT_ALLOWED}: ${req.projectId} is not one of the ${allowed.size} allowed`,
      };
    },
  };
};
