// Unit tests for src/scheduler/runtime/reason-groups.ts: one filter's rejections grouped by code.

import type { Rejection } from '../../../src/scheduler/runtime/explanation';
import { groupRejections } from '../../../src/scheduler/runtime/reason-groups';

const rejection = (n: number, code: string): Rejection => ({
  host: `h${n}`,
  hostName: `host-${n}`,
  reason: `${code} on ${n}`,
  code,
});

describe('groupRejections', () => {
  it('answers no group for no rejection', () => {
    expect(groupRejections([])).toEqual([]);
  });

  it('makes one group of twenty hosts rejected for the same cause, with three examples', () => {
    const all = Array.from({ length: 20 }, (_, i) => rejection(i + 1, 'ram.insufficient'));
    expect(groupRejections(all)).toEqual([
      {
        code: 'ram.insufficient',
        count: 20,
        message: 'ram.insufficient on 1',
        examples: all.slice(0, 3),
      },
    ]);
  });

  it('orders groups by count descending, then by code', () => {
    const all = [
      rejection(1, 'b.two'),
      rejection(2, 'c.one'),
      rejection(3, 'a.two'),
      rejection(4, 'b.two'),
      rejection(5, 'a.two'),
      rejection(6, 'd.three'),
      rejection(7, 'd.three'),
      rejection(8, 'd.three'),
    ];
    expect(groupRejections(all).map((g) => [g.code, g.count, g.examples.length])).toEqual([
      ['d.three', 3, 3],
      ['a.two', 2, 2],
      ['b.two', 2, 2],
      ['c.one', 1, 1],
    ]);
  });

  it("takes the message from the group's first rejection", () => {
    const groups = groupRejections([rejection(9, 'x'), rejection(2, 'x')]);
    expect(groups[0]!.message).toBe('x on 9');
    expect(groups[0]!.examples.map((r) => r.host)).toEqual(['h9', 'h2']);
  });
});
