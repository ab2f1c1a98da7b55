// berth server processes for the soak: `node dist/src/cli/main.js serve` on loopback ports, one
// database and one Redis, logs to files; started, SIGTERMed and awaited by the harness.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { ReplicaClient } from './client';

/** A berth process owned by the harness. */
export interface Replica {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A free loopback TCP port. */
export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

/** Starts replica `name` on `port` with `env` added to the harness's environment. */
export function spawnReplica(
  name: string,
  port: number,
  env: Record<string, string>,
  logDir: string,
): Replica {
  mkdirSync(logDir, { recursive: true });
  const out = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [resolve('dist/src/cli/main.js'), 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      BERTH_HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Each replica is one process: the soak's replicas are what `--workers` would fork.
      BERTH_WORKERS: '1',
      // The opt-in shared candidate layer stays exercised under the Redis faults.
      BERTH_CANDIDATE_SHARED_CACHE: 'gated',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { name, port, url: `http://127.0.0.1:${port}`, child, exited };
}

/**
 * Polls /readyz of `client` until it answers 200; returns the milliseconds waited.
 * @throws after `timeoutMs`.
 */
export async function waitReady(client: ReplicaClient, timeoutMs: number): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if ((await client.readyz()).status === 200) {
      return Date.now() - t0;
    }
    await sleep(50);
  }
  throw new Error(`${client.url} not ready after ${timeoutMs} ms`);
}

/** SIGTERMs a replica and waits for it to exit (SIGKILL after `timeoutMs`). */
export async function stopReplica(r: Replica, timeoutMs = 15000): Promise<number | null> {
  if (r.child.exitCode !== null || r.child.signalCode !== null) {
    return r.child.exitCode;
  }
  r.child.kill('SIGTERM');
  const timer = setTimeout(() => r.child.kill('SIGKILL'), timeoutMs);
  const code = await r.exited;
  clearTimeout(timer);
  return code;
}
