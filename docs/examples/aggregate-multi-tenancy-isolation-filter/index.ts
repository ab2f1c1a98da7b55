// AggregateMultiTenancyIsolation: hosts in aggregates with filter_tenant_id* metadata take only those projects
// (upstream: nova/scheduler/filters/aggregate_multitenancy_isolation.py).
import type { FilterFactory } from '../../../src/scheduler/plugin-api';

export const NAME = 'AggregateMultiTenancyIsolation';
export const kind = 'filter';
export const REASON_PROJECT_NOT_ALLOWED = 'host is reserved for other projects';

export const create: FilterFactory = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  filter(host, req) {
    const allowed = host.aggregates.flatMap((aggregate) =>
      Object.entries(aggregate.metadata)
        .filter(([key]) => key.startsWith('filter_tenant_id'))
        .flatMap(([, value]) => value.split(',').map((id) => id.trim())),
    );
    if (allowed.length === 0 || allowed.includes(req.projectId)) {
      return { fits: true };
    }
    return {
      fits: false,
      reason: `${REASON_PROJECT_NOT_ALLOWED}: ${req.projectId} not in ${allowed.join(', ')}`,
    };
  },
});
