// /metrics: the Prometheus text of what the caches, the capacity index and the scheduler did.
import type { Scheduling } from '../app-scheduling';
import type { Cache } from '../cache/cache';
import type { Services } from '../services';

/** What the metrics are read from. */
export interface MetricsSources {
  readonly scheduling: Scheduling;
  readonly services: Pick<Services, 'candidates' | 'allocations'>;
  readonly cache: Cache;
}

/** One metric in the Prometheus text format. */
function metric(name: string, type: 'counter' | 'gauge', value: number, help?: string): string {
  const lines = help ? [`# HELP ${name} ${help}`] : [];
  return [...lines, `# TYPE ${name} ${type}`, `${name} ${value}`].join('\n');
}

/** The metrics text, read now. */
export function metricsText(d: MetricsSources): string {
  const c = d.scheduling.cache.stats;
  const lookups = c.hits + c.misses;
  const idx = d.services.candidates.stats;
  const ev = d.scheduling.service.evaluations.stats;
  const cb = d.scheduling.service.claims.stats;
  const aw = d.services.allocations.groupCommitStats();
  return [
    metric('berth_candidate_cache_hits_total', 'counter', c.hits, 'Candidate-set cache hits.'),
    metric(
      'berth_candidate_cache_local_hits_total',
      'counter',
      c.localHits,
      'Hits served by the per-replica layer (same index revision).',
    ),
    metric(
      'berth_candidate_cache_shared_bypassed_total',
      'counter',
      c.sharedBypassed,
      'Misses that skipped the shared layer (it was not paying off).',
    ),
    metric('berth_candidate_cache_misses_total', 'counter', c.misses),
    metric(
      'berth_candidate_cache_hit_ratio',
      'gauge',
      lookups ? c.hits / lookups : 0,
      'Hits / lookups since start.',
    ),
    metric('berth_cache_backend_errors_total', 'counter', d.cache.stats.errors),
    metric('berth_candidate_index_full_loads_total', 'counter', idx.fullLoads),
    metric('berth_candidate_index_refreshes_total', 'counter', idx.refreshes),
    metric('berth_candidate_index_providers', 'gauge', idx.providers),
    metric(
      'berth_scheduler_evaluations_total',
      'counter',
      ev.computed,
      'Filter/weigher passes run.',
    ),
    metric(
      'berth_scheduler_evaluations_shared_total',
      'counter',
      ev.shared,
      "Requests answered with an identical request's pass.",
    ),
    metric(
      'berth_claim_batches_total',
      'counter',
      cb.batches,
      'Transactions that wrote several scheduler claims.',
    ),
    metric('berth_claim_batched_claims_total', 'counter', cb.batchedClaims),
    metric(
      'berth_allocation_write_batches_total',
      'counter',
      aw.batches,
      'Transactions that wrote several PUT /allocations requests (group commit).',
    ),
    metric('berth_allocation_write_batched_total', 'counter', aw.batchedWrites),
    metric(
      'berth_allocation_write_split_batches_total',
      'counter',
      aw.splitBatches,
      'Batches refused as a whole and retried write by write.',
    ),
    '',
  ].join('\n');
}
