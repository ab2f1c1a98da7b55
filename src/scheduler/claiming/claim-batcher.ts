// Group commit for scheduler claims. Under load every concurrent `schedule` call claims at about
// the same time, and each claim alone is a dozen statements in its own transaction; the round
// trips, not the work, bound throughput. The batcher writes the claims that queue up while a batch
// is being written as one allocation write (one transaction, providers locked in id order, the
// same capacity, unit and quota checks, summed across the batch). No claim waits for a timer: an
// idle batcher writes a lone claim at once, and batches only form while the database is busy.
// While a transaction is in flight, a second one starts only once a quarter of a batch is waiting:
// a claim that arrives meanwhile waits for the write in flight or for enough company (starting it
// alone would cost a whole transaction's round trips for one claim), yet the database is kept busy
// while node works on the callers the last write answered.
// When a batch cannot be written as a whole (one claim hit a capacity or generation conflict, a
// quota, a consumer that already exists and so is a move), every claim of it is retried on its
// own, so each caller gets exactly the answer a lone claim would have given.

import type { Claimed, ClaimInput } from '../../placement/claims';
import { BadRequestError, ConflictError } from '../../placement/errors';

/**
 * The write refused the batch inside its transaction (capacity, units, generations, quota, an
 * unknown provider, a deadlock), so nothing of it was committed and each claim may be retried.
 */
const refusedBeforeCommit = (err: unknown) =>
  err instanceof ConflictError || err instanceof BadRequestError;

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
  batches: number;
  /** Claims written by those transactions. */
  batchedClaims: number;
  /** Batches that failed as a whole and were retried claim by claim. */
  splitBatches: number;
}

interface Pending {
  readonly input: ClaimInput;
  readonly resolve: (c: Claimed) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Queues claims and writes them in batches of at most `maxBatch`: at once when idle, otherwise
 * when the write in flight ends, or beside it (up to `maxConcurrent`) once `maxBatch / 4` wait.
 */
export class ClaimBatcher {
  readonly stats: ClaimBatchStats = { batches: 0, batchedClaims: 0, splitBatches: 0 };
  private readonly queue: Pending[] = [];
  private running = 0;
  /** Claims that must be waiting before a transaction starts beside one in flight. */
  private readonly company: number;

  constructor(
    private readonly writer: ClaimWriter,
    private readonly maxBatch: number,
    private readonly maxConcurrent = 2,
  ) {
    this.company = Math.max(2, Math.ceil(maxBatch / 4));
  }

  /** Claims `input`, alone or with the claims queued beside it. */
  claim(input: ClaimInput): Promise<Claimed> {
    if (this.maxBatch <= 1) {
      return this.writer.claim(input);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (
      this.queue.length > 0 &&
      (this.running === 0 ||
        (this.running < this.maxConcurrent && this.queue.length >= this.company))
    ) {
      const batch = this.take();
      this.running++;
      void this.write(batch).finally(() => {
        this.running--;
        this.drain();
      });
    }
  }

  /** Up to maxBatch queued claims, one per consumer (a repeated consumer waits for the next). */
  private take(): Pending[] {
    const batch: Pending[] = [];
    const consumers = new Set<string>();
    for (let i = 0; i < this.queue.length && batch.length < this.maxBatch; ) {
      const p = this.queue[i]!;
      if (consumers.has(p.input.consumerUuid)) {
        i++;
        continue;
      }
      consumers.add(p.input.consumerUuid);
      batch.push(p);
      this.queue.splice(i, 1);
    }
    return batch;
  }

  private async write(batch: readonly Pending[]): Promise<void> {
    if (batch.length === 1) {
      const p = batch[0]!;
      await this.writer.claim(p.input).then(p.resolve, p.reject);
      return;
    }
    try {
      const claimed = await this.writer.claimNew(batch.map((p) => p.input));
      this.stats.batches++;
      this.stats.batchedClaims += batch.length;
      for (const [i, p] of batch.entries()) {
        p.resolve(claimed[i]!);
      }
    } catch (err) {
      if (!refusedBeforeCommit(err)) {
        // The outcome is unknown (e.g. the connection dropped around COMMIT): retrying could
        // claim twice (a consumer the batch did create would look like a move), so every caller
        // gets the error, as a lone claim's caller would.
        for (const p of batch) {
          p.reject(err);
        }
        return;
      }
      this.stats.splitBatches++;
      await Promise.all(batch.map((p) => this.writer.claim(p.input).then(p.resolve, p.reject)));
    }
  }
}
