// src/observability/ is how berth is watched: the Prometheus registry and histograms (metrics.ts),
// the metrics of requests, GraphQL operations, scheduler stages, claims, pools, caches and cluster
// workers, OpenTelemetry tracing, the request scope and the structured logger (logger.ts). This
// file puts the metrics together for one app; `/metrics` serves what it builds.
//
// /metrics: one Prometheus registry per app (prom-client) holding the request, GraphQL, scheduler
// stage, claim and pool histograms, and the caches' and scheduler's statistics under their
// long-standing names (src/observability/stats-metrics.ts). `instrument: false` leaves the hot
// paths bare (no histograms, no spans): the bench's baseline for the instrumentation's cost.
import type { Plugin } from 'graphql-yoga';
import { Counter, Gauge, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { Services } from '../app/services';
import { CONSOLE_PREFIX } from '../http/console-assets';
import { ASSET_PREFIX } from '../http/graphiql-assets';
import { ROUTES } from '../rest/routes';
import type { ClaimWriter } from '../scheduler/claiming/claim-batcher';
import { registerCapacityMetrics } from './capacity-metrics';
import { timedClaimWriter } from './claims';
import { clusterMetricsText, shareWorkerMetrics } from './cluster-metrics';
import { OperationNames, useOperationMetrics } from './graphql-metrics';
import { methodLabel, routeNamer, statusLabel } from './http-route';
import { createHistograms, exposition, expositionJson } from './metrics';
import { observePool } from './pool';
import { countingOutcomes } from './schedule-outcomes';
import { BARE_STAGES, type StageObserver, stageObserver } from './stage';
import { registerStatsMetrics, type StatsSources } from './stats-metrics';

/** The metrics of one app. */
export interface AppMetrics {
  /** The scheduler's stage seam. */
  readonly stages: StageObserver;
  /** Yoga plugins (none when not instrumenting). */
  readonly graphqlPlugins: Plugin[];
  /** Records one finished HTTP request. */
  observeRequest(path: string, method: string | undefined, status: number, seconds: number): void;
  /** The claim writer, its transactions timed. */
  claimWriter(writer: ClaimWriter): ClaimWriter;
  /** Observes the pool of `ds` (waits, client counts). */
  observePool(ds: DataSource): void;
  /** Exposes the statistics of `sources` (read at each scrape). */
  readStats(sources: StatsSources): void;
  /**
   * Exposes the capacity gauges (src/observability/capacity-metrics.ts), with at most
   * `maxAggregates` aggregates of their own (BERTH_METRICS_AGGREGATES), read at each scrape.
   */
  readCapacity(
    services: Pick<Services, 'capacityHistory' | 'aggregates'>,
    maxAggregates: number,
  ): void;
  /** Exposes `berth_ready` (1 when `check` says ready, as /readyz), checked at each scrape. */
  readReadiness(check: () => Promise<{ readonly ready: boolean }>): void;
  /**
   * The Prometheus text exposition, read now: in a cluster worker the whole server's (summed by
   * the primary, src/observability/cluster-metrics.ts) unless `scope` is 'worker'.
   */
  text(scope?: 'server' | 'worker'): Promise<string>;
  readonly contentType: string;
  /** Stops observing shared things (the pool). */
  close(): void;
}

/**
 * Builds an app's metrics; `restPrefix` names REST routes, `operationNames` are the GraphQL
 * operation names that always have their own label (BERTH_METRICS_OPERATION_NAMES).
 */
export function createAppMetrics(o: {
  restPrefix: string;
  instrument?: boolean;
  operationNames?: readonly string[];
}): AppMetrics {
  const registry = new Registry();
  const h = createHistograms(registry);
  const instrument = o.instrument ?? true;
  const routeOf = routeNamer({
    exact: ['/healthz', '/readyz', '/metrics', '/graphql'],
    prefixes: ['/graphql', CONSOLE_PREFIX, ASSET_PREFIX],
    restPrefix: o.restPrefix,
    restTemplates: ROUTES.map((r) => r.path),
  });
  const stops: (() => void)[] = [];
  const conflicts = claimConflicts(registry);
  shareWorkerMetrics(() => expositionJson(registry));
  return {
    stages: instrument ? countingOutcomes(stageObserver(h.stages), registry) : BARE_STAGES,
    graphqlPlugins: instrument
      ? [useOperationMetrics(h.graphql, new OperationNames(undefined, o.operationNames))]
      : [],
    observeRequest(path, method, status, seconds) {
      if (instrument) {
        h.http.observe(
          { route: routeOf(path), method: methodLabel(method), status: statusLabel(status) },
          seconds,
        );
      }
    },
    claimWriter: (writer) =>
      instrument
        ? timedClaimWriter(writer, h.claimTransactions, h.claimBatchSize, conflicts)
        : writer,
    observePool(ds) {
      if (instrument) {
        stops.push(observePool(ds, h.poolAcquire, registry));
      }
    },
    readStats: (sources) => registerStatsMetrics(registry, sources),
    readCapacity: (services, maxAggregates) =>
      registerCapacityMetrics(registry, services, maxAggregates),
    readReadiness(check) {
      new Gauge({
        name: 'berth_ready',
        help: '1 when this replica is ready (/readyz: database reachable and migrated), else 0.',
        // A server of several workers is ready when every worker is.
        aggregator: 'min',
        registers: [registry],
        async collect() {
          this.set((await check().catch(() => ({ ready: false }))).ready ? 1 : 0);
        },
      });
    },
    async text(scope = 'server') {
      const server = scope === 'server' ? await clusterMetricsText() : undefined;
      return server ?? exposition(registry);
    },
    contentType: registry.contentType,
    close() {
      for (const stop of stops.splice(0)) {
        stop();
      }
    },
  };
}

/** `berth_claim_conflicts_total`, on `registry`. */
function claimConflicts(registry: Registry): Counter<'code'> {
  const counter = new Counter({
    name: 'berth_claim_conflicts_total',
    help: 'Scheduler claims refused with a conflict (stale generation, capacity taken, group policy, quota), by error code; the scheduler then tries the next host.',
    labelNames: ['code'],
    registers: [registry],
  });
  // The common code exists from the start, so rate() sees the first conflict.
  counter.inc({ code: 'placement.concurrent_update' }, 0);
  return counter;
}
