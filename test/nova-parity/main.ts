// Nova parity harness, entry point (npm run conformance:nova-parity, via run.sh): generates seeded
// scenarios, asks berth (a test app on a fresh schema of DATABASE_URL, or embedded PGlite when it
// is unset) and Nova 26 (nova_side.py, one python3 process for all scenarios), prints the
// agreement table and the disagreements, and exits 1 when one is not in allowed-differences.ts.
// Each scenario is judged twice: under its profile (berth's defaults) and under the profile's
// Nova-compatible variant (profiles.ts NOVA_COMPATIBLE: every configurable difference set to
// Nova's; only the baseline and the filters whose settings change are asked again), where the
// configurable allow-list entries do not apply and the best host must be Nova's in ≥ 99 %.
//
// Environment: NOVA_PARITY_SEED (replay a run; default random), NOVA_PARITY_SCENARIOS (100),
// NOVA_PARITY_ONLY (comma-separated scenario indexes of that seed; the zone and tenant lookups then
// see only their aggregates, the run being one cloud), NOVA_PARITY_ALLOW (see
// allowed-differences.ts), NOVA_PARITY_SHOW (disagreements printed, 25), NOVA_PARITY_OUT (where
// the scenario and answer JSON go, dist/nova-parity), NOVA_PARITY_PYTHON (/usr/bin/python3),
// NOVA_PARITY_CONCURRENCY (scenarios loaded at a time, 3; 1 on PGlite), NOVA_PARITY_LOG (berth's
// log level, silent).
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startEmbeddedPg } from '../../src/db/embedded-pg';
import { startApp } from './app';
import {
  type BerthResult,
  concurrently,
  createTraits,
  explainScenario,
  hostTraits,
  loadScenario,
} from './berth-side';
import {
  activeAllowList,
  bestHostTargetMet,
  compareScenario,
  type NovaResult,
  newReport,
  type Report,
  table,
} from './compare';
import { describeInputs } from './describe';
import {
  BERTH_PLUGINS,
  berthProfilesSetting,
  FILTER_PAIRS,
  NOT_COMPARED,
  NOVA_ALWAYS,
  novaCompatible,
  novaCompatibleFilters,
  presentFilters,
  presentWeighers,
  WEIGHER_PAIRS,
} from './profiles';
import { generate, type Scenario } from './scenario';
import { setCloudAggregates } from './tags';

const ROOT = path.resolve(__dirname, '../..');

function settings() {
  const raw = process.env.NOVA_PARITY_SEED;
  const seed = raw ? Number(raw) >>> 0 : randomInt(2 ** 32 - 1);
  if (raw && !/^\d+$/.test(raw.trim())) {
    throw new Error(`NOVA_PARITY_SEED must be a number, got ${JSON.stringify(raw)}`);
  }
  const count = Number(process.env.NOVA_PARITY_SCENARIOS ?? 100);
  const only = (process.env.NOVA_PARITY_ONLY ?? '')
    .split(',')
    .filter((x) => x.trim() !== '')
    .map(Number);
  const indexes = only.length > 0 ? only : Array.from({ length: count }, (_, i) => i);
  return {
    seed,
    indexes,
    show: Number(process.env.NOVA_PARITY_SHOW ?? 25),
    out: path.resolve(process.env.NOVA_PARITY_OUT ?? path.join(ROOT, 'dist/nova-parity')),
    python: process.env.NOVA_PARITY_PYTHON ?? '/usr/bin/python3',
    // Embedded PGlite serves one statement at a time: concurrent scenarios there fail.
    concurrency: Number(process.env.NOVA_PARITY_CONCURRENCY ?? (process.env.DATABASE_URL ? 3 : 1)),
  };
}

/** The schema is thrown away at the end: its commits need not wait for the disk. */
function withoutSyncCommit(url: string): string {
  const u = new URL(url);
  if (!u.searchParams.has('options')) {
    u.searchParams.set('options', '-c synchronous_commit=off');
  }
  return u.toString();
}

/** berth's answers under the scenarios' profiles, and under their Nova-compatible variants. */
interface BerthAnswers {
  readonly defaults: BerthResult[];
  readonly compat: BerthResult[];
}

