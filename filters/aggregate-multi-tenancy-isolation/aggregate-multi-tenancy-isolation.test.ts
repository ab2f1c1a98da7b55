// Table tests for AggregateMultiTenancyIsolation (after nova/tests/unit/scheduler/filters/
// test_aggregate_multitenancy_isolation_filters.py, and test_request_filter.py's
// require_tenant_aggregate cases for the pre-candidate hook).

import type { AggregateView } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import {
  CODE_PROJECT_NOT_ALLOWED,
  create,
  NAME,
  REASON_NO_TENANT_AGGREGATE,
  REASON_PROJECT_NOT_ALLOWED,
  TENANT_KEY,
} from './index';

const plugin = buildPlugin(create, NAME);

interface Case {
  readonly name: string;
  readonly metadata: Record<string, string>[];
  readonly project: string;
  readonly want: boolean;
}

describe(`${NAME} filter`, () => {
  it.each<Case>([
    { name: 'no metadata passes', metadata: [], project: 'my_tenantid', want: true },
    {
      name: 'aggregates without tenant keys pass',
      metadata: [{ ssd: 'true' }],
      project: 'my_tenantid',
      want: true,
    },
    {
      name: 'with meta passes',
      metadata: [{ [TENANT_KEY]: 'my_tenantid' }],
      project: 'my_tenantid',
      want: true,
    },
    {
      name: 'with meta passes (comma)',
      metadata: [{ [TENANT_KEY]: 'my_tenantid, mytenantid2' }],
      project: 'my_tenantid',
      want: true,
    },
    {
      name: 'fails',
      metadata: [{ [TENANT_KEY]: 'other_tenantid' }],
      project: 'my_tenantid',
      want: false,
    },
    {
      name: 'fails (comma)',
      metadata: [{ [TENANT_KEY]: 'other_tenantid,other_tenantid2' }],
      project: 'my_tenantid',
      want: false,
    },
    {
      name: 'a suffixed key is not read by the host filter (Nova reads filter_tenant_id only)',
      metadata: [{ [TENANT_KEY]: 'p1', filter_tenant_id2: 'my_tenantid' }],
      project: 'my_tenantid',
      want: false,
    },
    {
      name: 'a suffixed key alone restricts nothing',
      metadata: [{ filter_tenant_id_b: 'p1' }],
      project: 'my_tenantid',
      want: true,
    },
    {
      name: 'projects are unioned over the host aggregates',
      metadata: [{ [TENANT_KEY]: 'p1' }, { [TENANT_KEY]: 'p2, my_tenantid' }],
      project: 'my_tenantid',
      want: true,
    },
    {
      name: 'one restricting aggregate restricts the host',
      metadata: [{ [TENANT_KEY]: 'p1' }, { ssd: 'true' }],
      project: 'my_tenantid',
      want: false,
    },
    {
      name: 'an empty tenant value admits no project',
      metadata: [{ [TENANT_KEY]: '' }],
      project: 'my_tenantid',
      want: false,
    },
    {
      name: 'an empty value beside a listing one: the listed projects',
      metadata: [{ [TENANT_KEY]: '' }, { [TENANT_KEY]: 'my_tenantid' }],
      project: 'my_tenantid',
      want: true,
    },
  ])('$name', ({ metadata, project, want }) => {
    const host = buildHostView({
      providers: [{ uuid: 'host1' }],
      aggregates: metadata.map((m, i) => ({ uuid: `agg${i}`, metadata: m })),
    });
    const verdict = verdictOf(plugin, host, buildRequestSpec({ projectId: project }));
    expect(verdict.fits).toBe(want);
    if (!verdict.fits) {
      expect(verdict.code).toBe(CODE_PROJECT_NOT_ALLOWED);
      expect(verdict.reason).toMatch(
        new RegExp(
          `^${REASON_PROJECT_NOT_ALLOWED}: (${project} is not one of the [1-9]\\d* allowed|${TENANT_KEY} is empty, no project is allowed)$`,
        ),
      );
      // The projects it is reserved for are not named (a requester may see only its own).
      for (const m of metadata) {
        for (const v of Object.values(m).flatMap((x) => String(x).split(','))) {
          if (v.trim() && v.trim() !== project) {
            expect(verdict.reason).not.toContain(v.trim());
          }
        }
      }
    }
  });
});

describe(`${NAME} pre-candidate hook`, () => {
  const aggregates: AggregateView[] = [
    { uuid: 'agg-a', name: 'a', metadata: { [TENANT_KEY]: 'owner, other' } },
    { uuid: 'agg-b', name: 'b', metadata: { filter_tenant_id2: 'owner' } },
    { uuid: 'agg-c', name: 'c', metadata: { foo: 'owner' } },
    { uuid: 'agg-d', name: 'd', metadata: { [TENANT_KEY]: 'someone' } },
    { uuid: 'agg-e', name: 'e', metadata: { [TENANT_KEY]: 'owner' } },
    { uuid: 'agg-f', name: 'f', metadata: { [TENANT_KEY]: 'owner ' } },
  ];

  it.each([
    { name: 'disabled by default', config: {}, project: 'owner', want: null },
    {
      // Nova: AggregateList.get_by_metadata(value=project_id), any key starting with
      // filter_tenant_id; the whole value must be the project (no comma lists, no trimming).
      name: 'requires the aggregates with a tenant key whose whole value is the project',
      config: { limitTenantsToPlacementAggregate: true },
      project: 'owner',
      want: { memberOf: [['agg-b', 'agg-e']] },
    },
    {
      name: 'a project only listed in a comma list has no aggregate of its own',
      config: { limitTenantsToPlacementAggregate: true },
      project: 'other',
      want: null,
    },
    {
      name: 'no aggregate for the project, not required',
      config: { limitTenantsToPlacementAggregate: true },
      project: 'nobody',
      want: null,
    },
    {
      name: 'no aggregate for the project, required',
      config: {
        limitTenantsToPlacementAggregate: true,
        placementAggregateRequiredForTenants: true,
      },
      project: 'nobody',
      want: { unsatisfiable: `${REASON_NO_TENANT_AGGREGATE} nobody` },
    },
    {
      name: 'required alone does nothing (Nova: only with limit)',
      config: { placementAggregateRequiredForTenants: true },
      project: 'nobody',
      want: null,
    },
  ])('$name', ({ config, project, want }) => {
    const p = buildPlugin(create, NAME, config);
    const amendment = p.amendRequest!(buildRequestSpec({ projectId: project }), { aggregates });
    if (want === null) {
      expect(amendment).toBeNull();
    } else {
      expect(amendment).toMatchObject(want);
    }
  });

  it('rejects a non-boolean setting at start-up', () => {
    expect(() => buildPlugin(create, NAME, { limitTenantsToPlacementAggregate: 'yes' })).toThrow(
      'config "limitTenantsToPlacementAggregate" must be true or false',
    );
  });
});
