// The three berth replicas of the HA test: containers of the image operators deploy
// (deploy/Containerfile, bench/ha/image.ts), or plain processes with `--processes` (a faster loop
// while developing). Either way the harness sees the same thing: a base URL and "still running".
import { join } from 'node:path';
import { ReplicaClient } from '../soak/client';
import { freePort, spawnReplica, stopReplica, waitReady } from '../soak/replicas';
import type { Target } from '../soak/router';
import { type ContainerReplica, runContainerReplica } from './image';

/** One running replica. */
export interface HaReplica {
  readonly name: string;
  readonly url: string;
  /** False once the process or container has exited (berth must never exit on a fault). */
  alive(): boolean;
  stop(): Promise<void>;
}

/** How replicas are run: the image's tag, or processes. */
export type ReplicaKind = { readonly image: string } | { readonly processes: true };

/** Settings every replica of the test gets. */
const COMMON_ENV = {
  BERTH_WORKERS: '1',
  LOG_LEVEL: 'warn',
  BERTH_CANDIDATE_SHARED_CACHE: 'gated',
};

/** Starts `n` replicas with `env` and waits until each answers /readyz 200. */
export async function startReplicas(
  kind: ReplicaKind,
  n: number,
  env: Record<string, string>,
  o: { readonly prefix: string; readonly logDir: string; readonly log: (m: string) => void },
): Promise<HaReplica[]> {
  const replicas: HaReplica[] = [];
  for (let i = 1; i <= n; i++) {
    const name = `${o.prefix}-${i}`;
    const port = await freePort();
    if ('image' in kind) {
      const c: ContainerReplica = await runContainerReplica({
        tag: kind.image,
        name,
        port,
        env: { ...COMMON_ENV, ...env },
        logDir: o.logDir,
      });
      let exited = false;
      void c.exited.then(() => {
        exited = true;
      });
      replicas.push({ name, url: c.url, alive: () => !exited, stop: () => c.remove() });
    } else {
      const r = spawnReplica(name, port, { ...COMMON_ENV, ...env }, join(o.logDir));
      replicas.push({
        name,
        url: r.url,
        alive: () => r.child.exitCode === null && r.child.signalCode === null,
        stop: async () => {
          await stopReplica(r);
        },
      });
    }
  }
  for (const r of replicas) {
    const client = new ReplicaClient(r.url);
    try {
      const ms = await waitReady(client, 90000);
      o.log(`${r.name} ready at ${r.url} (${ms} ms)`);
    } finally {
      client.close();
    }
  }
  return replicas;
}

/** The claimers' view of the replicas (soak router targets). */
export function targetsOf(replicas: readonly HaReplica[]): Target[] {
  return replicas.map((r) => ({
    name: r.name,
    client: new ReplicaClient(r.url),
    downUntil: 0,
    sigtermAt: 0,
  }));
}
