// Embedded boot: seconds from starting `npm start`'s command (node --max-semi-space-size=64
// bin/start.js, without npm's own start) to the first REST answer (GET /placement/resource_providers
// → 200) on the embedded database, with the phases the server logs. Runs in a throwaway copy of
// the sources (node_modules linked) so that its first start is a fresh clone's: no dist/, no
// template cache, no data directory. Scenarios, interleaved round by round:
//   first start   no dist/ (swc + the console's vite build), fresh data directory: the prebuilt
//                 database (src/db/embedded-prebuilt.ts)
//   fresh dir     dist/ built, fresh data directory: the prebuilt database
//   initdb        BERTH_EMBEDDED_PREBUILT=off, empty template cache: initdb and every migration in
//                 the template, then its copy (what a fresh data directory cost before)
//   template      BERTH_EMBEDDED_PREBUILT=off, template cache present: a copy of the template
//   restart       the data directory of the previous start
// Standalone: node dist/bench/embedded-boot.js [rounds] (after npm run build).
import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

/** The repository: the nearest folder above this file with bin/start.js (from bench/ or dist/bench/). */
function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'bin', 'start.js'))) {
    const up = path.dirname(dir);
    if (up === dir) {
      throw new Error('embedded boot bench: no bin/start.js above bench/');
    }
    dir = up;
  }
  return dir;
}

