// explainPlacement reports what plugins did as typed objects: requestAmendments (the constraints
// each pre-candidate hook added) and pluginFailures (isolated failures), no JSON inside strings.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const EXPLAIN = `query E($i: ScheduleInput!) {
  explainPlacement(input: $i) {
    selections { host { uuid } }
    requestAmendments {
      plugin memberOf forbiddenAggregates rootRequiredTraits rootForbiddenTraits
      unsatisfiable note failure { plugin }
    }
    pluginFailures { plugin phase cause policy message hostUuid }
  }
}`;

const FORBIDDEN = randomUUID();

/** Operator plugins: one amends the request, one throws for every host (and fails open). */
const AMENDER = `exports.NAME = 'ForbidFilter'; exports.kind = 'filter';
exports.create = () => ({ name: 'ForbidFilter', kind: 'filter', onError: 'closed',
  amendRequest: () => ({ forbiddenAggregates: ['${FORBIDDEN}'], rootForbiddenTraits: ['COMPUTE_STATUS_DISABLED'], note: 'house rules' }) });`;
const THROWER = `exports.NAME = 'BrokenFilter'; exports.kind = 'filter';
exports.create = () => ({ name: 'BrokenFilter', kind: 'filter', onError: 'open',
  filter: () => { throw new Error('disk on fire'); } });`;

describe('explainPlacement plugin report', () => {
  let t: TestApp;
  let dir: string;
  let host: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-report-'));
    writeFileSync(join(dir, 'forbid-filter.js'), AMENDER);
    writeFileSync(join(dir, 'broken-filter.js'), THROWER);
    t = await createTestApp({
      BERTH_PLUGIN_DIRS: dir,
      BERTH_SCHEDULER_FILTERS: 'ForbidFilter,BrokenFilter',
      BERTH_SCHEDULER_WEIGHERS: 'none',
    });
    host = (
      await buildResourceProvider(t.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 8 }],
      })
    ).uuid;
    await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
      aggregates: [FORBIDDEN],
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('returns the amendments and the isolated failures as typed fields', async () => {
    const r = await gql(t.app, EXPLAIN, {
      i: {
        consumerUuids: [randomUUID()],
        projectId: 'p',
        userId: 'u',
        request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
      },
    });
    expect(r.errors).toBeUndefined();
    const e = r.data.explainPlacement;
    // The forbidden aggregate took the other host out before any filter ran.
    expect(e.selections).toEqual([{ host: { uuid: host } }]);
    expect(e.requestAmendments).toEqual([
      {
        plugin: 'ForbidFilter',
        memberOf: [],
        forbiddenAggregates: [FORBIDDEN],
        rootRequiredTraits: [],
        rootForbiddenTraits: ['COMPUTE_STATUS_DISABLED'],
        unsatisfiable: null,
        note: 'house rules',
        failure: null,
      },
    ]);
    expect(e.pluginFailures).toEqual([
      {
        plugin: 'BrokenFilter',
        phase: 'FILTER',
        cause: 'ERROR',
        policy: 'OPEN',
        message: 'disk on fire',
        hostUuid: host,
      },
    ]);
  });
});
