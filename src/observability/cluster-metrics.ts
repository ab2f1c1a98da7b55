// /metrics across the workers of `berth serve --workers N`. The primary hands each connection to
// some worker, so a scrape lands on one of them; a scrape must still describe the server. The
// worker that receives it asks the primary, the primary asks every live worker for its metrics
// (prom-client JSON) over the cluster IPC channel and sums them with prom-client's
// AggregatorRegistry (counters and histograms add up; each gauge says how it combines), and the
// answer goes back to the asking worker. A worker that does not answer within the bound is left
// out (`berth_metrics_workers{state="missing"}` counts them), and when the primary cannot be
// reached the worker answers with its own metrics. `/metrics?scope=worker` always gives the
// answering worker's own.
import cluster, { type Worker } from 'node:cluster';
import {
  AggregatorRegistry,
  Gauge,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';

type Json = MetricObjectWithValues<MetricValue<string>>[];

type Message =
  | { readonly berth: 'metrics-collect'; readonly id: number }
  | { readonly berth: 'metrics-ask'; readonly id: number }
  | { readonly berth: 'metrics-answer'; readonly id: number; readonly metrics: Json }
  | { readonly berth: 'metrics-collected'; readonly id: number; readonly text: string };

function isMessage(m: unknown): m is Message {
  const kind = (m as { berth?: unknown } | null)?.berth;
  return typeof kind === 'string' && kind.startsWith('metrics-');
}

/** How long the primary waits for the workers' answers, and a worker for the primary's. */
const ASK_MS = 2000;

let source: (() => Promise<Json>) | undefined;
const waiting = new Map<number, (text: string | undefined) => void>();
let nextId = 0;
let listening = false;

/**
 * Worker side: `json` is this worker's metrics; answers the primary's questions for them and
 * its replies to this worker's own questions. No-op outside a cluster worker.
 */
export function shareWorkerMetrics(json: () => Promise<Json>): void {
  if (!cluster.isWorker || !process.send) {
    return;
  }
  source = json;
  if (listening) {
    return;
  }
  listening = true;
  process.on('message', (m: unknown) => {
    if (!isMessage(m)) {
      return;
    }
    if (m.berth === 'metrics-ask') {
      (source ?? (async () => []))()
        .catch(() => [] as Json)
        .then((metrics) => process.send?.({ berth: 'metrics-answer', id: m.id, metrics }));
    } else if (m.berth === 'metrics-collected') {
      waiting.get(m.id)?.(m.text);
      waiting.delete(m.id);
    }
  });
}

/**
 * Worker side: the whole server's metrics text, from the primary; undefined outside a cluster or
 * when the primary does not answer in time.
 */
export function clusterMetricsText(): Promise<string | undefined> {
  if (!cluster.isWorker || !process.send || !listening) {
    return Promise.resolve(undefined);
  }
  const id = ++nextId;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve(undefined);
    }, ASK_MS + 1000);
    waiting.set(id, (text) => {
      clearTimeout(timer);
      resolve(text);
    });
    process.send?.({ berth: 'metrics-collect', id } satisfies Message);
  });
}

/**
 * Primary side: a handler for messages from workers; true when it consumed `m` (a metrics
 * message). `workers()` are the live workers to ask.
 */
export function primaryMetricsHandler(
  workers: () => Iterable<Worker>,
): (from: Worker, m: unknown) => boolean {
  let nextAsk = 0;
  const asks = new Map<number, (worker: Worker, metrics: Json) => void>();
  return (from, m) => {
    if (!isMessage(m)) {
      return false;
    }
    if (m.berth === 'metrics-answer') {
      asks.get(m.id)?.(from, m.metrics);
      return true;
    }
    if (m.berth !== 'metrics-collect') {
      return true;
    }
    const ask = ++nextAsk;
    const asked = [...workers()].filter((w) => w.isConnected());
    const answers = new Map<number, Json>();
    const finish = () => {
      clearTimeout(timer);
      asks.delete(ask);
      const registry = AggregatorRegistry.aggregate([...answers.values()]);
      const counted = new Gauge({
        name: 'berth_metrics_workers',
        help: 'Workers whose metrics this scrape sums (answered), and those that did not answer in time (missing).',
        labelNames: ['state'],
        registers: [registry],
      });
      counted.set({ state: 'answered' }, answers.size);
      counted.set({ state: 'missing' }, asked.length - answers.size);
      registry.metrics().then(
        (text) => from.send({ berth: 'metrics-collected', id: m.id, text } satisfies Message),
        () => from.send({ berth: 'metrics-collected', id: m.id, text: '' } satisfies Message),
      );
    };
    const timer = setTimeout(finish, ASK_MS);
    asks.set(ask, (worker, metrics) => {
      answers.set(worker.id, metrics);
      if (answers.size === asked.length) {
        finish();
      }
    });
    for (const w of asked) {
      w.send({ berth: 'metrics-ask', id: ask } satisfies Message);
    }
    if (asked.length === 0) {
      finish();
    }
    return true;
  };
}
