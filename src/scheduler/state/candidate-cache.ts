// Candidate sets cached by the canonical form of their request, in two layers.
// - Local (per replica): the answer computed from this replica's capacity index, kept while the
//   index is at the same revision. Computing again from the same index state gives the same answer,
//   so a local hit is exact; it is what lets a stream of identical requests (a scheduler placing
//   many instances of one flavor) share one computation between two index changes.
// - Shared (Redis, or the in-process LRU on the embedded default), off unless configured
//   (BERTH_CANDIDATE_SHARED_CACHE): every change to providers, inventories, allocations, traits or
//   aggregates bumps a shared epoch that is part of every key, so an entry is never served after a
//   change this deployment has committed; entries also expire. Measured slower than computing the
//   answer from the index, even across replicas (docs/scheduling-moves.md), hence off by default.
// Both are hints: claims are validated in PostgreSQL, so even a stale entry cannot over-commit.
import { createHash } from 'node:crypto';
import type { Cache } from '../../cache/cache';
import { cacheKey } from '../../cache/cache';
import type { CandidateRequest } from '../../placement/allocation-candidates/request';
import type { AllocationCandidates } from '../../placement/allocation-candidates/results';
import type { ChangeBus } from '../../placement/change-bus';
import { deepFreeze } from './deep-freeze';
import { canonicalRequest } from './request-key';
import { DEFAULT_GATE, type GateOptions, UsefulnessGate } from './usefulness-gate';

/** Hit/miss counters (metrics). */
export interface CandidateCacheStats {
  /** Lookups answered by either layer. */
  hits: number;
  /** Of those, answered by the local layer (no round trip). */
  localHits: number;
  misses: number;
  /** Misses that skipped the shared layer because it was not paying off (see UsefulnessGate). */
  sharedBypassed: number;
}

/** Where candidates come from (the CandidateService over this replica's capacity index). */
export interface CandidateSource {
  /** Applies every change heard so far to the index. */
  current(): Promise<unknown>;
  /** Names the index state; read right after `current()` it names the state that call left. */
  readonly revision: number;
  find(req: CandidateRequest): Promise<AllocationCandidates>;
}

/** How the shared layer is consulted: only while it pays, on every lookup, or never. */
export type SharedLayerMode = 'gated' | 'always' | 'off';

interface LocalEntry {
  readonly revision: number;
  readonly value: AllocationCandidates;
}

/** Local entries kept (distinct requests between two index changes); oldest dropped first. */
const LOCAL_ENTRIES = 256;

/** The candidate-set cache. */
export class CandidateCache {
  private readonly counters = { hits: 0, localHits: 0, misses: 0 };
  private readonly local = new Map<string, LocalEntry>();
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

  private async key(canonical: string): Promise<string | undefined> {
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
    const digest = createHash('sha1').update(canonical).digest('hex');
    return cacheKey('candidates', `${epoch}:${digest}`);
  }

  /**
   * The cached candidates for `req`, or the source's answer (then stored in both layers).
   * Randomised requests are never cached. Answers from the local layer are shared between callers
   * and deeply frozen.
   */
  async getOrCompute(
    req: CandidateRequest,
    source: CandidateSource,
  ): Promise<AllocationCandidates> {
    if (req.randomize) {
      return source.find(req);
    }
    await source.current();
    const revision = source.revision;
    const canonical = canonicalRequest(req);
    const local = this.local.get(canonical);
    if (local?.revision === revision) {
      this.counters.hits++;
      this.counters.localHits++;
      return local.value;
    }
    const epochAtKey = this.localEpoch;
    const key = this.sharedOn && this.shared.use() ? await this.key(canonical) : undefined;
    let value = key ? await this.cache.get<AllocationCandidates>(key) : undefined;
    if (key) {
      this.shared.record(value !== undefined);
    }
    if (value) {
      this.counters.hits++;
    } else {
      this.counters.misses++;
      value = await source.find(req);
      // A change this replica heard meanwhile has made the entry unreachable (the epoch moved on):
      // storing it would only cost the write.
      if (key && this.localEpoch === epochAtKey) {
        await this.cache.set(key, value, this.ttlMs);
      }
    }
    // Kept locally only while nothing was applied to the index since the lookup.
    if (source.revision === revision) {
      this.remember(canonical, { revision, value: deepFreeze(value) });
    }
    return value;
  }

  private remember(canonical: string, entry: LocalEntry): void {
    this.local.delete(canonical);
    this.local.set(canonical, entry);
    if (this.local.size > LOCAL_ENTRIES) {
      // Maps iterate in insertion order: the least recently stored entry goes.
      this.local.delete(this.local.keys().next().value as string);
    }
  }
}
