// The counters and gauges berth keeps as plain statistics (caches, capacity index, evaluation
// memo, group commits), exposed under their long-standing names: each is read at scrape time by
// a prom-client collect() callback, so nothing on the hot path changes.
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Scheduling } from '../app/scheduling';
import type { Services } from '../app/services';
import type { Cache } from '../cache/cache';

/** What the statistics are read from. */
export interface StatsSources {
  readonly scheduling: Scheduling;
  readonly services: Pick<Services, 'candidates' | 'allocations'>;
  readonly cache: Cache;
  /** The Keystone client's call counts, with BERTH_AUTH=keystone. */
  readonly keystone?: { readonly stats: KeystoneStats };
}

interface KeystoneStats {
  readonly validations: number;
  readonly serviceAuths: number;
  readonly failures: number;
}

/** Keystone's calls, registered only with BERTH_AUTH=keystone. */
const KEYSTONE: readonly [string, string, (k: KeystoneStats) => number][] = [
  [
    'berth_keystone_token_validations_total',
    'Token validations asked of Keystone (GET /v3/auth/tokens; cached answers are not counted).',
    (k) => k.validations,
  ],
  [
    'berth_keystone_service_auths_total',
    "berth's own service-token requests to Keystone.",
    (k) => k.serviceAuths,
  ],
  [
    'berth_keystone_failures_total',
    'Keystone calls that failed (unreachable, timed out, or an unexpected answer).',
    (k) => k.failures,
  ],
];

type Read = (s: StatsSources) => number;

const COUNTERS: readonly [string, string, Read][] = [
  [
    'berth_candidate_cache_hits_total',
    'Candidate-set cache hits (the shared layer, BERTH_CANDIDATE_SHARED_CACHE).',
    (s) => s.scheduling.cache.stats.hits,
  ],
  [
    'berth_candidate_cache_shared_bypassed_total',
    'Misses that skipped the shared layer (it was not paying off).',
    (s) => s.scheduling.cache.stats.sharedBypassed,
  ],
  [
    'berth_candidate_cache_misses_total',
    'Candidate-set cache misses.',
    (s) => s.scheduling.cache.stats.misses,
  ],
  [
    'berth_cache_backend_errors_total',
    'Cache backend (Redis) errors.',
    (s) => s.cache.stats.errors,
  ],
  [
    'berth_candidate_index_full_loads_total',
    'Full loads of the capacity index.',
    (s) => s.services.candidates.stats.fullLoads,
  ],
  [
    'berth_candidate_index_refreshes_total',
    'Incremental refreshes of the capacity index.',
    (s) => s.services.candidates.stats.refreshes,
  ],
  [
    'berth_scheduler_evaluations_total',
    'Filter/weigher passes run.',
    (s) => s.scheduling.service.evaluations.stats.computed,
  ],
  [
    'berth_scheduler_evaluations_shared_total',
    "Requests answered with an identical request's pass.",
    (s) => s.scheduling.service.evaluations.stats.shared,
  ],
  [
    'berth_claim_batches_total',
    'Transactions that wrote several scheduler claims.',
    (s) => s.scheduling.service.claims.stats.batches,
  ],
  [
    'berth_claim_batched_claims_total',
    'Claims written by those transactions.',
    (s) => s.scheduling.service.claims.stats.batchedClaims,
  ],
  [
    'berth_allocation_write_batches_total',
    'Transactions that wrote several PUT /allocations requests (group commit).',
    (s) => s.services.allocations.groupCommitStats().batches,
  ],
  [
    'berth_allocation_write_batched_total',
    'PUT /allocations requests written by those transactions.',
    (s) => s.services.allocations.groupCommitStats().batchedWrites,
  ],
  [
    'berth_allocation_write_split_batches_total',
    'Batches refused as a whole and retried write by write.',
    (s) => s.services.allocations.groupCommitStats().splitBatches,
  ],
];

/** Gauges, with how a scrape of several workers combines them (src/observability/cluster-metrics.ts). */
const GAUGES: readonly [string, string, Read, 'average' | 'max'][] = [
  [
    'berth_candidate_cache_hit_ratio',
    'Hits / lookups since start.',
    (s) => {
      const c = s.scheduling.cache.stats;
      const lookups = c.hits + c.misses;
      return lookups ? c.hits / lookups : 0;
    },
    'average',
  ],
  [
    'berth_candidate_index_providers',
    'Providers in the capacity index.',
    (s) => s.services.candidates.stats.providers,
    // Every worker indexes every provider: the server's index is as large as the largest.
    'max',
  ],
];

/** Registers the statistics of `sources` on `registry`, read at each scrape. */
export function registerStatsMetrics(registry: Registry, sources: StatsSources): void {
  for (const [name, help, read] of COUNTERS) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read(sources));
      },
    });
  }
  const keystone = sources.keystone;
  for (const [name, help, read] of keystone ? KEYSTONE : []) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read(keystone!.stats));
      },
    });
  }
  for (const [name, help, read, aggregator] of GAUGES) {
    new Gauge({
      name,
      help,
      aggregator,
      registers: [registry],
      collect() {
        this.set(read(sources));
      },
    });
  }
}
