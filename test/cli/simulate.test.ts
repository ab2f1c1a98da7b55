// `berth simulate` as a real CLI process on a PostgreSQL schema seeded with three hosts: a
// hand-written JSONL trace (uuids left out, a multi-create by `count`) placed under the default
// profile and compared with a packing one, printed as tables and as JSON; a bad trace line is
// one line on stderr and exit 1. The database is left as it was.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../support/app';
import { runBerth } from '../support/cli';
import { realPostgresIt, schemaUrl } from '../support/db';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const SCHEDULER = {
  BERTH_SCHEDULER_FILTERS: 'ComputeFilter',
  BERTH_SCHEDULER_WEIGHERS: 'CPUWeigher',
  BERTH_SCHEDULER_PROFILES: JSON.stringify({
    pack: { plugins: { CPUWeigher: { multiplier: -1 } } },
  }),
};

const line = (vcpu: number, extra: object = {}) =>
  JSON.stringify({
    projectId: 'p',
    userId: 'u',
    request: { groups: [{ suffix: '', resources: [{ resourceClass: 'VCPU', amount: vcpu }] }] },
    ...extra,
  });

describe('berth simulate', () => {
  let t: TestApp;
  const work = mkdtempSync(path.join(tmpdir(), 'berth-simulate-'));
  const trace = path.join(work, 'requests.jsonl');
  let env: Record<string, string>;
  const hostIds: number[] = [];

  beforeAll(async () => {
    t = await createTestApp(SCHEDULER);
    for (const [name, total] of [
      ['cli-small', 4],
      ['cli-large', 16],
    ] as const) {
      const rp = await buildResourceProvider(t.app.services, {
        name,
        inventories: [{ resourceClass: 'VCPU', total }],
      });
      hostIds.push(rp.id);
    }
    writeFileSync(
      trace,
      ['# two of 2 VCPU, then one of 3', line(2, { count: 2 }), line(3)].join('\n'),
    );
    env = { DATABASE_URL: schemaUrl(t.db.schema), BERTH_AUTH: 'off', ...SCHEDULER };
  });
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  realPostgresIt('prints each run, the end state and the diff', async () => {
    const r = await runBerth(
      ['simulate', '--trace', trace, '--profile', 'default', '--compare', 'pack'],
      env,
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^run default: 2 request\(s\), 3 consumer\(s\), 3 placed, 0 failed/m);
    expect(r.out).toMatch(/^run pack: 2 request\(s\), 3 consumer\(s\), 3 placed, 0 failed/m);
    // Spreading puts all three on the large host; packing fills the small one (2 + 2), then 3
    // VCPU goes to the large one.
    expect(r.out).toMatch(/^diff default vs pack: 1 same, 2 on another host, 0 placed only/m);
    expect(r.out).toMatch(/^\s*0\s+\S+\s+cli-large\s+cli-small$/m);
    expect(r.out).toMatch(/^VCPU\s+20\s+7\s+13\s+35\.0%$/m);
    expect(r.out).toContain('largest request VCPU:3:');

    const json = await runBerth(['simulate', '--trace', trace, '--json'], env);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.out);
    expect(parsed.run.placements.map((p: { request: number }) => p.request)).toEqual([0, 0, 1]);
    expect(parsed.compare).toBeNull();
    // Uuids the trace leaves out come from the seed: the same run names the same consumers.
    const again = JSON.parse((await runBerth(['simulate', '--trace', trace, '--json'], env)).out);
    expect(again.run.placements.map((p: { consumerUuid: string }) => p.consumerUuid)).toEqual(
      parsed.run.placements.map((p: { consumerUuid: string }) => p.consumerUuid),
    );
    const usage = await t.app.services.usages.byProviderIds(hostIds);
    expect([...usage.values()].flat().reduce((n, u) => n + u.used, 0)).toBe(0);
  });

  realPostgresIt('replays the last schedule call of the audit trail', async () => {
    const consumer = '0f5a8a53-2a43-4c0b-9d7e-2a4f1e0c9b11';
    const s = await gql(
      t.app,
      'mutation S($i: ScheduleInput!) { schedule(input: $i) { selections { host { name } } } }',
      { i: { ...JSON.parse(line(3)), consumerUuids: [consumer] } },
    );
    expect(s.data.schedule.selections[0].host.name).toBe('cli-large');
    try {
      const r = await runBerth(['simulate', '--from-audit', '1', '--json'], env);
      expect(r.err).toBe('');
      const run = JSON.parse(r.out).run;
      expect(run).toMatchObject({ requests: 1, consumers: 1, placed: 1 });
      // Replayed on the cloud as it is now: the consumer's own 3 VCPU are already used there.
      expect(run.placements[0]).toMatchObject({ consumerUuid: consumer });
      expect(run.end.classes).toEqual([
        expect.objectContaining({ resourceClass: 'VCPU', capacity: 20, used: 6 }),
      ]);
    } finally {
      await t.app.services.allocations.deleteForConsumer(consumer);
    }
  });

  realPostgresIt('refuses a bad trace line with one line and exit 1', async () => {
    const bad = path.join(work, 'bad.jsonl');
    writeFileSync(bad, `${line(1)}\n${line(0)}\n`);
    const r = await runBerth(['simulate', '--trace', bad], env);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toMatch(/^berth: Trace line 2: resources are/);
  });
});
