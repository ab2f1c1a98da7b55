// Allocation candidates as both APIs ask for them: identical requests against an unchanged
// capacity index get the same answer object, so its JSON is computed once and written once.
// The candidate index names its state with a revision (bumped by every change applied to it);
// the answers kept are those of the current revision only, and a request first applies every
// change heard so far (as the engine's own `find` does), so no answer is staler than a computed
// one would be. Randomised requests are never kept. The scheduler's evaluation memo does the
// same for `schedule` (src/scheduler/state/evaluation-memo.ts).
//
// An answer is kept the second time its request is asked for in one revision: kept answers are
// long-lived memory the collector walks and copies, which answers asked for once would pay for
// and never use.
//
// A kept answer is frozen (the answer object): it is shared by every caller, and
// writers keep its bytes beside it (src/rest/candidate-json.ts, src/graphql/direct-answer.ts)
// only while it is frozen. Callers must not change it.
import type { CandidateService } from '../placement/allocation-candidates/candidate-service';
import type { FindOptions } from '../placement/allocation-candidates/find-allocation-candidates';
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import type { AllocationCandidates } from '../placement/allocation-candidates/results';

/** Hit/miss counters (tests, metrics). */
interface CandidateAnswerStats {
  hits: number;
  misses: number;
}

/** Bounds of what is kept: answers, and allocation requests over all of them. */
interface CandidateAnswerBounds {
  readonly answers: number;
  readonly requests: number;
}

/**
 * Four answers, at most 30,000 allocation requests in all (five 5,000-host full answers): every
 * answer kept is old-generation memory the collector walks, which computed answers then pay for.
 */
const DEFAULT_ANSWER_BOUNDS: CandidateAnswerBounds = { answers: 4, requests: 30_000 };

/** How many requests asked for once are remembered per revision. */
const SEEN = 32;

/** The answers of the current index revision, by request. */
export class CandidateAnswers {
  readonly stats: CandidateAnswerStats = { hits: 0, misses: 0 };
  private revision = -1;
  /** Insertion order is recency (a hit is moved to the end). */
  private readonly kept = new Map<string, AllocationCandidates>();
  private requests = 0;
  /** Requests asked for once in this revision (the most recent SEEN of them). */
  private readonly seen = new Set<string>();

  constructor(
    private readonly candidates: CandidateService,
    private readonly bounds: CandidateAnswerBounds = DEFAULT_ANSWER_BOUNDS,
  ) {}

  /**
   * The candidates for `request`, as CandidateService.find gives them (same errors).
   * @throws BadRequestError for invalid requests (unknown classes or traits, bad group policy...).
   */
  async find(request: CandidateRequest, options: FindOptions = {}): Promise<AllocationCandidates> {
    if (request.randomize || options.random || options.bounds || this.bounds.answers < 1) {
      return this.candidates.find(request, options);
    }
    await this.candidates.current();
    const revision = this.candidates.revision;
    if (revision !== this.revision) {
      this.clear(revision);
    }
    const key = `${options.nestedAware === false ? 'n' : 'y'}${JSON.stringify(request)}`;
    const hit = this.kept.get(key);
    if (hit) {
      this.kept.delete(key);
      this.kept.set(key, hit);
      this.stats.hits++;
      return hit;
    }
    this.stats.misses++;
    const found = await this.candidates.find(request, options);
    // Kept only when no change was applied meanwhile (the answer is then that revision's), and
    // only for a request asked for before.
    if (this.candidates.revision !== revision || this.revision !== revision) {
      return found;
    }
    if (!this.seen.delete(key)) {
      this.seen.add(key);
      if (this.seen.size > SEEN) {
        this.seen.delete(this.seen.values().next().value!);
      }
      return found;
    }
    // Only the answer object is frozen: frozen lists would give the writers' loops a second
    // kind of array to handle.
    const answer = Object.freeze({ ...found });
    const size = answer.allocationRequests.length;
    if (size > this.bounds.requests) {
      return answer;
    }
    this.kept.set(key, answer);
    this.requests += size;
    for (const [k, a] of this.kept) {
      if (this.kept.size <= this.bounds.answers && this.requests <= this.bounds.requests) {
        break;
      }
      this.kept.delete(k);
      this.requests -= a.allocationRequests.length;
    }
    return answer;
  }

  private clear(revision: number): void {
    this.kept.clear();
    this.seen.clear();
    this.requests = 0;
    this.revision = revision;
  }
}
