// docs/writing-a-filter.md, step 4 as written: the example plugin compiled with the guide's
// command into a plugin directory, berth configured with exactly the variables of the guide's
// deploy block (only the directory path differs), and the plugin seen at work in explainPlacement.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const repo = resolve(__dirname, '../..');
const { compilePlugin } = require('../../docs/examples/compile-plugin.cjs') as {
  compilePlugin: (source: string, pluginDir: string) => string;
};

/** The variables of the guide's deploy block (the sh block that sets BERTH_SCHEDULER_FILTERS). */
function guideVariables(): Record<string, string> {
  const guide = readFileSync(join(repo, 'docs/writing-a-filter.md'), 'utf8');
  const block = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((b) => b.includes('BERTH_SCHEDULER_FILTERS='));
  if (!block) {
    throw new Error('the guide has no deploy block setting BERTH_SCHEDULER_FILTERS');
  }
  const vars: Record<string, string> = {};
  for (const line of block.split('\n').filter((l) => /^[A-Z_]+=/.test(l))) {
    const at = line.indexOf('=');
    vars[line.slice(0, at)] = line.slice(at + 1).replace(/^'(.*)'$/, '$1');
  }
  return vars;
}

const EXPLAIN = `query E($i: ScheduleInput!) { explainPlacement(input: $i) {
  filterSteps { filter before after rejections { host { name } code reason } }
  ranking { host { name } weights { weigher multiplier } }
} }`;
const SET_METADATA = `mutation M($uuid: ID!, $metadata: [KeyValueInput!]!) {
  setAggregateMetadata(uuid: $uuid, metadata: $metadata) { uuid }
}`;

describe('the filter guide, deployed as written', () => {
  let t: TestApp;
  let dir: string;
  const vars = guideVariables();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-guide-'));
    compilePlugin(join(repo, 'docs/examples/host-maintenance-filter/index.ts'), dir);
    t = await createTestApp({ ...vars, BERTH_PLUGIN_DIRS: dir });
    const drained = randomUUID();
    const r = await gql(t.app, SET_METADATA, {
      uuid: drained,
      metadata: [{ key: 'maintenance', value: 'CHG-1234' }],
    });
    expect(r.errors).toBeUndefined();
    for (const [name, aggregates] of [
      ['shared', []],
      ['drained', [drained]],
    ] as const) {
      await buildResourceProvider(t.app.services, {
        name,
        inventories: [
          { resourceClass: 'VCPU', total: 16 },
          { resourceClass: 'MEMORY_MB', total: 16384 },
          { resourceClass: 'DISK_GB', total: 500 },
        ],
        aggregates: [...aggregates],
      });
    }
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets the filter and weigher lists and the plugin configuration', () => {
    expect(vars.BERTH_SCHEDULER_FILTERS?.split(',')).toContain('HostMaintenanceFilter');
    expect(vars.BERTH_SCHEDULER_WEIGHERS).toBeDefined();
    expect(JSON.parse(vars.BERTH_SCHEDULER_CONFIG ?? '')).toMatchObject({
      HostMaintenanceFilter: { exemptProjects: ['ops'] },
    });
  });

  it.each([
    ['acme', ['shared'], 1],
    ['ops', ['drained', 'shared'], 0],
  ])('shows the plugin at work for project %s', async (project, hosts, rejected) => {
    const r = await gql(t.app, EXPLAIN, {
      i: {
        consumerUuids: [randomUUID()],
        projectId: project,
        userId: 'u',
        request: { groups: [{ resources: [{ resourceClass: 'MEMORY_MB', amount: 512 }] }] },
      },
    });
    expect(r.errors).toBeUndefined();
    const e = r.data.explainPlacement;
    const step = e.filterSteps.find(
      (s: { filter: string }) => s.filter === 'HostMaintenanceFilter',
    );
    expect(step).toMatchObject({ before: 2, after: 2 - rejected });
    const drained = { name: 'drained' };
    const why = { code: 'maintenance.in_progress', reason: 'host is in maintenance (CHG-1234)' };
    expect(step.rejections).toEqual(rejected === 0 ? [] : [{ host: drained, ...why }]);
    expect(e.ranking.map((h: { host: { name: string } }) => h.host.name).sort()).toEqual(hosts);
    // BERTH_SCHEDULER_CONFIG's RAMWeigher multiplier reached the weigher.
    const multipliers = e.ranking[0].weights.map((w: { weigher: string; multiplier: number }) => [
      w.weigher,
      w.multiplier,
    ]);
    expect(multipliers).toContainEqual(['RAMWeigher', -1]);
  });
});
