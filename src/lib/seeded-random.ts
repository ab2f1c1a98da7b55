// A small seeded generator: the same seed gives the same numbers on every machine and Node
// version (Math.random cannot be seeded). The demo cloud, simulation tie-breaks and traces, and
// the tests' generated inputs draw from it.

/** mulberry32: a small seeded PRNG, uniform in [0, 1); not for secrets. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
