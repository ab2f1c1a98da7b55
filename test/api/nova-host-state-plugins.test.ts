// The Nova plugins that read host state through berth's conventions, end to end through
// explainPlacement: JsonFilter ($free_ram_mb from inventories), SimpleCIDRAffinityFilter (host IP
// traits CUSTOM_HOST_IP_*), MetricsWeigher (metric traits CUSTOM_METRIC_*) and CrossCellWeigher
// (aggregate metadata `cell`), with traits and metadata set through the services as a deployer
// would set them through the API.
import { randomUUID } from 'node:crypto';
import { hostIpTrait } from '../../filters/host-state/ip';
import { metricTrait } from '../../filters/host-state/metrics';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const EXPLAIN = `query E($input: ScheduleInput!) {
  explainPlacement(input: $input) {
    filterSteps { filter after rejections { host { name } reason code } }
    ranking { host { name } weight }
    pluginFailures { plugin message }
  }
}`;

describe('Nova host-state plugins through explainPlacement', () => {
  let t: TestApp;
  const p = `hs${randomUUID().slice(0, 6)}`;

  beforeAll(async () => {
    t = await createTestApp({
      BERTH_SCHEDULER_FILTERS: 'ComputeFilter,JsonFilter,SimpleCIDRAffinityFilter',
      BERTH_SCHEDULER_WEIGHERS: 'MetricsWeigher,CrossCellWeigher',
      BERTH_SCHEDULER_CONFIG: JSON.stringify({
        MetricsWeigher: { weightSetting: ['cpu.frequency=1'] },
      }),
    });
    const hosts = [
      { name: `${p}-a`, ip: '10.8.1.1', mhz: 2000, ram: 4096, cell: 'cell1' },
      { name: `${p}-b`, ip: '10.8.1.2', mhz: 3000, ram: 1024, cell: 'cell2' },
      { name: `${p}-c`, ip: '10.9.0.1', mhz: 4000, ram: 4096, cell: 'cell2' },
    ];
    const cells: Record<string, string> = { cell1: randomUUID(), cell2: randomUUID() };
    for (const [cell, uuid] of Object.entries(cells)) {
      await t.app.services.aggregates.setMetadata(uuid, `${p}-${cell}`, [
        { key: 'cell', value: cell },
      ]);
    }
    for (const h of hosts) {
      const traits = [hostIpTrait(h.ip), metricTrait('cpu.frequency', h.mhz)];
      for (const trait of traits) {
        await t.app.services.traits.create(trait);
      }
      await buildResourceProvider(t.app.services, {
        name: h.name,
        inventories: [
          { resourceClass: 'VCPU', total: 8 },
          { resourceClass: 'MEMORY_MB', total: h.ram },
        ],
        traits,
        aggregates: [cells[h.cell]!],
      });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const explain = async (hints: { key: string; values: string[] }[]) => {
    const r = await gql(t.app, EXPLAIN, {
      input: {
        consumerUuids: [randomUUID()],
        projectId: 'p',
        userId: 'u',
        request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
        hints,
      },
    });
    expect(r.errors).toBeUndefined();
    return r.data.explainPlacement;
  };
  const names = (ranking: { host: { name: string } }[]) => ranking.map((r) => r.host.name);

  it('ranks by the metric trait when no hint narrows the hosts', async () => {
    const e = await explain([]);
    expect(e.pluginFailures).toEqual([]);
    expect(names(e.ranking)).toEqual([`${p}-c`, `${p}-b`, `${p}-a`]);
  });

  it('keeps hosts whose IP trait is in the hinted network, then those the query holds for', async () => {
    const near = await explain([{ key: 'build_near_host_ip', values: ['10.8.1.200'] }]);
    expect(names(near.ranking)).toEqual([`${p}-b`, `${p}-a`]);
    const cidr = near.filterSteps.find(
      (s: { filter: string }) => s.filter === 'SimpleCIDRAffinityFilter',
    );
    expect(cidr.rejections).toEqual([
      {
        host: { name: `${p}-c` },
        reason: 'host IP outside the network asked for: 10.9.0.1, not in 10.8.1.200/24',
        code: 'cidr_affinity.outside',
      },
    ]);
    const both = await explain([
      { key: 'build_near_host_ip', values: ['10.8.1.200'] },
      { key: 'query', values: ['[">=", "$free_ram_mb", 2048]'] },
    ]);
    expect(names(both.ranking)).toEqual([`${p}-a`]);
  });

  it('prefers the source cell of a cross-cell move over a better metric', async () => {
    const e = await explain([
      { key: 'requested_destination_cell', values: ['cell1'] },
      { key: 'allow_cross_cell_move', values: ['true'] },
    ]);
    expect(names(e.ranking)[0]).toBe(`${p}-a`);
    expect(e.ranking[0].weight).toBe(1000000);
  });
});
