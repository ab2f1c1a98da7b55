// The inventory table keeps each provider's inventories in consecutive slots. Replacing them
// with another number of inventories moves the range and leaves a hole; when holes outnumber the
// slots in use the table compacts. Checked against a plain model of every provider's inventories
// through thousands of random replacements, across several compactions.

import { mulberry32 } from '../../../../src/lib/seeded-random';
import {
  InventoryTable,
  type InventoryValues,
} from '../../../../src/placement/allocation-candidates/inventory-table';

/** Integers and picks from a seeded generator. */
class SeededRandom {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(0, list.length - 1)]!;
  }
}

function values(r: SeededRandom): InventoryValues {
  const total = r.int(1, 1000);
  return {
    total,
    reserved: r.int(0, 3),
    minUnit: 1,
    maxUnit: total,
    stepSize: r.int(1, 2),
    allocationRatio: r.pick([1, 1.5, 16]),
    used: r.int(0, 10),
  };
}

type Row = InventoryValues & { readonly classId: number };
const classOf = (row: Row) => row.classId;
const flat = (r: { classId: number; values: InventoryValues }): Row => ({
  ...r.values,
  classId: r.classId,
});

describe('inventory table', () => {
  it('keeps every provider inventories through moves and compactions', () => {
    const r = new SeededRandom(7);
    const table = new InventoryTable();
    const model = new Map<number, { classId: number; values: InventoryValues }[]>();
    let compactions = 0;
    for (let step = 0; step < 40_000; step++) {
      const p = r.int(0, 1999);
      const classes = r.pick([[], [0], [0, 1], [0, 1, 2], [2, 3, 4, 5]]);
      const rows = classes.map((classId) => ({ classId, values: values(r) }));
      if (table.replace(p, rows.map(flat), classOf)) {
        compactions++;
        expect(table.holes).toBe(0);
      }
      model.set(p, rows);
    }
    expect(compactions).toBeGreaterThan(1);
    let inUse = 0;
    for (const [p, rows] of model) {
      const slots = Array.from(table.slotsOf(p));
      inUse += slots.length;
      expect(slots.length).toBe(rows.length);
      rows.forEach((row, i) => {
        const s = slots[i]!;
        expect(table.find(p, row.classId)).toBe(s);
        expect(table.provider[s]).toBe(p);
        expect([
          table.resourceClass[s],
          table.total[s],
          table.reserved[s],
          table.stepSize[s],
          table.ratio[s],
          table.used[s],
          table.capacity[s],
        ]).toEqual([
          row.classId,
          row.values.total,
          row.values.reserved,
          row.values.stepSize,
          row.values.allocationRatio,
          row.values.used,
          Math.floor((row.values.total - row.values.reserved) * row.values.allocationRatio),
        ]);
      });
      expect(table.find(p, 9)).toBe(-1);
    }
    expect(table.size - table.holes).toBe(inUse);
    expect(table.holes * 2).toBeLessThanOrEqual(Math.max(table.size, 2 * 4096));
  });

  it('replaces in place when the number of inventories is unchanged', () => {
    const r = new SeededRandom(3);
    const table = new InventoryTable();
    table.replace(0, [{ ...values(r), classId: 0 }], classOf);
    table.replace(1, [{ ...values(r), classId: 0 }], classOf);
    table.replace(0, [{ ...values(r), classId: 4 }], classOf);
    expect(Array.from(table.slotsOf(0))).toEqual([0]);
    expect(table.find(0, 4)).toBe(0);
    expect(table.holes).toBe(0);
    table.replace(0, [], classOf);
    expect(table.holes).toBe(1);
    expect(table.slotsOf(0)).toHaveLength(0);
    table.replace(1, [], classOf);
    expect(table.size).toBe(1);
  });
});
