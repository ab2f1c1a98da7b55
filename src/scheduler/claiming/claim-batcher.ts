// Group commit for scheduler claims (src/placement/group-commit.ts): the `schedule` calls that
// claim at about the same time are written in one transaction; a batch that cannot be written
// whole (capacity, a generation, a quota, a consumer that already exists and so is a move) is
// retried claim by claim, so each caller gets exactly the answer a lone claim would have given.

import type { Claimed, ClaimInput } from '../../placement/claims';
import { GroupCommit, type GroupCommitStats } from '../../placement/group-commit';

/** What the batcher needs from the claim writer (ClaimService). */
export interface ClaimWriter {
  /** One claim in its own transaction (new consumer or move). */
  claim(input: ClaimInput): Promise<Claimed>;
  /** New consumers' claims in one transaction, all or nothing. */
  claimNew(inputs: readonly ClaimInput[]): Promise<Claimed[]>;
}

/** Batch counters (bench and metrics). */
export interface ClaimBatchStats {
  /** Transactions that wrote more than one claim. */
  readonly batches: number;
  /** Claims written by those transactions. */
  readonly batchedClaims: number;
  /** Batches that failed as a whole and were retried claim by claim. */
  readonly splitBatches: number;
}

/** Queues claims and writes them in batches of at most `maxBatch` (1 = every claim alone). */
export class ClaimBatcher {
  private readonly group: GroupCommit<ClaimInput, Claimed>;

  constructor(writer: ClaimWriter, maxBatch: number, maxConcurrent = 2) {
    this.group = new GroupCommit(
      {
        one: (input) => writer.claim(input),
        all: (inputs) => writer.claimNew(inputs),
        key: (input) => input.consumerUuid,
      },
      maxBatch,
      maxConcurrent,
    );
  }

  get stats(): ClaimBatchStats {
    const s: GroupCommitStats = this.group.stats;
    return { batches: s.batches, batchedClaims: s.batchedWrites, splitBatches: s.splitBatches };
  }

  /** Claims `input`, alone or with the claims queued beside it. */
  claim(input: ClaimInput): Promise<Claimed> {
    return this.group.write(input);
  }
}