/** What `npm start` needs of the sources (its build reads these; dist/ is made in the copy). */
const COPIED = [
  'bin',
  'src',
  'migrations',
  'filters',
  'schema',
  'console',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

interface Boot {
  /** Milliseconds from spawn to the first 200 of the REST API. */
  readonly answerMs: number;
  /** Phase name -> milliseconds from spawn. */
  readonly phases: Readonly<Record<string, number>>;
  /** The embedded thread's report: where the database came from, unpack and open ms. */
  readonly from: string;
  readonly unpackMs: number;
  readonly openMs: number;
  /** CPU of the process (all threads, and the vite child once reaped), ms; -1 where unknown. */
  readonly cpuMs: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** utime + stime + cutime + cstime of `pid` in ms (Linux), or -1. */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // Fields 14..17 of stat(5), counted from the state (field 3) at index 0; clock ticks of 10 ms.
    return [11, 12, 13, 14].reduce((s, i) => s + Number(fields[i]), 0) * 10;
  } catch {
    return -1;
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Starts `npm start`'s command in `cwd` and measures it until the first REST answer. */
async function bootOnce(cwd: string, env: Record<string, string>): Promise<Boot> {
  const port = await freePort();
  const clean = { ...process.env };
  for (const k of ['DATABASE_URL', 'REDIS_URL', 'BERTH_WORKERS', 'NODE_ENV', 'LOG_LEVEL']) {
    delete clean[k];
  }
  const started = Date.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=64', 'bin/start.js'], {
    cwd,
    env: { ...clean, ...env, PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const phases: Record<string, number> = {};
  let boot = { from: '?', unpackMs: 0, openMs: 0 };
  let output = '';
  const onLine = (line: string) => {
    const at = Date.now() - started;
    if (line.startsWith('build: server sources')) {
      phases.transpiled = at;
    } else if (line.startsWith('build: console')) {
      phases.built = at;
    } else if (line.includes(' listening on ')) {
      phases.listening = at;
    } else if (line.startsWith('{')) {
      try {
        const j = JSON.parse(line) as Record<string, unknown> & { time: number; msg: string };
        const t = j.time - started;
        if (j.msg === 'embedded PostgreSQL (PGlite) serving') {
          phases.dbThreadReady = t;
          boot = { from: String(j.from), unpackMs: Number(j.unpackMs), openMs: Number(j.openMs) };
        } else if (j.msg === 'embedded PostgreSQL (PGlite) started') {
          phases.connected = t;
        } else if (j.msg === 'capacity index loaded') {
          phases.indexLoaded = t;
        }
      } catch {}
    }
  };
  let partial = '';
  for (const s of [child.stdout, child.stderr]) {
    s?.on('data', (d: Buffer) => {
      output += d;
      partial += d;
      for (let i = partial.indexOf('\n'); i >= 0; i = partial.indexOf('\n')) {
        onLine(partial.slice(0, i));
        partial = partial.slice(i + 1);
      }
    });
  }
  try {
    for (;;) {
      if (child.exitCode !== null) {
        throw new Error(`npm start exited (${child.exitCode}):\n${output.slice(-2000)}`);
      }
      if (Date.now() - started > 300_000) {
        throw new Error(`no REST answer within 300 s:\n${output.slice(-2000)}`);
      }
      const ok = await fetch(`http://127.0.0.1:${port}/placement/resource_providers`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) {
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const answerMs = Date.now() - started;
    return { answerMs, phases, ...boot, cpuMs: cpuOf(child.pid!) };
  } finally {
    await stop(child);
  }
}

const SCENARIOS = ['first start', 'fresh dir', 'initdb', 'template', 'restart'] as const;
type Scenario = (typeof SCENARIOS)[number];

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

const sec = (ms: number) => (ms / 1000).toFixed(2);

/**
 * Measures and prints cold (first start after `npm install`), warm (fresh data directory) and
 * restart boot times of the embedded database, `rounds` of each, interleaved.
 */
export async function runEmbeddedBoot(log: (line: string) => void, rounds = 3): Promise<void> {
  const root = repoRoot();
  const work = mkdtempSync(path.join(tmpdir(), 'berth-boot-'));
  try {
    const tree = path.join(work, 'tree');
    mkdirSync(tree);
    for (const entry of COPIED) {
      cpSync(path.join(root, entry), path.join(tree, entry), { recursive: true });
    }
    symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'));
    const results = new Map<Scenario, Boot[]>(SCENARIOS.map((s) => [s, []]));
    log(
      `embedded boot: ${rounds} rounds in a copy of the sources (${tree}); load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (let round = 0; round < rounds; round++) {
      const data = (name: string) => path.join(work, `data-${round}-${name}`);
      const cache = path.join(work, `cache-${round}`);
      rmSync(path.join(tree, 'dist'), { recursive: true, force: true });
      const run = async (s: Scenario, env: Record<string, string>) => {
        const b = await bootOnce(tree, env);
        results.get(s)!.push(b);
        log(
          `  round ${round + 1} ${s.padEnd(11)} ${sec(b.answerMs)} s (from ${b.from}, unpack ${b.unpackMs} ms, open ${b.openMs} ms, cpu ${b.cpuMs} ms)`,
        );
      };
      await run('first start', { BERTH_DATA_DIR: data('first'), BERTH_TEMPLATE_CACHE: cache });
      await run('fresh dir', { BERTH_DATA_DIR: data('fresh'), BERTH_TEMPLATE_CACHE: cache });
      const off = { BERTH_EMBEDDED_PREBUILT: 'off', BERTH_TEMPLATE_CACHE: cache };
      await run('initdb', { ...off, BERTH_DATA_DIR: data('initdb') });
      await run('template', { ...off, BERTH_DATA_DIR: data('template') });
      await run('restart', { BERTH_DATA_DIR: data('fresh'), BERTH_TEMPLATE_CACHE: cache });
    }
    const phaseNames = [
      'transpiled',
      'built',
      'dbThreadReady',
      'connected',
      'indexLoaded',
      'listening',
    ];
    log(
      `  ${'scenario'.padEnd(12)} ${'answer s (min-median-max)'.padEnd(26)} median phases, s from spawn: ${phaseNames.join(' / ')}`,
    );
    for (const s of SCENARIOS) {
      const bs = results.get(s)!;
      const answers = bs.map((b) => b.answerMs);
      const phases = phaseNames.map((p) => {
        const xs = bs.map((b) => b.phases[p]).filter((x) => x !== undefined);
        return xs.length ? sec(median(xs)) : '-';
      });
      log(
        `  ${s.padEnd(12)} ${`${sec(Math.min(...answers))}-${sec(median(answers))}-${sec(Math.max(...answers))}`.padEnd(26)} ${phases.join(' / ')}; unpack ${median(bs.map((b) => b.unpackMs))} ms, open ${median(bs.map((b) => b.openMs))} ms, cpu ${median(bs.map((b) => b.cpuMs))} ms`,
      );
    }
    log(
      `embedded boot: load after ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const rounds = Number(process.argv[2] ?? 3);
  runEmbeddedBoot((line) => process.stdout.write(`${line}\n`), rounds).catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
