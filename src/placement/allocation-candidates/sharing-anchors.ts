// Which trees a sharing provider can serve (upstream: research_context.py get_sharing_providers
// and anchors_for_sharing_providers), cached until aggregates, traits or the forest change.

/** The parts of the index this cache reads. */
export interface AnchorSource {
  readonly root: Int32Array;
  /** Alive sharing providers (trait MISC_SHARES_VIA_AGGREGATE), in slot order. */
  sharingSlots(): readonly number[];
  readonly aggregates: readonly Int32Array[];
  readonly aggMembers: ReadonlyMap<number, ReadonlySet<number>>;
}

const EMPTY = new Int32Array(0);

/**
 * anchors(s) = { root(q) : q shares an aggregate with s } (q may be s itself); the inverse
 * sharingFor(T) lists the sharing providers outside tree T that may serve a request anchored at T.
 */
export class SharingAnchors {
  private valid = false;
  private readonly anchorsBySharing = new Map<number, Int32Array>();
  private readonly sharingByRoot = new Map<number, Int32Array>();

  constructor(private readonly src: AnchorSource) {}

  /** Drops the cache; the next read recomputes it. */
  invalidate(): void {
    this.valid = false;
  }

  /** Root slots that sharing provider `s` anchors (sorted by slot); empty when none. */
  anchorsOf(s: number): Int32Array {
    this.refresh();
    return this.anchorsBySharing.get(s) ?? EMPTY;
  }

  /** Sharing providers outside tree `rootSlot` whose anchors include it (sorted by slot). */
  sharingFor(rootSlot: number): Int32Array {
    this.refresh();
    return this.sharingByRoot.get(rootSlot) ?? EMPTY;
  }

  private refresh(): void {
    if (this.valid) {
      return;
    }
    this.anchorsBySharing.clear();
    this.sharingByRoot.clear();
    const byRoot = new Map<number, number[]>();
    for (const s of this.src.sharingSlots()) {
      const roots = new Set<number>();
      for (const agg of this.src.aggregates[s]!) {
        for (const q of this.src.aggMembers.get(agg) ?? []) {
          roots.add(this.src.root[q]!);
        }
      }
      const sorted = Int32Array.from(roots).sort();
      this.anchorsBySharing.set(s, sorted);
      const own = this.src.root[s]!;
      for (const r of sorted) {
        if (r === own) {
          continue;
        }
        const list = byRoot.get(r);
        if (list) {
          list.push(s);
        } else {
          byRoot.set(r, [s]);
        }
      }
    }
    for (const [r, list] of byRoot) {
      this.sharingByRoot.set(r, Int32Array.from(list));
    }
    this.valid = true;
  }
}