async function berthAnswers(
  scenarios: readonly Scenario[],
  concurrency: number,
): Promise<BerthAnswers> {
  let stopPg: (() => Promise<void>) | undefined;
  let url = process.env.DATABASE_URL && withoutSyncCommit(process.env.DATABASE_URL);
  if (!url) {
    const pg = await startEmbeddedPg('memory://', { maxConnections: 32 });
    url = pg.url;
    stopPg = () => pg.stop();
  }
  const profiles = berthProfilesSetting([
    ...new Map(
      scenarios.flatMap((s) => [
        [s.profile.name, s.profile],
        [novaCompatible(s.profile).name, novaCompatible(s.profile)],
      ]),
    ).values(),
  ]);
  const compatNames = novaCompatibleFilters().map((p) => p.berth);
  for (const d of profiles.dropped) {
    console.log(`berth has no setting ${d}: the Nova option is set anyway`);
  }
  const t = await startApp(url, {
    BERTH_SCHEDULER_PROFILES: profiles.setting,
    BERTH_GRAPHQL_MAX_ALIASES: '1000',
    BERTH_GRAPHQL_MAX_COST: '100000000',
    BERTH_EVALUATION_REUSE_MS: '0',
  });
  try {
    await createTraits(t.app, scenarios);
    // Scenarios are independent (each request is member_of its own scope aggregate), but the
    // zone and tenant lookups read every aggregate of the cloud, as Nova's side does
    // (cloudAggregates): load every scenario first, then explain a few at a time.
    await concurrently(scenarios, concurrency, async (s) => {
      try {
        await loadScenario(t.app, s);
      } catch (err) {
        throw new Error(`scenario ${s.index} (seed ${s.seed}): ${(err as Error).message}`);
      }
    });
    const both = await concurrently(scenarios, concurrency, async (s) => {
      try {
        const defaults = await explainScenario(t.app, s);
        const compat = await explainScenario(t.app, s, compatNames, novaCompatible(s.profile).name);
        return {
          defaults,
          compat: { ...compat, filters: { ...defaults.filters, ...compat.filters } },
        };
      } catch (err) {
        throw new Error(`scenario ${s.index} (seed ${s.seed}): ${(err as Error).message}`);
      }
    });
    return { defaults: both.map((b) => b.defaults), compat: both.map((b) => b.compat) };
  } finally {
    await t.close();
    await stopPg?.();
  }
}

function novaAnswers(
  python: string,
  out: string,
  scenarios: readonly Scenario[],
  berth: readonly BerthResult[],
): NovaResult[] {
  const input = path.join(out, 'nova-input.json');
  const output = path.join(out, 'nova-output.json');
  const job = {
    filters: presentFilters(),
    weighers: presentWeighers(),
    cloudAggregates: scenarios.flatMap((s) => s.aggregates),
    novaAlways: NOVA_ALWAYS,
    // The host's traits as berth has them: the request filters' root traits are checked on them.
    scenarios: scenarios.map((s, i) => ({
      ...s,
      hosts: s.hosts.map((h) => ({ ...h, traits: hostTraits(h) })),
      weighHosts: berth[i]!.baseline,
    })),
  };
  writeFileSync(input, JSON.stringify(job));
  // Nova iterates sets of metadata values (AggregateInstanceExtraSpecsFilter raises or not
  // depending on which value comes first): a fixed hash seed makes a replay give Nova's answer again.
  const res = spawnSync(python, [path.join(__dirname, 'nova_side.py'), input, output], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PYTHONHASHSEED: '0' },
  });
  if (res.status !== 0) {
    throw new Error(`nova_side.py failed (${res.error?.message ?? `exit ${res.status}`})`);
  }
  return JSON.parse(readFileSync(output, 'utf8')).results;
}

function printDisagreements(
  report: Report,
  seed: number,
  show: number,
  title: string,
  withAllowed: boolean,
): number {
  const failing = report.disagreements.filter((d) => d.allowedBy === undefined);
  const hostName = (d: (typeof failing)[number]) =>
    d.scenario.hosts.find((h) => h.uuid === d.host)?.name ?? d.host;
  if (failing.length > 0) {
    console.log(
      `\nDISAGREEMENTS ${title} not in allowed-differences.ts: ${failing.length} (first ${show})`,
    );
  }
  for (const d of failing.slice(0, show)) {
    const s = d.scenario;
    console.log(
      `- ${d.plugin} ${d.check} on ${hostName(d)}: berth ${d.berth}, Nova ${d.nova} [${d.tags.join(' ')}]\n` +
        `    seed ${seed} scenario ${s.index} (scenario seed ${s.seed}, profile ${s.profile.name})\n` +
        `    ${describeInputs(d)}`,
    );
  }
  const byEntry = new Map<string, typeof report.disagreements>();
  for (const d of report.disagreements.filter((x) => withAllowed && x.allowedBy !== undefined)) {
    byEntry.set(d.allowedBy!, [...(byEntry.get(d.allowedBy!) ?? []), d]);
  }
  if (byEntry.size > 0) {
    console.log('\nallowed differences seen (allowed-differences.ts), one example each:');
  }
  for (const [id, list] of byEntry) {
    const d = list[0]!;
    console.log(
      `- ${id}: ${list.length}x; e.g. ${d.plugin} ${d.check} on ${hostName(d)} (scenario ${d.scenario.index}): berth ${d.berth}, Nova ${d.nova}\n    ${describeInputs(d)}`,
    );
  }
  return failing.length;
}

