// The value rules of consumers and allocations (src/placement/consumer-rules.ts), shared by
// allocation writes, quota limits and `berth import placement`.
import {
  assertAllocationAmountOrThrow,
  assertExternalIdOrThrow,
} from '../../../src/placement/consumer-rules';

describe('assertExternalIdOrThrow', () => {
  it.each(['p', 'x'.repeat(255), '💥'.repeat(255), 'with space'])('accepts %p', (id) => {
    expect(() => assertExternalIdOrThrow('project_id', id)).not.toThrow();
  });

  it.each(['', 'x'.repeat(256), 'a\u0000b'])('refuses %p with berth.invalid_name', (id) => {
    expect(() => assertExternalIdOrThrow('project_id', id)).toThrow(
      expect.objectContaining({ code: 'berth.invalid_name' }),
    );
  });

  it('keeps the message the allocation API always gave', () => {
    expect(() => assertExternalIdOrThrow('project_id and user_id', '')).toThrow(
      'project_id and user_id must be 1 to 255 characters.',
    );
  });
});

describe('assertAllocationAmountOrThrow', () => {
  it.each([1, 2147483647])('accepts %p', (n) => {
    expect(() => assertAllocationAmountOrThrow('c', 'VCPU', n)).not.toThrow();
  });

  it.each([0, -3, 2147483648, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses %p with berth.allocation.invalid',
    (n) => {
      expect(() => assertAllocationAmountOrThrow('c', 'VCPU', n)).toThrow(
        expect.objectContaining({ code: 'berth.allocation.invalid' }),
      );
    },
  );
});
