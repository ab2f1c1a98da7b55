// The real `berth` CLI as a child process for tests: started from the TypeScript sources with a
// clean environment (no DATABASE_URL, REDIS_URL or BERTH_WORKERS from the caller), its output
// collected, and a poll helper for what it prints or serves.
import { type ChildProcess, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import path from 'node:path';
import { createTestDb, onEmbedded, schemaUrl } from './db';

/** The repository root (the CLI's working directory). */
export const root = path.resolve(__dirname, '../..');

/** Node's `-r` hook that runs the TypeScript sources (swc; cluster workers inherit it). */
export const TS_REGISTER: readonly string[] = [
  '-r',
  path.join(root, 'test/support/swc-register.cjs'),
];

/** How node runs the CLI from the TypeScript sources (after `process.execPath`). */
export const CLI_ARGS: readonly string[] = [...TS_REGISTER, 'src/cli/main.ts'];

/** A clean environment (none of the caller's DATABASE_URL, REDIS_URL, BERTH_WORKERS) plus `env`. */
export function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const clean = { ...process.env };
  delete clean.DATABASE_URL;
  delete clean.REDIS_URL;
  delete clean.BERTH_WORKERS;
  return { ...clean, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env };
}

/**
 * V8 flags for a short `berth` under test (`node` options, before {@link CLI_ARGS}): PostgreSQL's
 * wasm is compiled by Liftoff alone and never again by TurboFan, whose background compiles are
 * most of the CPU a process that lives seconds spends on it (PGlite's initdb ~9 s -> ~6 s, a
 * start on an existing data directory ~0.5 s less). Only V8's code tier changes, not what runs.
 */
export const QUICK_V8: readonly string[] = ['--liftoff-only'];

/**
 * Runs the TypeScript `script` (node -e, with {@link QUICK_V8}) in a child process with `args`,
 * `env` added to the caller's environment, and resolves with the JSON it prints.
 */
export function jsonFromChild<T>(
  script: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...QUICK_V8, ...TS_REGISTER, '-e', script, ...args], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`child exited ${code}`)),
    );
  });
}

/**
 * Starts `berth <args>` with `env` added to a clean environment; `node` flags (e.g.
 * {@link QUICK_V8}) go before the script.
 */
export function berth(
  args: string[],
  env: Record<string, string | undefined>,
  node: readonly string[] = [],
): ChildProcess {
  return spawn(process.execPath, [...node, ...CLI_ARGS, ...args], {
    cwd: root,
    env: cliEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `berth <args>` to completion ({@link berth}'s arguments): its exit code and output. */
export function runBerth(
  args: string[],
  env: Record<string, string | undefined>,
  node: readonly string[] = [],
): Promise<{ code: number | null; out: string; err: string }> {
  const child = berth(args, env, node);
  const io = collect(child);
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, out: io.out(), err: io.err() })),
  );
}

/** Sends SIGTERM to `child` and resolves with its exit code (null when a signal ended it). */
export function terminate(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

/** Collects what `child` writes to stdout and stderr. */
export function collect(child: ChildProcess): { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  return { out: () => out, err: () => err };
}

/**
 * A TCP port free on 127.0.0.1 now (the kernel's pick for port 0), for a server under test. A
 * random number in 20000–40000 collided with other tests' outgoing connections and servers
 * (Linux hands out ephemeral ports from 32768).
 */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Polls `pred` every 100 ms until it holds. @throws after `ms` milliseconds. */
export async function waitFor(pred: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) {
      throw new Error('timed out');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Where a `berth serve` under test keeps its data when the embedded default is not what the test
 * is about: a PostgreSQL schema of its own when DATABASE_URL is set (one process, auth off as on
 * the embedded default, migrated by the server at start), else `dataDir` on the embedded database (a cold start there takes most of a
 * minute on a busy machine). `drop()` removes the schema.
 */
export async function serveStorage(
  dataDir: string,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (onEmbedded()) {
    return { env: { BERTH_DATA_DIR: dataDir }, drop: async () => {} };
  }
  const db = await createTestDb({ migrate: false });
  return {
    // As the embedded default runs: one process, auth off.
    env: { DATABASE_URL: schemaUrl(db.schema), BERTH_WORKERS: '1', BERTH_AUTH: 'off' },
    drop: () => db.drop(),
  };
}
