// Candidate sets cached by the canonical form of their request (Redis, or the in-process LRU on
// the embedded default). Every change to providers, inventories, allocations, traits or aggregates
// bumps a shared epoch that is part of every key, so an entry is never served after a change this
// deployment has committed; entries also expire. The cache is a hint: claims are validated in
// PostgreSQL, so even a stale entry cannot cause an over-commit.
import { createHash } from 'node:crypto';
import type { Cache } from '../cache/cache';
import { cacheKey } from '../cache/cache';
import type { CandidateRequest, RequestGroup } from '../placement/allocation-candidates/request';
import type { AllocationCandidates } from '../placement/allocation-candidates/results';
import type { ChangeBus } from '../placement/change-bus';

const sortedSets = (sets: readonly (readonly string[])[] | undefined) =>
  (sets ?? []).map((s) => [...s].sort()).sort((a, b) => a.join(',').localeCompare(b.join(',')));

function canonicalGroup(g: RequestGroup) {
  return {
    s: g.suffix,
    r: Object.entries(g.resources).sort(([a], [b]) => a.localeCompare(b)),
    t: sortedSets(g.requiredTraits),
    ft: [...g.forbiddenTraits].sort(),
    m: sortedSets(g.memberOf),
    fm: [...g.forbiddenAggregates].sort(),
    it: g.inTree ?? null,
  };
}

/** A stable string for equal requests, whatever their field order. */
export function canonicalRequest(req: CandidateRequest): string {
  return JSON.stringify({
    g: [...req.groups].map(canonicalGroup).sort((a, b) => a.s.localeCompare(b.s)),
    p: req.groupPolicy ?? null,
    rr: sortedSets(req.rootRequired),
    rf: [...(req.rootForbidden ?? [])].sort(),
    ss: sortedSets(req.sameSubtree),
    l: req.limit ?? null,
    x: req.randomize ?? false,
  });
}

/** Hit/miss counters (metrics). */
export interface CandidateCacheStats {
  hits: number;
  misses: number;
}

/** The candidate-set cache. */
export class CandidateCache {
  readonly stats: CandidateCacheStats = { hits: 0, misses: 0 };
  private localEpoch = 0;
  /** The last shared-epoch increment this replica started (awaited before reading the epoch). */
  private pendingIncr: Promise<unknown> = Promise.resolve();
  private readonly epochKey = cacheKey('candidates', 'epoch');

  constructor(
    private readonly cache: Cache,
    bus: ChangeBus,
    private readonly ttlMs = 60000,
  ) {
    bus.subscribe((change, origin) => {
      if (change.kind === 'catalog') {
        return;
      }
      this.localEpoch++;
      // The writer bumps the shared epoch; other replicas hear the change but need not repeat it.
      // The in-process cache is per process, so its local epoch already covers remote changes.
      if (origin === 'local' && this.cache.kind === 'redis') {
        this.pendingIncr = this.cache.incr(this.epochKey);
      }
    });
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
   * The cached candidates for `req`, or the result of `compute` (then stored).
   * Randomised requests are never cached.
   */
  async getOrCompute(
    req: CandidateRequest,
    compute: () => Promise<AllocationCandidates>,
  ): Promise<AllocationCandidates> {
    if (req.randomize) {
      return compute();
    }
    const epochAtKey = this.localEpoch;
    const key = await this.key(req);
    if (key) {
      const hit = await this.cache.get<AllocationCandidates>(key);
      if (hit) {
        this.stats.hits++;
        return hit;
      }
    }
    this.stats.misses++;
    const value = await compute();
    // A change this replica heard meanwhile has made the entry unreachable (the epoch moved on):
    // storing it would only cost the write. Under a stream of claims this is the common case.
    if (key && this.localEpoch === epochAtKey) {
      await this.cache.set(key, value, this.ttlMs);
    }
    return value;
  }
}
