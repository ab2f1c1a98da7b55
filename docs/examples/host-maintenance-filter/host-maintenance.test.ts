// Table test for the example HostMaintenanceFilter plugin.
import {
  buildHostView,
  buildPlugin,
  buildRequestSpec,
  isReasonCode,
} from '../../../src/scheduler/plugin-testing';
import * as maintenance from './index';
import { CODE_IN_MAINTENANCE, NAME, REASON_IN_MAINTENANCE } from './index';

// Built as berth builds it: the configuration checked against the schema, then create().
const plugin = buildPlugin(maintenance, { exemptProjects: ['ops'] });

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
      name: 'aggregate without the maintenance key',
      metadata: [{ ssd: 'true' }],
      project: 'p1',
      want: true,
    },
    {
      name: 'maintenance key left empty',
      metadata: [{ maintenance: '' }],
      project: 'p1',
      want: true,
    },
    {
      name: 'host in maintenance',
      metadata: [{ ssd: 'true' }, { maintenance: 'CHG-1234' }],
      project: 'p1',
      want: false,
    },
    {
      name: 'host in maintenance, exempt project',
      metadata: [{ maintenance: 'CHG-1234' }],
      project: 'ops',
      want: true,
    },
  ])('$name -> $want', async ({ metadata, project, want }) => {
    const host = buildHostView({
      providers: [{ uuid: 'host1', name: 'compute-1' }],
      aggregates: metadata.map((m, i) => ({ uuid: `agg${i}`, metadata: m })),
    });
    // filter() returns Verdict | Promise<Verdict> (a filter may be async): await it.
    const verdict = await plugin.filter(host, buildRequestSpec({ projectId: project }), undefined);
    expect(verdict.fits).toBe(want);
    const rejected = {
      fits: false,
      reason: `${REASON_IN_MAINTENANCE} (CHG-1234)`,
      code: CODE_IN_MAINTENANCE,
    };
    expect(verdict).toEqual(want ? { fits: true } : rejected);
  });

  it('gives every host of one maintenance the same code and reason (the host is known already)', async () => {
    const request = buildRequestSpec({ projectId: 'p1' });
    const reasons = new Set<string>();
    for (const name of ['compute-1', 'compute-2']) {
      const host = buildHostView({
        providers: [{ uuid: name, name }],
        aggregates: [{ uuid: 'agg', metadata: { maintenance: 'CHG-1234' } }],
      });
      const verdict = await plugin.filter(host, request, undefined);
      reasons.add(verdict.fits ? 'fits' : `${verdict.code}: ${verdict.reason}`);
    }
    expect([...reasons]).toEqual([`${CODE_IN_MAINTENANCE}: ${REASON_IN_MAINTENANCE} (CHG-1234)`]);
    expect(isReasonCode(CODE_IN_MAINTENANCE)).toBe(true);
  });

  it('rejects an exemptProjects that is not a list of strings', () => {
    expect(() => buildPlugin(maintenance, { exemptProjects: 'ops' })).toThrow(
      `${NAME}: config "exemptProjects" must be a list of project ids`,
    );
  });
});
