// Subscription fan-out: `subscribers` SSE clients of providerChanged on one replica (a real HTTP
// server on loopback) while claims arrive at `rate` per second, each on a host of its own.
// Prints the delivery latency (from the start of the write to the event read by a client) and
// CPU per delivered event. Clients run in the same process, so the CPU figure is an upper bound
// for the replica (it includes parsing every event on the client side).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../src/app/app';
import { pct } from './http/client';

/** Runs the scenario on `app` and prints one line. */
export async function runSubscriptionBench(
  app: App,
  o: { subscribers: number; rate: number; claims: number },
  log: (line: string) => void,
): Promise<void> {
  const hosts: string[] = [];
  for (let i = 0; i < o.claims; i++) {
    const rp = await app.services.providers.create({ name: `sub-${i}`, uuid: randomUUID() });
    await app.services.inventories.setAll(rp.uuid, rp.generation, [
      { resourceClass: 'VCPU', total: 8 },
    ]);
    hosts.push(rp.uuid);
  }
  const server = createServer((req, res) => app.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const started = new Map<string, number>();
  const latencies: number[] = [];
  let delivered = 0;
  const aborts: AbortController[] = [];
  const readers = Array.from({ length: o.subscribers }, async () => {
    const abort = new AbortController();
    aborts.push(abort);
    const res = await fetch(
      `${base}/graphql?query=${encodeURIComponent('subscription { providerChanged(filter: { nameContains: "sub-" }) { providerUuids } }')}`,
      { headers: { accept: 'text/event-stream' }, signal: abort.signal },
    );
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const data = buffer
            .slice(0, cut)
            .split('\n')
            .find((l) => l.startsWith('data:'));
          buffer = buffer.slice(cut + 2);
          if (data) {
            const uuids = (
              JSON.parse(data.slice(5)) as {
                data: { providerChanged: { providerUuids: string[] } };
              }
            ).data.providerChanged.providerUuids;
            const now = performance.now();
            for (const u of uuids) {
              const t = started.get(u);
              if (t !== undefined) {
                latencies.push(now - t);
                delivered++;
              }
            }
          }
        }
      }
    } catch {
      // aborted at the end
    }
  });
  await new Promise((r) => setTimeout(r, 500)); // every subscription is open
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < o.claims; i++) {
    const due = t0 + (i * 1000) / o.rate;
    const wait = due - performance.now();
    if (wait > 0) {
      await new Promise((r) => setTimeout(r, wait));
    }
    started.set(hosts[i]!, performance.now());
    await app.services.allocations.set([
      {
        consumerUuid: randomUUID(),
        projectId: 'bench',
        userId: 'bench',
        consumerType: 'INSTANCE',
        consumerGeneration: null,
        allocations: [{ providerUuid: hosts[i]!, resources: { VCPU: 1 } }],
      },
    ]);
  }
  const want = o.claims * o.subscribers;
  for (let i = 0; i < 100 && delivered < want; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const cpu = process.cpuUsage(cpu0);
  const secs = (performance.now() - t0) / 1000;
  for (const a of aborts) {
    a.abort();
  }
  await Promise.allSettled(readers);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  log(
    `subscriptions: ${o.subscribers} SSE subscribers, ${o.claims} claims at ${o.rate}/s: ${delivered}/${want} events delivered in ${secs.toFixed(1)} s; delivery p50 ${pct(latencies, 50).toFixed(1)} ms p95 ${pct(latencies, 95).toFixed(1)} ms; CPU ${((cpu.user + cpu.system) / Math.max(1, delivered)).toFixed(1)} µs per delivered event (server and clients in one process)`,
  );
}
