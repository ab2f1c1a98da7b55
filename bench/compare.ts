// `npm run bench:compare`: berth side by side with the reference OpenStack Placement 8.0, both
// driven over HTTP by the same dependency-free tool (bench.mjs from the shared bench folder), with
// the same data seeded the same way (REST calls, no bulk load) and the same queries.
// berth runs as its own process (`berth serve`) on a fresh database (DATABASE_URL's server, else
// an embedded data folder) with an admin API token; the reference must already be running.
// Usage: npm run bench:compare -- [--hosts 1000] [--iterations 20] [--consumers 1000]
//   [--workers 1] [--placement-url http://127.0.0.1:8778] [--bench-dir ../shared/bench]
// The reference: <bench-dir>/reference-placement/install.sh, then start-placement-ref.sh (noauth2,
// 127.0.0.1:8778; its uWSGI closes every connection, so bench.mjs runs with --keepalive off).
// Prints query | Placement p50 | berth p50 | ratio; ratio > 1 means berth is faster.
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REST } from './http/scenarios';
import { type BenchDatabase, prepareDatabase, type ServeProcess, startServe } from './http/server';

const args = process.argv.slice(2);
const text = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? String(args[i + 1]) : dflt;
};
const log = (line: string) => console.log(line);

const HOSTS = Number(text('hosts', '1000'));
const ITER = Number(text('iterations', '20'));
const CONSUMERS = Number(text('consumers', '1000'));
const WORKERS = Number(text('workers', '1'));
const PLACEMENT_URL = text('placement-url', '');
const BENCH_DIR = path.resolve(process.cwd(), text('bench-dir', '../shared/bench'));
const BENCH_JS = path.join(BENCH_DIR, 'bench.mjs');

/** How bench.mjs reaches one server. */
export interface Target {
  readonly label: string;
  /** --base-url: the server root (berth: its REST mount). */
  readonly baseUrl: string;
  /** Arguments given to every command (headers, keep-alive). */
  readonly common: readonly string[];
  /** The same, with secrets masked, for printing. */
  readonly shown: readonly string[];
  /** Whether the server process is still running, when it is ours. */
  readonly alive?: () => boolean;
}

/** One candidates query in bench.mjs's `--json` record. */
export interface CandidateRecord {
  readonly name: string;
  readonly p50: number;
  readonly allocation_requests: number;
}

/** The bench.mjs results kept for the table. */
export interface TargetResult {
  readonly seed: { hosts_per_s: number; elapsed_s: number; errors: number };
  readonly candidates: readonly CandidateRecord[];
  /** Undefined when bench.mjs aborted the claim loop (over 50 failed requests). */
  readonly claim?: {
    claims_per_s: number;
    claimed: number;
    failed: number;
    conflicts_409: number;
    project_usage_matches: boolean;
    verify?: { violation_count: number };
    latency_ms: { put_allocations: { p50: number }; get_candidates: { p50: number } };
  };
}

