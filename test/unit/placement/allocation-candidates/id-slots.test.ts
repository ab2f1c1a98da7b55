// Provider id -> slot: a typed array for the dense ids a sequence gives, a Map for ids far
// beyond them. Checked against a Map through random inserts, moves and deletes of dense and
// sparse ids, and for the id order of its slots.

import { mulberry32 } from '../../../../src/lib/seeded-random';
import { IdSlots } from '../../../../src/placement/allocation-candidates/id-slots';

describe('provider id -> slot', () => {
  it.each([1, 2, 3])('agrees with a Map through random changes (seed %i)', (seed) => {
    const next = mulberry32(seed);
    const int = (n: number) => Math.floor(next() * n);
    const ids = new IdSlots();
    const model = new Map<number, number>();
    for (let step = 0; step < 20_000; step++) {
      const roll = next();
      // Mostly ids from a sequence, some from far away (a jumped sequence, an import).
      const id = roll < 0.9 ? 1 + int(5_000) : 1 + int(2 ** 30);
      if (int(4) === 0) {
        ids.delete(id);
        model.delete(id);
      } else {
        const slot = int(1_000_000);
        ids.set(id, slot);
        model.set(id, slot);
      }
      if (step % 997 === 0) {
        for (const [k, v] of model) {
          expect(ids.get(k)).toBe(v);
        }
        expect(ids.get(2 ** 31 - 1)).toBe(-1);
        expect(ids.get(0)).toBe(-1);
      }
    }
    const ordered = [...model].sort((a, b) => a[0] - b[0]).map(([, slot]) => slot);
    expect(Array.from(ids.slotsInIdOrder())).toEqual(ordered);
  });

  it('keeps ids far beyond the count out of the array', () => {
    const ids = new IdSlots();
    ids.set(1, 0);
    ids.set(2 ** 30, 1);
    ids.set(3, 2);
    expect([ids.get(1), ids.get(2 ** 30), ids.get(3), ids.get(2)]).toEqual([0, 1, 2, -1]);
    expect(Array.from(ids.slotsInIdOrder())).toEqual([0, 2, 1]);
    ids.delete(2 ** 30);
    expect(ids.get(2 ** 30)).toBe(-1);
    expect(Array.from(ids.slotsInIdOrder())).toEqual([0, 2]);
  });
});
