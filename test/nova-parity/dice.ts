// Nova parity harness: the seeded random source scenarios are drawn from (mulberry32, and the
// choices built on it). One 32-bit seed per scenario, derived from the run's seed and the
// scenario's index, so any scenario is replayed exactly.

import { DemoRandom } from '../../src/demo/random';

/** The seed of scenario `index` of a run seeded `master`. */
export function scenarioSeed(master: number, index: number): number {
  return (Math.imul(master ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}

/** Seeded choices: the demo cloud's generator (mulberry32), plus the harness's own draws. */
export class Dice extends DemoRandom {
  some<T>(items: readonly T[], lo: number, hi: number): T[] {
    const pool = [...items];
    const n = Math.min(pool.length, this.int(lo, hi));
    return Array.from(
      { length: n },
      () => pool.splice(Math.floor(this.next() * pool.length), 1)[0]!,
    );
  }
  /** A version-4 layout uuid (drawn as the harness always has, so seeds replay). */
  override uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = '89ab'[Math.floor(this.next() * 4)]!;
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
