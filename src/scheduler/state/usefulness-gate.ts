// Decides whether a cache layer is worth consulting. A shared candidate set costs two reads and a
// serialised write per lookup; under a stream of claims every write moves the shared epoch, so
// entries die before anyone reads them and the layer is pure cost. The gate watches the hit rate
// over a window of lookups: when it falls below `minHitRate`, only one lookup in `probeEvery`
// still goes to the layer (and stores its answer), and the first probe that hits reopens it.

/** Gate settings. */
export interface GateOptions {
  /** Lookups per assessment. */
  readonly window: number;
  /** Below this hit rate over a window the layer is bypassed. */
  readonly minHitRate: number;
  /** While bypassed, every n-th lookup still uses the layer. */
  readonly probeEvery: number;
}

export const DEFAULT_GATE: GateOptions = { window: 256, minHitRate: 1 / 64, probeEvery: 16 };

/** Tracks a layer's usefulness from the outcomes of its lookups. */
export class UsefulnessGate {
  /** Lookups that skipped the layer. */
  bypassed = 0;
  private lookups = 0;
  private hits = 0;
  private open = true;
  private sinceProbe = 0;

  constructor(private readonly o: GateOptions = DEFAULT_GATE) {}

  /** Whether this lookup should use the layer (counts a skip when not). */
  use(): boolean {
    if (this.open || ++this.sinceProbe >= this.o.probeEvery) {
      this.sinceProbe = 0;
      return true;
    }
    this.bypassed++;
    return false;
  }

  /** Records the outcome of a lookup that used the layer. */
  record(hit: boolean): void {
    if (hit && !this.open) {
      this.open = true;
      this.lookups = 0;
      this.hits = 0;
      return;
    }
    this.lookups++;
    this.hits += hit ? 1 : 0;
    if (this.lookups >= this.o.window) {
      this.open = this.hits >= this.o.minHitRate * this.lookups;
      this.lookups = 0;
      this.hits = 0;
    }
  }
}
