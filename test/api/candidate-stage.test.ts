// "Why no valid host?" when Placement finds no allocation candidate at all: explainPlacement and
// schedule name the constraint that removed every host and the hosts closest to fitting, on a
// 50-host cloud, including constraints a scheduler plugin pushed into the request.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const STAGE = `candidateStage {
  hostsTotal hostsWithCandidates summary
  constraints { kind code group label resourceClass amount hostsAlone hostsAfter }
  blocking { code label }
  closestMisses { host { name } misses { kind code message } }
}`;
const EXPLAIN = `query E($i: ScheduleInput!) {
  explainPlacement(input: $i) { selections { host { name } reason } ${STAGE} }
}`;
const SCHEDULE = `mutation S($i: ScheduleInput!) {
  schedule(input: $i) { selections { host { name } reason } ${STAGE} }
}`;

const QUARANTINE = randomUUID();
/** An operator plugin that keeps every request out of one aggregate. */
const QUARANTINE_PLUGIN = `exports.NAME = 'QuarantineFilter'; exports.kind = 'filter';
exports.create = () => ({ name: 'QuarantineFilter', kind: 'filter', onError: 'closed',
  amendRequest: () => ({ forbiddenAggregates: ['${QUARANTINE}'], note: 'quarantine' }) });`;

const input = (resources: Record<string, number>, required: string[] = []) => ({
  consumerUuids: [randomUUID()],
  projectId: 'p',
  userId: 'u',
  request: {
    groups: [
      {
        resources: Object.entries(resources).map(([resourceClass, amount]) => ({
          resourceClass,
          amount,
        })),
        required,
      },
    ],
  },
});

describe('the candidate stage of explainPlacement and schedule', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-stage-'));
    writeFileSync(join(dir, 'quarantine-filter.js'), QUARANTINE_PLUGIN);
    t = await createTestApp({
      BERTH_PLUGIN_DIRS: dir,
      BERTH_SCHEDULER_FILTERS: 'QuarantineFilter,ComputeFilter,RamFilter',
    });
    await t.app.services.traits.create('CUSTOM_GOLD');
    for (let i = 1; i <= 50; i++) {
      await buildResourceProvider(t.app.services, {
        name: `host-${String(i).padStart(2, '0')}`,
        inventories: [
          { resourceClass: 'VCPU', total: 32, allocationRatio: 4 },
          { resourceClass: 'MEMORY_MB', total: i === 7 ? 512_000 : 131_072 },
        ],
        traits: i % 10 === 0 ? ['CUSTOM_GOLD'] : [],
        // host-49 and host-50 sit in quarantine: only the plugin's amendment keeps them out.
        aggregates: i >= 49 ? [QUARANTINE] : [],
      });
    }
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the resource that removed every host, and the closest hosts with what they lack', async () => {
    const r = await gql(t.app, EXPLAIN, {
      i: input({ VCPU: 16, MEMORY_MB: 600_000 }, ['CUSTOM_GOLD']),
    });
    expect(r.errors).toBeUndefined();
    const e = r.data.explainPlacement;
    const stage = e.candidateStage;
    expect(stage.hostsTotal).toBe(50);
    expect(stage.hostsWithCandidates).toBe(0);
    expect(stage.blocking.map((b: { label: string }) => b.label)).toEqual(['MEMORY_MB: 600000']);
    const rows = stage.constraints.map((c: Record<string, unknown>) => [
      c.kind,
      c.label,
      c.hostsAlone,
      c.hostsAfter,
    ]);
    expect(rows).toEqual([
      ['RESOURCE_CAPACITY', 'VCPU: 16', 50, 50],
      ['RESOURCE_UNITS', 'VCPU: 16 within min_unit, max_unit and step_size', 50, 50],
      ['RESOURCE_CAPACITY', 'MEMORY_MB: 600000', 0, 0],
      ['RESOURCE_UNITS', 'MEMORY_MB: 600000 within min_unit, max_unit and step_size', 50, 0],
      ['REQUIRED_TRAITS', 'required trait CUSTOM_GOLD', 5, 0],
      ['FORBIDDEN_AGGREGATES', `not in ${QUARANTINE}`, 48, 0],
      ['GROUP_TOGETHER', 'unsuffixed group: every constraint at once', 0, 0],
      // ComputeFilter's amendment: Nova's disabled-host trait on the root.
      ['ROOT_FORBIDDEN', 'root_required !COMPUTE_STATUS_DISABLED', 50, 0],
    ]);
    // Gold hosts outside quarantine miss by memory only (and so by "all at once").
    expect(stage.closestMisses.map((m: { host: { name: string } }) => m.host.name)).toEqual([
      'host-10',
      'host-20',
      'host-30',
      'host-40',
    ]);
    expect(stage.closestMisses[0].misses[0]).toEqual({
      kind: 'RESOURCE_CAPACITY',
      code: 'candidate.resource.capacity',
      message: 'MEMORY_MB 600000 requested, 131072 free',
    });
    const reason = e.selections[0].reason;
    expect(reason).toBe(`No valid host: ${stage.summary}`);
    expect(reason.match(/No valid host/g)).toHaveLength(1);
    expect(reason).toContain('no host has MEMORY_MB: 600000');
  });

  it('puts the host with the most free memory first when memory alone is short', async () => {
    const r = await gql(t.app, EXPLAIN, { i: input({ MEMORY_MB: 600_000 }) });
    expect(r.errors).toBeUndefined();
    const first = r.data.explainPlacement.candidateStage.closestMisses[0];
    expect(first.host.name).toBe('host-07');
    expect(first.misses[0].message).toBe('MEMORY_MB 600000 requested, 512000 free');
  });

  it('counts hosts with candidates and names no misses when hosts are found', async () => {
    const r = await gql(t.app, EXPLAIN, { i: input({ VCPU: 2 }, ['CUSTOM_GOLD']) });
    expect(r.errors).toBeUndefined();
    const stage = r.data.explainPlacement.candidateStage;
    // host-50 is gold but quarantined by the plugin's amendment.
    expect(stage.hostsWithCandidates).toBe(4);
    expect(stage.constraints.at(-1).hostsAfter).toBe(4);
    expect(stage.closestMisses).toEqual([]);
    expect(stage.summary).toBe('4 of 50 hosts have allocation candidates');
  });

  it('explains a schedule that found no candidate, and claims nothing', async () => {
    const r = await gql(t.app, SCHEDULE, { i: input({ MEMORY_MB: 600_000 }) });
    expect(r.errors).toBeUndefined();
    const s = r.data.schedule;
    expect(s.selections[0].host).toBeNull();
    expect(s.candidateStage.blocking[0].label).toBe('MEMORY_MB: 600000');
    expect(s.selections[0].reason).toBe(`No valid host: ${s.candidateStage.summary}`);
    const ok = await gql(t.app, SCHEDULE, { i: input({ VCPU: 1 }) });
    expect(ok.errors).toBeUndefined();
    expect(ok.data.schedule.selections[0].host).not.toBeNull();
    expect(ok.data.schedule.candidateStage).toBeNull();
  });
});
