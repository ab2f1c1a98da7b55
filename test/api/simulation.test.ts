// What-if simulation through GraphQL (schema/simulation.ts): a reader runs a trace under the
// running profiles and compares two of them; a pipeline of one's own and a trace from the audit
// trail are admin-only; a plugin directory not yet deployed changes where the trace goes; a
// multi-create is all or nothing; bad input answers a coded error; nothing is written.
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { type GqlResponse, gql } from '../support/graphql';

/** A plugin not deployed: passes only hosts whose name ends in `-small`. */
const SMALL_ONLY = `exports.NAME = 'SmallOnlyFilter'; exports.kind = 'filter';
exports.create = () => ({ name: 'SmallOnlyFilter', kind: 'filter', onError: 'closed',
  filter: (host) => host.name.endsWith('-small') ? { fits: true } : { fits: false, reason: 'not small' } });`;

const SIMULATE = `query S($i: SimulateInput!) { simulate(input: $i) {
  run { label requests consumers placed failed durationMs
    placements { index request consumerUuid host { name } reason weight funnel { filter before after }
      allocations { provider { uuid } resources { resourceClass amount } }
      candidateStage { summary } }
    end { classes { resourceClass capacity used free fraction } hosts { host { name } placed classes { resourceClass used } }
      aggregates { uuid classes { resourceClass used } } largestFlavor largestFlavorFits stranded { resourceClass free } } }
  compare { label placed placements { host { name } } }
  diff { same differentHost onlyInRun onlyInCompare entries { index runHost { name } compareHost { name } } }
} }`;

