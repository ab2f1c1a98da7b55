// Table test for the example AggregateMultiTenancyIsolation plugin.
import { buildHostView, buildRequestSpec } from '../../../src/scheduler/helpers';
import { create, NAME, REASON_PROJECT_NOT_ALLOWED } from './index';

const plugin = create({}, { name: NAME, config: {}, log: () => {} });

interface Case {
  readonly name: string;
  readonly metadata: Record<string, string>[];
  readonly project: string;
  readonly want: boolean;
}

describe(NAME, () => {
  it.each<Case>([
    { name: 'host in no aggregate', metadata: [], project: 'p1', want: true },
    {
      name: 'aggregate without tenant keys',
      metadata: [{ ssd: 'true' }],
      project: 'p1',
      want: true,
    },
    {
      name: 'project listed',
      metadata: [{ filter_tenant_id: 'p1, p2' }],
      project: 'p2',
      want: true,
    },
    {
      name: 'project in a second key',
      metadata: [{ filter_tenant_id: 'p1', filter_tenant_id2: 'p3' }],
      project: 'p3',
      want: true,
    },
    {
      name: 'project not listed',
      metadata: [{ filter_tenant_id: 'p1' }, { ssd: 'true' }],
      project: 'p9',
      want: false,
    },
  ])('$name -> $want', ({ metadata, project, want }) => {
    const host = buildHostView({
      providers: [{ uuid: 'host1' }],
      aggregates: metadata.map((m, i) => ({ uuid: `agg${i}`, metadata: m })),
    });
    const verdict = plugin.filter(host, buildRequestSpec({ projectId: project }), undefined);
    expect(verdict).toEqual(
      want
        ? { fits: true }
        : { fits: false, reason: expect.stringContaining(REASON_PROJECT_NOT_ALLOWED) },
    );
  });
});
