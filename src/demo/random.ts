// Seeded random numbers for the demo cloud (src/lib/seeded-random.ts): the same seed gives the
// same cloud, uuids included, on every machine. The tests' generated inputs (the Nova parity
// harness, the tenant-isolation property) draw from it too.

import { mulberry32 } from '../lib/seeded-random';

export { mulberry32 };

/** Seeded pseudo-random numbers; not for secrets. */
export class DemoRandom {
  /** A number in [0, 1). */
  readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One of `items` (not empty). */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `count` distinct items of `items`, in their original order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const keys = items.map((item, i) => ({ item, i, k: this.next() }));
    return keys
      .sort((a, b) => a.k - b.k)
      .slice(0, count)
      .sort((a, b) => a.i - b.i)
      .map((x) => x.item);
  }

  /** A version-4 layout uuid from the sequence. */
  uuid(): string {
    const hex = Array.from({ length: 16 }, () => this.int(0, 255));
    hex[6] = (hex[6]! & 0x0f) | 0x40;
    hex[8] = (hex[8]! & 0x3f) | 0x80;
    const s = hex.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
