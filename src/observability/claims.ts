// Claim transactions for /metrics: the claim writer the ClaimBatcher uses, timed. A claim alone
// (a move, or a batch of one) is `single`; several new consumers' claims together are `batch`.
// A claim alone refused with a conflict (a stale generation, capacity taken by a racing claim, a
// server group's policy, a quota) is counted by its code: the scheduler then tries the next host.
// (A refused batch is retried claim by claim, so its claims are counted there.)
import type { Counter, Histogram } from 'prom-client';
import type { ClaimWriter } from '../scheduler/claiming/claim-batcher';

/**
 * `writer` with each transaction timed into `transactions`, its size into `sizes`, and single
 * claims refused with a conflict counted into `conflicts` by code.
 */
export function timedClaimWriter(
  writer: ClaimWriter,
  transactions: Histogram<'kind'>,
  sizes: Histogram,
  conflicts: Counter<'code'>,
): ClaimWriter {
  const single = transactions.labels({ kind: 'single' });
  const batch = transactions.labels({ kind: 'batch' });
  return {
    async claim(input) {
      const end = single.startTimer();
      try {
        return await writer.claim(input);
      } catch (err) {
        const code = conflictCode(err);
        if (code !== undefined) {
          conflicts.inc({ code });
        }
        throw err;
      } finally {
        end();
        sizes.observe(1);
      }
    },
    async claimNew(inputs) {
      const end = (inputs.length > 1 ? batch : single).startTimer();
      try {
        return await writer.claimNew(inputs);
      } finally {
        end();
        sizes.observe(inputs.length);
      }
    },
  };
}

/**
 * The code of a domain conflict (a PlacementError with HTTP status 409: ConflictError and its
 * subclasses), else undefined. Read from its fields, as the REST and GraphQL adapters do, since
 * src/observability does not import the domain.
 */
function conflictCode(err: unknown): string | undefined {
  const e = err as { status?: unknown; code?: unknown } | null;
  return err instanceof Error && e?.status === 409 && typeof e.code === 'string'
    ? e.code
    : undefined;
}
