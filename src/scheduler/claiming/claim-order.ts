// Claim ordering helpers: spread concurrent claims of one replica over the ranking instead of
// letting every in-flight request race for the same best host, and check whether an allocation
// request still fits after earlier proposals (dry runs of multi-create).

import type { AllocationRequestView, HostView } from '../plugin-api';
import type { RankedHost } from '../runtime/explanation';

/** Counts this replica's in-flight claims per host. */
export class InFlight {
  private readonly counts = new Map<string, number>();

  /** Marks a claim on `host` as in flight; call the returned function when it ends. */
  take(host: string): () => void {
    this.counts.set(host, (this.counts.get(host) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) {
        return;
      }
      done = true;
      const n = (this.counts.get(host) ?? 1) - 1;
      if (n <= 0) {
        this.counts.delete(host);
      } else {
        this.counts.set(host, n);
      }
    };
  }

  /** In-flight claims on `host`. */
  count(host: string): number {
    return this.counts.get(host) ?? 0;
  }
}

/**
 * The ranking, with hosts that already have in-flight claims from this replica moved behind
 * those that do not (stable within each part): concurrent schedulers then fan out over the best
 * hosts instead of colliding on the first one. Fewer in-flight claims first.
 */
export function selectClaimOrder(ranking: readonly RankedHost[], inFlight: InFlight): RankedHost[] {
  return ranking
    .map((r, i) => ({ r, i, busy: inFlight.count(r.host.uuid) }))
    .sort((a, b) => a.busy - b.busy || a.i - b.i)
    .map((x) => x.r);
}

/** True when `ar` fits the host's capacity after `planned` extra usage ("provider:class" -> units). */
export function fitsWithPlanned(
  host: HostView,
  ar: AllocationRequestView,
  planned: ReadonlyMap<string, number>,
): boolean {
  for (const [rp, resources] of Object.entries(ar.allocations)) {
    const provider = host.providers.find((p) => p.uuid === rp);
    for (const [rc, amount] of Object.entries(resources)) {
      const inv = provider?.inventories[rc];
      if (!inv) {
        // A sharing provider outside the tree: the engine vouched for it; claims re-check.
        continue;
      }
      if (inv.used + (planned.get(`${rp}:${rc}`) ?? 0) + amount > inv.capacity) {
        return false;
      }
    }
  }
  return true;
}
