// Candidate sets shared between replicas by the canonical form of their request (Redis, or the
// in-process LRU on the embedded default), off unless configured (BERTH_CANDIDATE_SHARED_CACHE):
// every change to providers, inventories, allocations, traits or aggregates bumps a shared epoch
// that is part of every key, so an entry is never served after a change this deployment has
// committed; entries also expire. Measured slower than computing the answer from the index, even
// across replicas (docs/scheduling-moves.md), hence off by default. Within a replica, identical
// requests of an unchanged state share a whole evaluation instead (evaluation-memo.ts).
// Entries are hints: claims are validated in PostgreSQL, so even a stale one cannot over-commit.
import { createHash } from 'node:crypto';
import type { Cache } from '../../cache/cache';
import { cacheKey } from '../../cache/cache';
import type { CandidateRequest } from '../../placement/allocation-candidates/request';
import type { AllocationCandidates } from '../../placement/allocation-candidates/results';
import type { ChangeBus } from '../../placement/change-bus';
import { canonicalRequest } from './request-key';
import { DEFAULT_GATE, type GateOptions, UsefulnessGate } from './usefulness-gate';

/** Hit/miss counters (metrics). */
export interface CandidateCacheStats {
  /** Lookups answered by the shared layer. */
  hits: number;
  /** Lookups the source answered (every one while the layer is off). */
  misses: number;
  /** Misses that skipped the shared layer because it was not paying off (see UsefulnessGate). */
  sharedBypassed: number;
}

/** Where candidates come from (the CandidateService over this replica's capacity index). */
export interface CandidateSource {
  find(req: CandidateRequest): Promise<AllocationCandidates>;
}

/** How the shared layer is consulted: only while it pays, on every lookup, or never. */
export type SharedLayerMode = 'gated' | 'always' | 'off';

/** The shared candidate-set cache. */
export class CandidateCache {
  private readonly counters = { hits: 0, misses: 0 };
  /** Whether the shared layer pays for its round trips (it does not under a stream of claims). */
  private readonly shared: UsefulnessGate;
  private localEpoch = 0;
  /** The last shared-epoch increment this replica started (awaited before reading the epoch). */
  private pendingIncr: Promise<unknown> = Promise.resolve();
  private readonly epochKey = cacheKey('candidates', 'epoch');

  /** False when the shared layer is configured off (`BERTH_CANDIDATE_SHARED_CACHE=off`). */
  private readonly sharedOn: boolean;

  constructor(
    private readonly cache: Cache,
    bus: ChangeBus,
    private readonly ttlMs = 60000,
    mode: SharedLayerMode = 'off',
    gate: GateOptions = DEFAULT_GATE,
  ) {
    this.sharedOn = mode !== 'off';
    // A gate that never closes: every lookup consults the shared layer.
    this.shared = new UsefulnessGate(mode === 'always' ? { ...gate, minHitRate: 0 } : gate);
    bus.subscribe((change, origin) => {
      if (change.kind === 'catalog') {
        return;
      }
      this.localEpoch++;
      // The writer bumps the shared epoch; other replicas hear the change but need not repeat it.
      // The in-process cache is per process, so its local epoch already covers remote changes.
      if (origin === 'local' && this.sharedOn && this.cache.kind === 'redis') {
        this.pendingIncr = this.cache.incr(this.epochKey);
      }
    });
  }

  get stats(): CandidateCacheStats {
    return { ...this.counters, sharedBypassed: this.shared.bypassed };
  }

  private async key(req: CandidateRequest): Promise<string | undefined> {
    let epoch: number | undefined = this.localEpoch;
    if (this.cache.kind === 'redis') {
      // Read-your-writes on this replica: our own increment lands before we read the epoch.
      await this.pendingIncr;
      epoch = await this.cache.get<number>(this.epochKey);
      // An absent shared epoch is fine (0); a backend failure means "do not cache".
      epoch = epoch ?? ((await this.cache.healthy()) ? 0 : undefined);
      if (epoch === undefined) {
        return undefined;
      }
    }
    const digest = createHash('sha1').update(canonicalRequest(req)).digest('hex');
    return cacheKey('candidates', `${epoch}:${digest}`);
  }

  /**
   * The shared layer's candidates for `req`, or the source's answer (then stored there).
   * Randomised requests are never cached; with the layer off every lookup goes to the source.
   */
  async getOrCompute(
    req: CandidateRequest,
    source: CandidateSource,
  ): Promise<AllocationCandidates> {
    if (req.randomize) {
      return source.find(req);
    }
    if (!this.sharedOn) {
      this.counters.misses++;
      return source.find(req);
    }
    const epochAtKey = this.localEpoch;
    const key = this.shared.use() ? await this.key(req) : undefined;
    const value = key ? await this.cache.get<AllocationCandidates>(key) : undefined;
    if (key) {
      this.shared.record(value !== undefined);
    }
    if (value) {
      this.counters.hits++;
      return value;
    }
    this.counters.misses++;
    const found = await source.find(req);
    // A change this replica heard meanwhile has made the entry unreachable (the epoch moved on):
    // storing it would only cost the write.
    if (key && this.localEpoch === epochAtKey) {
      await this.cache.set(key, found, this.ttlMs);
    }
    return found;
  }
}
