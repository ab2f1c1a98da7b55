// Claim transactions for /metrics: the claim writer the ClaimBatcher uses, timed. A claim alone
// (a move, or a batch of one) is `single`; several new consumers' claims together are `batch`.
import type { Histogram } from 'prom-client';
import type { ClaimWriter } from '../scheduler/claiming/claim-batcher';

/** `writer` with each transaction timed into `transactions` and its size into `sizes`. */
export function timedClaimWriter(
  writer: ClaimWriter,
  transactions: Histogram<'kind'>,
  sizes: Histogram,
): ClaimWriter {
  const single = transactions.labels({ kind: 'single' });
  const batch = transactions.labels({ kind: 'batch' });
  return {
    async claim(input) {
      const end = single.startTimer();
      try {
        return await writer.claim(input);
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
