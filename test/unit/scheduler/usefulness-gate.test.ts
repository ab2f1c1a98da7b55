// When a cache layer stops paying off it is bypassed but still probed; a probe that hits reopens it.
import { UsefulnessGate } from '../../../src/scheduler/state/usefulness-gate';

const gate = () => new UsefulnessGate({ window: 8, minHitRate: 1 / 4, probeEvery: 4 });

/** Runs `n` lookups with the given outcome; returns how many used the layer. */
function lookups(g: UsefulnessGate, n: number, hit: boolean): number {
  let used = 0;
  for (let i = 0; i < n; i++) {
    if (g.use()) {
      used++;
      g.record(hit);
    }
  }
  return used;
}

describe('UsefulnessGate', () => {
  it.each([
    ['all misses', false, 0],
    ['1 hit in 8 (below 1/4)', false, 1],
    ['2 hits in 8 (at 1/4)', true, 2],
    ['all hits', true, 8],
  ])('after a window with %s the layer is open: %s', (_case, open, hits) => {
    const g = gate();
    lookups(g, hits, true);
    lookups(g, 8 - hits, false);
    expect(lookups(g, 8, false)).toBe(open ? 8 : 2);
    expect(g.bypassed).toBe(open ? 0 : 6);
  });

  it('keeps the layer open while a window is still filling', () => {
    const g = gate();
    expect(lookups(g, 7, false)).toBe(7);
    expect(g.bypassed).toBe(0);
  });

  it('reopens the layer at the first probe that hits', () => {
    const g = gate();
    lookups(g, 8, false);
    // Bypassed: three lookups skip, the fourth probes and hits.
    expect(lookups(g, 4, true)).toBe(1);
    expect(lookups(g, 5, true)).toBe(5);
    expect(g.bypassed).toBe(3);
  });
});
