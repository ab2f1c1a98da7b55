// Group commit for writes that come in many small concurrent requests (scheduler claims, Nova's
// PUT /allocations). Each such write alone is a dozen statements in its own transaction; under
// load the round trips, not the work, bound throughput. The writes that queue up while one is
// being written are written together (one transaction, providers locked in id order, the same
// capacity, unit and quota checks, summed across the batch). No write waits for a timer: an idle
// committer writes a lone write at once, and batches only form while the database is busy.
// While a transaction is in flight, a second one starts only once a quarter of a batch is waiting:
// a write that arrives meanwhile waits for the write in flight or for enough company (starting it
// alone would cost a whole transaction's round trips for one write), yet the database is kept busy
// while node works on the callers the last write answered.
// When a batch cannot be written as a whole (one write hit a capacity or generation conflict, a
// quota, bad input), every write of it is retried on its own, so each caller gets exactly the
// answer a lone write would have given.
// Each write keeps its caller's audit context: a batch is written in a batch store, one audit
// event per caller (src/placement/audit.ts).
import { type AuditContext, captureAudit, resumeAudit, runAuditBatch } from './audit';
import { BadRequestError, ConflictError } from './errors';

/**
 * The write refused the batch inside its transaction (capacity, units, generations, quota, an
 * unknown provider, a deadlock, bad input), so nothing of it was committed and each write may be
 * retried.
 */
const refusedBeforeCommit = (err: unknown) =>
  err instanceof ConflictError || err instanceof BadRequestError;

/** How a group committer writes. */
export interface GroupWriter<I, O> {
  /** One write in its own transaction. */
  one(input: I): Promise<O>;
  /** Several writes in one transaction, all or nothing; results in input order. */
  all(inputs: readonly I[]): Promise<O[]>;
  /** Writes with the same key never share a batch (e.g. the consumer they write). */
  key(input: I): string;
}

/** Batch counters (bench and metrics). */
export interface GroupCommitStats {
  /** Transactions that wrote more than one write. */
  batches: number;
  /** Writes written by those transactions. */
  batchedWrites: number;
  /** Batches that failed as a whole and were retried write by write. */
  splitBatches: number;
}

interface Pending<I, O> {
  readonly input: I;
  readonly audit: AuditContext | undefined;
  readonly resolve: (o: O) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Queues writes and writes them in batches of at most `maxBatch`: at once when idle, otherwise
 * when the write in flight ends, or beside it (up to `maxConcurrent`) once `maxBatch / 4` wait.
 * `maxBatch` 1 writes every write alone, at once.
 */
export class GroupCommit<I, O> {
  readonly stats: GroupCommitStats = { batches: 0, batchedWrites: 0, splitBatches: 0 };
  private readonly queue: Pending<I, O>[] = [];
  private running = 0;
  /** Writes that must be waiting before a transaction starts beside one in flight. */
  private readonly company: number;

  constructor(
    private readonly writer: GroupWriter<I, O>,
    private readonly maxBatch: number,
    private readonly maxConcurrent = 2,
  ) {
    this.company = Math.max(2, Math.ceil(maxBatch / 4));
  }

  /** Writes `input`, alone or with the writes queued beside it. */
  write(input: I): Promise<O> {
    if (this.maxBatch <= 1) {
      return this.writer.one(input);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ input, audit: captureAudit(), resolve, reject });
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
      void this.commit(batch).finally(() => {
        this.running--;
        this.drain();
      });
    }
  }

  /** Up to maxBatch queued writes, one per key (a repeated key waits for the next batch). */
  private take(): Pending<I, O>[] {
    const batch: Pending<I, O>[] = [];
    const keys = new Set<string>();
    for (let i = 0; i < this.queue.length && batch.length < this.maxBatch; ) {
      const p = this.queue[i]!;
      const key = this.writer.key(p.input);
      if (keys.has(key)) {
        i++;
        continue;
      }
      keys.add(key);
      batch.push(p);
      this.queue.splice(i, 1);
    }
    return batch;
  }

  private async commit(batch: readonly Pending<I, O>[]): Promise<void> {
    if (batch.length === 1) {
      const p = batch[0]!;
      await this.one(p);
      return;
    }
    try {
      const written = await runAuditBatch(
        batch.map((p) => p.audit),
        () => this.writer.all(batch.map((p) => p.input)),
      );
      this.stats.batches++;
      this.stats.batchedWrites += batch.length;
      for (const [i, p] of batch.entries()) {
        p.resolve(written[i]!);
      }
    } catch (err) {
      if (!refusedBeforeCommit(err)) {
        // The outcome is unknown (e.g. the connection dropped around COMMIT): retrying could
        // write twice, so every caller gets the error, as a lone write's caller would.
        for (const p of batch) {
          p.reject(err);
        }
        return;
      }
      this.stats.splitBatches++;
      await Promise.all(batch.map((p) => this.one(p)));
    }
  }

  /** One write alone, in its caller's audit context. */
  private one(p: Pending<I, O>): Promise<void> {
    return resumeAudit(p.audit, () => this.writer.one(p.input)).then(p.resolve, p.reject);
  }
}
