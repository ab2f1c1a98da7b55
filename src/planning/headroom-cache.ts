// Flat hosts' headroom answers kept per live capacity index (see headroom-flavor.ts): per
// question (pipeline, request, extra specs, zone, project) and host, the answer and the host's
// stamp when it was counted. A stamp comes from the index's one clock and moves with every
// change of the provider (usage, consumers, inventories, traits, aggregates), so an equal stamp
// means an unchanged host; what is not the host's own (the aggregate metadata list) drops
// everything when it changes. The caller checks that the host is still flat and draws on no
// sharing provider.
import type { CapacityIndex } from '../placement/allocation-candidates/capacity-index';
import type { HostHeadroom } from './headroom-hosts';

/** One host's kept answer. */
export interface CachedHost {
  /** The host's stamp in the capacity index when it was counted. */
  readonly stamp: number;
  readonly result: HostHeadroom;
}

/** Root slot -> kept answer, for one question. */
export type CachedHosts = Map<number, CachedHost>;

interface IndexCache {
  readonly aggregates: readonly unknown[];
  readonly questions: Map<string, CachedHosts>;
}

/**
 * Most questions kept per index (beyond it the cache starts over): one question holds a small
 * object per host, ~1 MB at 10,000 hosts.
 */
const MAX_QUESTIONS = 32;

const caches = new WeakMap<CapacityIndex, IndexCache>();

/**
 * The kept answers of the question `key` on `live` as it is now (an empty map to fill when there
 * are none yet).
 */
export function hostCache(
  live: CapacityIndex,
  aggregates: readonly unknown[],
  key: unknown,
): CachedHosts {
  let cache = caches.get(live);
  if (!cache || cache.aggregates !== aggregates || cache.questions.size >= MAX_QUESTIONS) {
    cache = { aggregates, questions: new Map() };
    caches.set(live, cache);
  }
  const text = JSON.stringify(key);
  let hosts = cache.questions.get(text);
  if (!hosts) {
    hosts = new Map();
    cache.questions.set(text, hosts);
  }
  return hosts;
}