/** Runs `node bench.mjs <command> ...` with its output passed through; resolves to its exit code. */
export function runBench(argv: readonly string[], shown: readonly string[]): Promise<number> {
  const quote = (a: string) => (/[\s'"<>!&]/.test(a) ? `'${a}'` : a);
  log(`$ node ${BENCH_JS} ${shown.map(quote).join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BENCH_JS, ...argv], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

/** Runs seed, candidates and claim against `target` on `prefix`, each with `--json` in `dir`. */
export async function runTarget(
  target: Target,
  prefix: string,
  dir: string,
): Promise<TargetResult> {
  log(`\n== ${target.label}: ${target.baseUrl}`);
  const state = path.join(dir, `${target.label}-state.json`);
  const step = async <T>(command: string, opts: readonly string[]): Promise<T | undefined> => {
    const json = path.join(dir, `${target.label}-${command}.json`);
    const base = [
      '--base-url',
      target.baseUrl,
      '--state',
      state,
      '--prefix',
      prefix,
      '--json',
      json,
    ];
    const code = await runBench(
      [command, ...opts, ...base, ...target.common],
      [command, ...opts, ...base, ...target.shown],
    );
    if (!existsSync(json)) {
      const gone = target.alive && !target.alive() ? '; the server process has exited' : '';
      log(`  bench.mjs ${command} against ${target.label} failed (exit ${code}), no result${gone}`);
      return undefined;
    }
    if (code !== 0) {
      log(`  note: bench.mjs ${command} exited ${code} (failed requests or checks; see above)`);
    }
    return JSON.parse(readFileSync(json, 'utf8')) as T;
  };
  const required = <T>(value: T | undefined, command: string): T => {
    if (value === undefined) {
      throw new Error(`${target.label}: bench.mjs ${command} gave no result; see above`);
    }
    return value;
  };
  const seed = await step<TargetResult['seed']>('seed', [
    '--providers',
    String(HOSTS),
    '--shape',
    'flat',
  ]);
  const candidates = await step<{ results: CandidateRecord[] }>('candidates', ['-n', String(ITER)]);
  const claim = await step<TargetResult['claim']>('claim', [
    '--consumers',
    String(CONSUMERS),
    '-c',
    '16',
  ]);
  return {
    seed: required(seed, 'seed'),
    candidates: required(candidates, 'candidates').results,
    claim,
  };
}

/** Whether process `pid` still exists. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The claims/s cell: '-' without a run, 'aborted' when bench.mjs gave up on the loop. */
const claimCell = (run: TargetResult | undefined, rate: number | undefined) =>
  run === undefined ? '-' : rate === undefined ? 'aborted' : String(rate);
const ms = (v: number | undefined) => (v === undefined ? '-' : `${v.toFixed(2)} ms`);
const ratio = (num: number | undefined, den: number | undefined) =>
  num === undefined || den === undefined || den === 0 ? '-' : `${(num / den).toFixed(2)}x`;

/** Prints the side-by-side table (berth's column only when `ref` is undefined). */
export function printTable(berth: TargetResult, ref: TargetResult | undefined): void {
  const rows: string[][] = [['query', 'Placement p50', 'berth p50', 'ratio', 'answers P / b']];
  for (const b of berth.candidates) {
    const p = ref?.candidates.find((c) => c.name === b.name);
    const answers = `${p ? p.allocation_requests : '-'} / ${b.allocation_requests}`;
    rows.push([b.name, ms(p?.p50), ms(b.p50), ratio(p?.p50, b.p50), answers]);
  }
  const bc = berth.claim;
  const pc = ref?.claim;
  rows.push([
    `claim loop (${CONSUMERS}, -c 16) claims/s`,
    claimCell(ref, pc?.claims_per_s),
    claimCell(berth, bc?.claims_per_s),
    ratio(bc?.claims_per_s, pc?.claims_per_s),
    `${pc?.claimed ?? '-'} / ${bc?.claimed ?? '-'} claimed`,
  ]);
  const bPut = bc?.latency_ms.put_allocations.p50;
  const pPut = pc?.latency_ms.put_allocations.p50;
  rows.push(['claim PUT /allocations p50', ms(pPut), ms(bPut), ratio(pPut, bPut), '']);
  const bGet = bc?.latency_ms.get_candidates.p50;
  const pGet = pc?.latency_ms.get_candidates.p50;
  rows.push(['claim GET candidates p50', ms(pGet), ms(bGet), ratio(pGet, bGet), '']);
  const pSeed = ref?.seed.hosts_per_s;
  rows.push([
    `seed ${HOSTS} flat hosts, hosts/s`,
    pSeed === undefined ? '-' : String(pSeed),
    String(berth.seed.hosts_per_s),
    ratio(berth.seed.hosts_per_s, pSeed),
    '',
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  log(
    `\n${HOSTS} flat hosts (+2 sharing), candidates -n ${ITER} -c 1; ratio = Placement/berth for latencies, berth/Placement for rates (> 1: berth faster)`,
  );
  for (const [i, r] of rows.entries()) {
    log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]!) : c.padStart(widths[j]!))).join(' | '));
    if (i === 0) {
      log(widths.map((w) => '-'.repeat(w)).join('-|-'));
    }
  }
  for (const [label, run] of [
    ['berth', berth],
    ['Placement', ref],
  ] as const) {
    const c = run?.claim;
    if (c) {
      log(
        `${label} claim: ${c.claimed} claimed, ${c.conflicts_409} 409s, ${c.failed} failed, usages match ${c.project_usage_matches}, over capacity ${c.verify?.violation_count ?? 'n/a'}`,
      );
    } else if (run) {
      log(`${label} claim: aborted by bench.mjs (over 50 failed requests; its errors are above)`);
    }
  }
  if (!ref) {
    log(
      `\nNo --placement-url: berth only. For the Placement column: sudo ${BENCH_DIR}/reference-placement/install.sh, then PLACEMENT_THREADS=12 ${BENCH_DIR}/reference-placement/start-placement-ref.sh (12 threads fit its database pool of 15; 16 get 500s under the claim loop) and re-run with --placement-url http://127.0.0.1:8778`,
    );
  }
}

async function main(): Promise<void> {
  if (!existsSync(BENCH_JS)) {
    console.error(
      `bench.mjs not found at ${BENCH_JS}; pass --bench-dir <folder holding bench.mjs>`,
    );
    process.exit(2);
  }
  if (PLACEMENT_URL) {
    const res = await fetch(PLACEMENT_URL).catch((err: Error) => err);
    if (res instanceof Error || !res.ok) {
      const why = res instanceof Error ? res.message : `HTTP ${res.status}`;
      console.error(`Placement at ${PLACEMENT_URL} does not answer (${why}); is it started?`);
      process.exit(2);
    }
  }
  log(
    `berth vs Placement over HTTP with ${BENCH_JS} (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}, ${process.env.REDIS_URL ? 'Redis' : 'in-process cache'}): ${HOSTS} flat hosts, ${ITER} iterations, ${CONSUMERS} consumers, berth --workers ${WORKERS}`,
  );
  const dir = mkdtempSync(path.join(tmpdir(), 'berth-compare-'));
  const prefix = `cmp${Date.now().toString(36)}`;
  let db: BenchDatabase | undefined;
  let server: ServeProcess | undefined;
  try {
    db = await prepareDatabase(`berth_compare_${process.pid}`, async () => {});
    server = await startServe(db, { workers: WORKERS });
    log(
      `berth serve --workers ${WORKERS}: ${server.url}, ready in ${server.readyMs.toFixed(0)} ms`,
    );
    const version = ['-H', 'OpenStack-API-Version: placement latest'];
    const berth = await runTarget(
      {
        label: 'berth',
        baseUrl: `${server.url}${REST}`,
        common: ['--no-default-headers', '-H', `X-Auth-Token: ${db.tokens.admin}`, ...version],
        shown: ['--no-default-headers', '-H', 'X-Auth-Token: <admin token>', ...version],
        alive: () => isAlive(server!.pid),
      },
      prefix,
      dir,
    );
    log(
      `berth after the run: cpu ${server.cpuMs().toFixed(0)} ms, rss ${server.rssMiB().join('+')} MiB`,
    );
    await server.stop();
    server = undefined;
    const ref = PLACEMENT_URL
      ? await runTarget(
          {
            label: 'placement',
            baseUrl: PLACEMENT_URL,
            common: ['--keepalive', 'off'],
            shown: ['--keepalive', 'off'],
          },
          prefix,
          dir,
        )
      : undefined;
    printTable(berth, ref);
  } finally {
    await server?.stop();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
