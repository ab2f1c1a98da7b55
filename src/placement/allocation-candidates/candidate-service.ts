// Allocation candidates over this replica's in-memory capacity index: loaded once from
// PostgreSQL, then kept current by change notifications (local writes at once, other replicas'
// through NOTIFY). Answers are as fresh as the last committed change this replica has heard of;
// claims are always re-validated in PostgreSQL, so staleness can cost a retry, never correctness.
import type { DataSource } from 'typeorm';
import type { Change, ChangeBus } from '../change-bus';
import { loadCatalogs, loadProviderRows } from './candidate-rows';
import { type CandidateStage, candidateHostCount, explainCandidateStage } from './candidate-stage';
import type { CapacityIndex } from './capacity-index';
import {
  type CandidateBounds,
  DEFAULT_CANDIDATE_BOUNDS,
  type FindOptions,
  findAllocationCandidates,
} from './find-allocation-candidates';
import { loadCapacityIndex } from './index-load';
import type { CandidateRequest } from './request';
import type { AllocationCandidates } from './results';

/** Index freshness statistics (metrics). */
export interface CandidateIndexStats {
  fullLoads: number;
  refreshes: number;
  /** Provider slots in the index. */
  providers: number;
}

/** The allocation-candidate service. */
export class CandidateService {
  readonly stats: CandidateIndexStats = { fullLoads: 0, refreshes: 0, providers: 0 };
  private index: CapacityIndex | undefined;
  private stale = true;
  private catalogStale = false;
  private readonly pending = new Set<number>();
  private chain: Promise<unknown> = Promise.resolve();
  private revisionNo = 0;

  /**
   * Names the state of the index: bumped whenever a change is applied to it (or it is reloaded).
   * Read right after {@link current} resolves, it names the index that call returned.
   */
  get revision(): number {
    return this.revisionNo;
  }

  constructor(
    private readonly ds: DataSource,
    bus: ChangeBus,
    private readonly bounds: CandidateBounds = DEFAULT_CANDIDATE_BOUNDS,
  ) {
    bus.subscribe((change) => this.note(change));
  }

  /** Records a change; applied before the next answer. */
  note(change: Change): void {
    switch (change.kind) {
      case 'providers':
        for (const id of change.ids) {
          this.pending.add(id);
        }
        break;
      case 'catalog':
        this.catalogStale = true;
        break;
      case 'all':
        this.stale = true;
        break;
      case 'aggregates':
        break;
    }
  }

  /** Forgets the index; the next call reloads everything (tests, reset). */
  invalidate(): void {
    this.stale = true;
  }

  /** The index with every change heard so far applied (refreshes are serialised). */
  current(): Promise<CapacityIndex> {
    const next = this.chain.then(() => this.refresh());
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async refresh(): Promise<CapacityIndex> {
    if (this.stale || !this.index) {
      this.stale = false;
      this.pending.clear();
      this.catalogStale = false;
      try {
        this.index = await loadCapacityIndex(this.ds);
        this.revisionNo++;
      } catch (err) {
        this.stale = true;
        throw err;
      }
      this.stats.fullLoads++;
      this.stats.providers = this.index.providerId.length;
      return this.index;
    }
    const index = this.index;
    if (this.catalogStale) {
      this.catalogStale = false;
      const cat = await loadCatalogs(this.ds.manager);
      this.revisionNo++;
      for (const n of cat.resourceClassNames) {
        index.defineResourceClass(n);
      }
      for (const n of cat.traitNames) {
        index.defineTrait(n);
      }
    }
    if (this.pending.size > 0) {
      const ids = [...this.pending];
      this.pending.clear();
      try {
        index.refreshProviders(ids, await loadProviderRows(this.ds, ids));
        this.revisionNo++;
      } catch (err) {
        // A failed partial refresh leaves the index in doubt: rebuild (and bump) next time.
        this.stale = true;
        throw err;
      }
      this.stats.refreshes++;
      this.stats.providers = index.providerId.length;
    }
    return index;
  }

  /**
   * Allocation candidates for `request` (GET /allocation_candidates).
   * @throws BadRequestError for invalid requests (unknown classes or traits, bad group policy...).
   */
  async find(request: CandidateRequest, options: FindOptions = {}): Promise<AllocationCandidates> {
    const index = await this.current();
    return findAllocationCandidates(index, request, { bounds: this.bounds, ...options });
  }

  /**
   * Explains how the candidate stage of `request` narrowed the hosts, given the engine's answer
   * to it (`found`; with a `limit`, the hosts of that answer).
   */
  async explainStage(
    request: CandidateRequest,
    found: AllocationCandidates,
  ): Promise<CandidateStage> {
    const index = await this.current();
    return explainCandidateStage(index, request, {
      hostsWithCandidates: candidateHostCount(index, found.allocationRequests),
    });
  }
}