function printRaised(report: Report, seed: number): void {
  if (report.raised.length === 0) {
    return;
  }
  const byError = new Map<string, typeof report.raised>();
  for (const r of report.raised) {
    const key = `${r.plugin}: ${r.error.split(':').slice(0, 2).join(':')}`;
    byError.set(key, [...(byError.get(key) ?? []), r]);
  }
  console.log('\nNova raised (not counted in the percentages), and what berth said instead:');
  for (const [key, list] of byError) {
    const passed = list.filter((r) => r.berthPass).length;
    console.log(
      `- ${key}: ${list.length} host(s) (berth: ${list.length - passed} fail, ${passed} pass), e.g. seed ${seed} scenario ${list[0]!.scenario.index}: ${list[0]!.error}`,
    );
  }
}

async function main(): Promise<number> {
  const cfg = settings();
  console.log(
    `Nova parity: seed ${cfg.seed} (replay: NOVA_PARITY_SEED=${cfg.seed}), ${cfg.indexes.length} scenarios`,
  );
  mkdirSync(cfg.out, { recursive: true });
  const started = Date.now();
  const scenarios = cfg.indexes.map((i) => generate(cfg.seed, i));
  setCloudAggregates(scenarios.flatMap((s) => s.aggregates));
  writeFileSync(path.join(cfg.out, 'scenarios.json'), JSON.stringify(scenarios));
  const answers = await berthAnswers(scenarios, cfg.concurrency);
  const berth = answers.defaults;
  const berthMs = Date.now() - started;
  const nova = novaAnswers(cfg.python, cfg.out, scenarios, berth);
  const pairs = { filters: presentFilters(), weighers: presentWeighers() };
  const allow = activeAllowList();
  const compatAllow = activeAllowList(undefined, true);
  const report = newReport();
  const compat = newReport();
  scenarios.forEach((s, i) => {
    compareScenario(report, s, berth[i]!, nova[i]!, pairs, allow);
    compareScenario(compat, s, answers.compat[i]!, nova[i]!, pairs, compatAllow);
  });
  writeFileSync(
    path.join(cfg.out, 'disagreements.json'),
    JSON.stringify(
      [
        ...report.disagreements.map((d) => ({ ...d, run: 'defaults' })),
        ...compat.disagreements.map((d) => ({ ...d, run: 'nova-compatible' })),
      ].map(({ scenario, ...d }) => ({
        seed: cfg.seed,
        scenario: scenario.index,
        profile: scenario.profile.name,
        hostName: scenario.hosts.find((h) => h.uuid === d.host)?.name,
        ...d,
      })),
      null,
      1,
    ),
  );
  const hosts = berth.reduce((n, b) => n + b.baseline.length, 0);
  console.log(
    `${hosts} hosts compared; ${report.hidden.length} hidden by allocation candidates (not compared)\n`,
  );
  console.log(table(report, compat, pairs).join('\n'));
  printRaised(report, cfg.seed);
  const failing =
    printDisagreements(report, cfg.seed, cfg.show, "(berth's defaults)", true) +
    report.best.failing +
    printDisagreements(compat, cfg.seed, cfg.show, '(Nova-compatible)', false) +
    compat.best.failing +
    (bestHostTargetMet(compat) ? 0 : 1);
  const matched = new Set([...report.matched, ...compat.matched]);
  const stale = allow.filter((a) => !matched.has(a.id)).map((a) => a.id);
  if (stale.length > 0) {
    console.log(`\nallow-list entries that matched nothing this run: ${stale.join(', ')}`);
  }
  const paired = new Set([...FILTER_PAIRS, ...WEIGHER_PAIRS].map((p) => p.berth));
  const unclassified = [...BERTH_PLUGINS].filter((n) => !paired.has(n) && !(n in NOT_COMPARED));
  console.log(`\nnot compared: ${Object.keys(NOT_COMPARED).join(', ')} (reasons in profiles.ts)`);
  if (unclassified.length > 0) {
    console.log(`not classified yet (add to profiles.ts): ${unclassified.join(', ')}`);
  }
  console.log(
    `\nseed ${cfg.seed}: ${failing === 0 ? 'PASS' : `FAIL (${failing} disagreement(s) outside the allow-list)`}; berth ${berthMs} ms, total ${Date.now() - started} ms`,
  );
  return failing === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
