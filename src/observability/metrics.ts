// The Prometheus registry of one berth app and its histograms (prom-client). Each app has its own
// registry, so several apps in one process (tests, the bench's replicas) never share a series;
// the process's own metrics (CPU, memory, GC, event loop) are collected once per process into a
// registry of their own and merged in at scrape time. berth's histograms are FastHistograms:
// prom-client histograms whose observations are plain counter increments
// (src/observability/fast-histogram.ts); the exposition is prom-client's.
import { collectDefaultMetrics, Registry } from 'prom-client';
import { FastHistogram } from './fast-histogram';

/** Seconds buckets for sub-millisecond to second-long work (stages, pool waits). */
export const FINE_SECONDS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];
/** Seconds buckets for requests. */
export const REQUEST_SECONDS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** The histograms of one app. */
export interface Histograms {
  readonly http: FastHistogram<'route' | 'method' | 'status'>;
  readonly graphql: FastHistogram<'operation_name' | 'operation_type'>;
  readonly stages: FastHistogram<'stage' | 'plugin'>;
  readonly claimTransactions: FastHistogram<'kind'>;
  readonly claimBatchSize: FastHistogram;
  readonly poolAcquire: FastHistogram;
}

/** A fresh app registry with berth's histograms registered on it. */
export function createHistograms(registry: Registry): Histograms {
  const registers = [registry];
  return {
    http: new FastHistogram({
      name: 'berth_http_request_duration_seconds',
      help: 'HTTP requests by route template, method and status class (2xx, 4xx, …).',
      labelNames: ['route', 'method', 'status'],
      buckets: REQUEST_SECONDS,
      registers,
    }),
    graphql: new FastHistogram({
      name: 'berth_graphql_operation_duration_seconds',
      help: 'GraphQL executions by operation name (first names seen; then `other`) and type.',
      labelNames: ['operation_name', 'operation_type'],
      buckets: REQUEST_SECONDS,
      registers,
    }),
    stages: new FastHistogram({
      name: 'berth_scheduler_stage_duration_seconds',
      help: 'Scheduler stages: schedule, explain, candidates, filter and weigher (per plugin), weighing, claim.',
      labelNames: ['stage', 'plugin'],
      buckets: FINE_SECONDS,
      registers,
    }),
    claimTransactions: new FastHistogram({
      name: 'berth_claim_transaction_duration_seconds',
      help: 'Claim transactions: one claim alone (single) or several new ones together (batch).',
      labelNames: ['kind'],
      buckets: FINE_SECONDS,
      registers,
    }),
    claimBatchSize: new FastHistogram({
      name: 'berth_claim_batch_size',
      help: 'Claims written per claim transaction.',
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers,
    }),
    poolAcquire: new FastHistogram({
      name: 'berth_db_pool_acquire_duration_seconds',
      help: 'Time to get a PostgreSQL client from the connection pool.',
      buckets: FINE_SECONDS,
      registers,
    }),
  };
}

let processRegistry: Registry | undefined;

/**
 * prom-client's default gauges whose names end in `_total`, which Prometheus reserves for counters
 * (`promtool check metrics` flags them). Each is the sum of the gauge of the same name without
 * `_total`, labelled by type (`sum(nodejs_active_handles)`), which stays.
 */
export const DROPPED_DEFAULT_METRICS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

/** The registry of process-wide metrics (prom-client's default metrics), made once. */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    for (const name of DROPPED_DEFAULT_METRICS) {
      processRegistry.removeSingleMetric(name);
    }
  }
  return processRegistry;
}

/** The Prometheus text of the process metrics and `registry`'s. */
export function exposition(registry: Registry): Promise<string> {
  return Registry.merge([processMetrics(), registry]).metrics();
}

/** The same metrics as prom-client JSON (what a cluster worker hands the primary to sum). */
export function expositionJson(registry: Registry) {
  return Registry.merge([processMetrics(), registry]).getMetricsAsJSON();
}