describe('simulate', () => {
  let t: TestApp;
  let dir: string;
  const tokens: Record<string, string> = {};
  const prefix = `sim${randomUUID().slice(0, 6)}`;
  const hostIds: number[] = [];
  const hostUuids: string[] = [];

  const post = (i: object, role = 'reader'): Promise<GqlResponse> =>
    gql(t.app, SIMULATE, { i }, { authorization: `Bearer ${tokens[role]}` });
  const vcpu = (amount: number, n = 1) => ({
    consumerUuids: Array.from({ length: n }, () => randomUUID()),
    projectId: 'p',
    userId: 'u',
    request: { groups: [{ suffix: '', resources: [{ resourceClass: 'VCPU', amount }] }] },
  });
  const usedNow = async () => {
    const usage = await t.app.services.usages.byProviderIds(hostIds);
    return [...usage.values()].flat().reduce((n, u) => n + u.used, 0);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-sim-'));
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'plugins'), { mode: 0o755 });
    writeFileSync(join(dir, 'plugins', 'small-only-filter.js'), SMALL_ONLY, { mode: 0o644 });
    t = await createTestApp({
      BERTH_AUTH: 'on',
      BERTH_SCHEDULER_FILTERS: 'ComputeFilter',
      BERTH_SCHEDULER_WEIGHERS: 'CPUWeigher',
      BERTH_SCHEDULER_PROFILES: JSON.stringify({
        pack: { plugins: { CPUWeigher: { multiplier: -1 } } },
      }),
    });
    for (const role of ['reader', 'admin']) {
      tokens[role] = (await t.app.tokens.create({ role, name: `sim-${role}` })).token;
    }
    for (const [suffix, total] of [
      ['small', 4],
      ['medium', 8],
      ['large', 16],
    ] as const) {
      const rp = await buildResourceProvider(t.app.services, {
        name: `${prefix}-${suffix}`,
        inventories: [{ resourceClass: 'VCPU', total }],
      });
      hostIds.push(rp.id);
      hostUuids.push(rp.uuid);
    }
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('places a trace under a profile as schedule would, compares it with another, writes nothing', async () => {
    const before = await usedNow();
    const trace = [vcpu(2), vcpu(2), vcpu(2)];
    const r = await post({ requests: trace, compareProfile: 'pack' });
    expect(r.errors).toBeUndefined();
    const { run, compare, diff } = r.data.simulate;
    expect(run).toMatchObject({
      label: 'default',
      requests: 3,
      consumers: 3,
      placed: 3,
      failed: 0,
    });
    // CPUWeigher spreads: the largest free host each time (16 → 14 → 12 free).
    expect(run.placements.map((p: any) => p.host.name)).toEqual(Array(3).fill(`${prefix}-large`));
    expect(run.placements[0].funnel).toEqual([{ filter: 'ComputeFilter', before: 3, after: 3 }]);
    expect(run.placements[0].allocations[0].resources).toEqual([
      { resourceClass: 'VCPU', amount: 2 },
    ]);
    expect(run.placements.map((p: any) => p.consumerUuid)).toEqual(
      trace.map((q) => q.consumerUuids[0]),
    );
    expect(run.end.classes).toEqual([
      { resourceClass: 'VCPU', capacity: 28, used: 6, free: 22, fraction: 6 / 28 },
    ]);
    expect(run.end.hosts).toEqual([
      {
        host: { name: `${prefix}-large` },
        placed: 3,
        classes: [{ resourceClass: 'VCPU', used: 6 }],
      },
    ]);
    expect(run.end.largestFlavor).toBe('VCPU:2');
    // Headroom of VCPU:2 at the end: 10 free on the large host, 8 and 4 on the others.
    expect(run.end.largestFlavorFits).toBe(5 + 4 + 2);
    // Nothing is stranded: one more VCPU:2 fits on every host.
    expect(run.end.stranded).toEqual([]);
    // The packing profile fills the smallest host first: 4 → 2 → 0, then the medium one.
    expect(compare.label).toBe('pack');
    expect(compare.placements.map((p: any) => p.host.name)).toEqual([
      `${prefix}-small`,
      `${prefix}-small`,
      `${prefix}-medium`,
    ]);
    expect(diff).toMatchObject({ same: 0, differentHost: 3, onlyInRun: 0, onlyInCompare: 0 });
    expect(diff.entries[2]).toEqual({
      index: 2,
      runHost: { name: `${prefix}-large` },
      compareHost: { name: `${prefix}-medium` },
    });
    expect(await usedNow()).toBe(before);
  });

  it('is all or nothing for a multi-create, and explains a request no host has candidates for', async () => {
    const r = await post({ requests: [vcpu(10, 3), vcpu(100), vcpu(1)] });
    expect(r.errors).toBeUndefined();
    const p = r.data.simulate.run.placements;
    expect(p.map((x: any) => [x.index, x.request])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 2],
    ]);
    // 10 VCPU fits the large host once: the second consumer fails, the first is released.
    expect(p[0].host).toBeNull();
    expect(p[0].reason).toMatch(/^Released: multi-create of 3 is all or nothing/);
    expect(p[1].reason).toMatch(/^No valid host/);
    expect(p[2].reason).toMatch(/^Not attempted: multi-create of 3/);
    expect(p[3].host).toBeNull();
    expect(p[3].candidateStage.summary).toEqual(expect.any(String));
    expect(p[3].reason).toMatch(/^No valid host: /);
    // The released capacity is free again: the last request goes where it would have.
    expect(p[4].host.name).toBe(`${prefix}-large`);
    expect(r.data.simulate.run).toMatchObject({ placed: 1, failed: 4 });
    expect(r.data.simulate.run.end.largestFlavor).toBe('VCPU:100');
  });

  it('counts as stranded the free capacity of hosts where the smallest request no longer fits', async () => {
    // VCPU:5 goes to the large host (16 → 11 free); the small host's 4 free VCPU hold none.
    const r = await post({ requests: [vcpu(5), vcpu(6)] });
    expect(r.errors).toBeUndefined();
    expect(r.data.simulate.run.end.stranded).toEqual([{ resourceClass: 'VCPU', free: 4 }]);
    expect(r.data.simulate.run.end.largestFlavor).toBe('VCPU:6');
  });

  it('gives the same answer for the same seed', async () => {
    const trace = [vcpu(1, 4), vcpu(3), vcpu(2, 2)];
    const a = await post({ requests: trace, seed: 7 });
    const b = await post({ requests: trace, seed: 7 });
    expect(a.errors).toBeUndefined();
    expect(b.data).toEqual({
      simulate: {
        ...a.data.simulate,
        run: { ...a.data.simulate.run, durationMs: b.data.simulate.run.durationMs },
      },
    });
  });

  it('draws from the host subset with the seed: same seed, same picks', async () => {
    const trace = [vcpu(1, 6), vcpu(1, 6)];
    const picks = async (seed: number) => {
      const r = await post({ requests: trace, seed, pipeline: { hostSubsetSize: 3 } }, 'admin');
      expect(r.errors).toBeUndefined();
      return r.data.simulate.run.placements.map((p: any) => p.host.name).join(',');
    };
    const once = await picks(7);
    expect(await picks(7)).toBe(once);
    // A subset of 3 draws among all three hosts: other seeds pick otherwise.
    const others = new Set(await Promise.all([1, 2, 3, 4, 5].map(picks)));
    expect(others.size).toBeGreaterThan(1);
  });

  it('counts the headroom of the largest request under each pipeline of its own', async () => {
    const fits = async (max: number) => {
      const pipeline = {
        filters: ['ComputeFilter', 'NumInstancesFilter'],
        plugins: JSON.stringify({ NumInstancesFilter: { maxInstancesPerHost: max } }),
      };
      const r = await post({ requests: [vcpu(1)], pipeline }, 'admin');
      expect(r.errors).toBeUndefined();
      return r.data.simulate.run.end.largestFlavorFits;
    };
    // Two instances per host: one more on the host the trace used, two on each other.
    expect(await fits(2)).toBe(1 + 2 + 2);
    // Fifty per host: VCPU decides (15 + 8 + 4 free).
    expect(await fits(50)).toBe(27);
    expect(await fits(2)).toBe(5);
  });

  it("refuses a reader a pipeline of its own or the audit trail's trace; an admin may", async () => {
    const pipeline = { filters: ['ComputeFilter'], weighers: [] };
    const refused = await post({ requests: [vcpu(1)], pipeline });
    expect(refused.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
    const audit = await post({ fromAudit: 1 });
    expect(audit.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
    const compared = await post({ requests: [vcpu(1)], comparePipeline: pipeline });
    expect(compared.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
    const ok = await post({ requests: [vcpu(1)], pipeline }, 'admin');
    expect(ok.errors).toBeUndefined();
    expect(ok.data.simulate.run.label).toBe('custom');
  });

  it('runs a plugin directory not yet deployed, and the running pipelines do not see it', async () => {
    const pipeline = {
      filters: ['ComputeFilter', 'SmallOnlyFilter'],
      pluginDirs: [join(dir, 'plugins')],
    };
    const r = await post({ requests: [vcpu(1)], compareProfile: 'default', pipeline }, 'admin');
    expect(r.errors).toBeUndefined();
    const { run, compare, diff } = r.data.simulate;
    expect(run.placements[0].host.name).toBe(`${prefix}-small`);
    expect(run.placements[0].funnel).toEqual([
      { filter: 'ComputeFilter', before: 3, after: 3 },
      { filter: 'SmallOnlyFilter', before: 3, after: 1 },
    ]);
    expect(compare.placements[0].host.name).toBe(`${prefix}-large`);
    expect(diff.differentHost).toBe(1);
    expect(t.app.scheduling.plugins().map((p) => p.name)).not.toContain('SmallOnlyFilter');
  });

  it('answers bad input with coded errors', async () => {
    const code = (r: GqlResponse) => r.errors?.[0]?.extensions?.code;
    expect(code(await post({}))).toBe('berth.simulation.invalid_trace');
    expect(code(await post({ requests: [] }))).toBe('berth.simulation.invalid_trace');
    expect(code(await post({ requests: [vcpu(1)], profile: 'nope' }))).toBe(
      'berth.simulation.invalid_pipeline',
    );
    expect(code(await post({ requests: [vcpu(1)], compareProfile: 'nope' }))).toBe(
      'berth.simulation.invalid_pipeline',
    );
    const admin = (pipeline: object) => post({ requests: [vcpu(1)], pipeline }, 'admin');
    for (const pipeline of [
      { filters: ['NoSuchFilter'] },
      { plugins: '{not json' },
      { plugins: '{"CPUWeigher": {"nope": 1}}' },
      { hostSubsetSize: 0 },
      { pluginDirs: [join(dir, 'missing')] },
    ]) {
      const r = await admin(pipeline);
      expect([JSON.stringify(pipeline), code(r)]).toEqual([
        JSON.stringify(pipeline),
        'berth.simulation.invalid_pipeline',
      ]);
    }
    const many = await post({ requests: [vcpu(1, 10_001)] });
    expect(code(many)).toBe('berth.simulation.too_large');
    expect(code(await post({ fromAudit: 0 }, 'admin'))).toBe('berth.simulation.invalid_trace');
  });

  it('replays the last schedule calls of the audit trail', async () => {
    const scheduled = vcpu(1, 2);
    const s = await gql(
      t.app,
      'mutation S($i: ScheduleInput!) { schedule(input: $i) { selections { host { name } } } }',
      { i: scheduled },
      { authorization: `Bearer ${tokens.admin}` },
    );
    expect(s.errors).toBeUndefined();
    const r = await post({ fromAudit: 1 }, 'admin');
    expect(r.errors).toBeUndefined();
    const run = r.data.simulate.run;
    expect(run).toMatchObject({ requests: 1, consumers: 2, placed: 2 });
    expect(run.placements.map((p: any) => p.consumerUuid).sort()).toEqual(
      [...scheduled.consumerUuids].sort(),
    );
    for (const c of scheduled.consumerUuids) {
      await t.app.services.allocations.deleteForConsumer(c);
    }
  });

  it('replays a recorded call as it was made: its required trait keeps it off the other hosts', async () => {
    const trait = `CUSTOM_SIM_${prefix.toUpperCase()}`;
    await t.app.services.traits.create(trait);
    const setTraits = async (traits: string[]) => {
      const { provider } = await t.app.services.providerTraits.get(hostUuids[0]!);
      await t.app.services.providerTraits.set(hostUuids[0]!, provider.generation, traits);
    };
    await setTraits([trait]);
    try {
      const scheduled = {
        ...vcpu(1),
        request: {
          groups: [
            { suffix: '', resources: [{ resourceClass: 'VCPU', amount: 1 }], required: [trait] },
          ],
        },
      };
      const s = await gql(
        t.app,
        'mutation S($i: ScheduleInput!) { schedule(input: $i) { selections { host { name } } } }',
        { i: scheduled },
        { authorization: `Bearer ${tokens.admin}` },
      );
      expect(s.errors).toBeUndefined();
      expect(s.data.schedule.selections[0].host.name).toBe(`${prefix}-small`);
      const r = await post({ fromAudit: 1 }, 'admin');
      expect(r.errors).toBeUndefined();
      // Rebuilt from its allocations alone, the call would go to the largest free host.
      expect(r.data.simulate.run.placements.map((p: any) => p.host?.name)).toEqual([
        `${prefix}-small`,
      ]);
      await t.app.services.allocations.deleteForConsumer(scheduled.consumerUuids[0]!);
    } finally {
      await setTraits([]);
    }
  });

  it('answers a trace over the result budget with one clean error, and its counts without', async () => {
    const small = await createTestApp({ BERTH_GRAPHQL_MAX_RESULT_ITEMS: '100' });
    try {
      await buildResourceProvider(small.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 1000 }],
      });
      const i = { requests: [vcpu(1, 150)] };
      const big = await gql(small.app, SIMULATE, { i });
      expect(big.errors?.map((e) => e.extensions?.code)).toEqual(['berth.result_too_large']);
      expect(big.data).toBeNull();
      const counts = await gql(
        small.app,
        'query S($i: SimulateInput!) { simulate(input: $i) { run { consumers placed failed } } }',
        { i },
      );
      expect(counts.errors).toBeUndefined();
      expect(counts.data.simulate.run).toEqual({ consumers: 150, placed: 150, failed: 0 });
    } finally {
      await small.close();
    }
  });
});
