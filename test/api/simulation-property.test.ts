// Property: a simulation places a trace exactly where real `schedule` calls place it. Random
// small clouds (distinct capacities) and random traces (multi-creates, requests too large to fit,
// members of an anti-affinity server group) from a seeded PRNG: the trace is simulated on the
// live index first, then scheduled for real on the database, request by request, and every
// consumer must land on the same host (or fail in both). The simulation writes nothing: usage in
// the database and the live index's usage and stamps are the same before and after it. Ties between equal weights are made impossible by an operator
// weigher scoring hosts by their number with a multiplier far below CPUWeigher's smallest step,
// so `schedule`'s random tie-breaks never decide. Seed: SIM_PROPERTY_SEED (printed on failure).
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulationPipeline } from '../../src/planning/pipeline-config';
import { PlanningView } from '../../src/planning/planning-view';
import { simulate } from '../../src/planning/simulation';
import type { ScheduleRequest } from '../../src/scheduler/schedule-types';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';

/** Scores a host by the number at the end of its name: breaks ties, never more. */
const NUMBER_WEIGHER = `exports.NAME = 'HostNumberWeigher'; exports.kind = 'weigher';
exports.create = () => ({ name: 'HostNumberWeigher', kind: 'weigher', multiplier: 0.0001,
  weigh: (host) => Number(host.name.split('-').pop()) });`;

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROUNDS = 12;

describe('simulation is exact against real placements', () => {
  let t: TestApp;
  let dir: string;
  const seed = Number(process.env.SIM_PROPERTY_SEED ?? Date.now() % 1_000_000);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-simprop-'));
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'plugins'), { mode: 0o755 });
    writeFileSync(join(dir, 'plugins', 'host-number-weigher.js'), NUMBER_WEIGHER, {
      mode: 0o644,
    });
    t = await createTestApp({
      BERTH_PLUGIN_DIRS: join(dir, 'plugins'),
      BERTH_SCHEDULER_FILTERS: 'ComputeFilter,ServerGroupAntiAffinityFilter',
      BERTH_SCHEDULER_WEIGHERS: 'CPUWeigher,HostNumberWeigher',
      BERTH_HOST_SUBSET_SIZE: '1',
    });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`places every consumer where schedule does (seed ${seed})`, async () => {
    const rnd = prng(seed);
    const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
    let compared = 0;
    let failures = 0;
    let multi = 0;
    let grouped = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const where = `seed ${seed}, round ${round}`;
      const hosts: { uuid: string; id: number }[] = [];
      const totals = new Set<number>();
      const n = int(2, 6);
      while (totals.size < n) totals.add(int(4, 40));
      for (const [i, total] of [...totals].entries()) {
        const rp = await buildResourceProvider(t.app.services, {
          name: `prop-${round}-${randomUUID().slice(0, 4)}-${i}`,
          inventories: [
            { resourceClass: 'VCPU', total },
            { resourceClass: 'MEMORY_MB', total: total * 1024 + int(0, 999) },
          ],
        });
        hosts.push({ uuid: rp.uuid, id: rp.id });
      }
      const group = await t.app.services.serverGroups.create({
        name: `g${round}`,
        projectId: 'p',
        userId: 'u',
        policy: 'anti-affinity',
      });
      const trace: ScheduleRequest[] = Array.from({ length: int(6, 20) }, () => {
        const count = rnd() < 0.2 ? int(2, 3) : 1;
        const inGroup = rnd() < 0.25;
        multi += count > 1 ? 1 : 0;
        grouped += inGroup ? 1 : 0;
        return {
          consumerUuids: Array.from({ length: count }, () => randomUUID()),
          projectId: 'p',
          userId: 'u',
          request: {
            groups: [
              {
                suffix: '',
                resources: { VCPU: int(1, 12), MEMORY_MB: int(1, 8) * 512 },
                requiredTraits: [],
                forbiddenTraits: [],
                memberOf: [],
                forbiddenAggregates: [],
              },
            ],
          },
          extraSpecs: {},
          ...(inGroup ? { hints: { group: [group.uuid] } } : {}),
        };
      });
      const usage = async () =>
        JSON.stringify([...(await t.app.services.usages.byProviderIds(hosts.map((h) => h.id)))]);
      const before = await usage();
      const live = async () => {
        const index = await t.app.services.candidates.current();
        return { used: [...index.inventories.used], stamps: [...index.stamp] };
      };
      const liveBefore = await live();
      const pipeline = simulationPipeline(
        t.app.scheduling.pipelines.current,
        { profile: 'default' },
        seed + round,
      );
      const sim = await simulate(
        () => PlanningView.open(t.app.scheduling.planning),
        trace,
        pipeline,
      );
      expect([where, await usage()]).toEqual([where, before]);
      expect([where, await live()]).toEqual([where, liveBefore]);
      const real: (string | null)[] = [];
      for (const req of trace) {
        const out = await t.app.scheduling.service.schedule(req);
        real.push(...out.selections.map((s) => s.hostUuid));
      }
      const simulated = sim.run.placements.map((p) => p.host);
      // The simulation's reasons ride along on both sides: context when the hosts differ.
      const reasons = sim.run.placements.map((p) => p.reason);
      expect([where, simulated, reasons]).toEqual([where, real, reasons]);
      compared += real.length;
      failures += real.filter((h) => h === null).length;
      for (const req of trace) {
        for (const c of req.consumerUuids) {
          await t.app.services.allocations.deleteForConsumer(c).catch(() => undefined);
        }
      }
      for (const h of hosts) {
        await t.app.services.providers.delete(h.uuid);
      }
    }
    // The generator exercised what the property is about.
    expect(compared).toBeGreaterThan(50);
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(compared);
    expect(multi).toBeGreaterThan(0);
    expect(grouped).toBeGreaterThan(0);
  });
});
