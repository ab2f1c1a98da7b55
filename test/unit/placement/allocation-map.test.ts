// The allocation arithmetic of moves: sides are added on claim and subtracted on confirm/revert,
// per provider and class, so a provider serving both sides keeps the other side's share.
import type { ProviderAllocation } from '../../../src/placement/allocation-candidates/results';
import { add, subtract, toList } from '../../../src/placement/allocation-map';

type Amounts = Record<string, Record<string, number>>;
interface AddCase {
  name: string;
  base: Amounts;
  side: ProviderAllocation[];
  sum: Amounts;
}
interface SubtractCase {
  name: string;
  base: Amounts;
  side: ProviderAllocation[];
  left: Amounts | null;
}

const m = (o: Amounts) =>
  new Map(Object.entries(o).map(([rp, res]) => [rp, new Map(Object.entries(res))]));
const obj = (x: ReturnType<typeof m> | null) =>
  x && Object.fromEntries(toList(x).map((a) => [a.providerUuid, a.resources]));

describe('move arithmetic', () => {
  it.each<AddCase>([
    {
      name: 'a move to another tree',
      base: { src: { VCPU: 2 } },
      side: [{ providerUuid: 'dst', resources: { VCPU: 2 } }],
      sum: { dst: { VCPU: 2 }, src: { VCPU: 2 } },
    },
    {
      name: 'a shared provider on both sides sums',
      base: { src: { VCPU: 2 }, nfs: { DISK_GB: 10 } },
      side: [
        { providerUuid: 'dst', resources: { VCPU: 2 } },
        { providerUuid: 'nfs', resources: { DISK_GB: 10 } },
      ],
      sum: { dst: { VCPU: 2 }, nfs: { DISK_GB: 20 }, src: { VCPU: 2 } },
    },
  ])('add: $name', ({ base, side, sum }) => {
    expect(obj(add(m(base), side))).toEqual(sum);
    // Subtracting the added side gives the base back; the base map is not modified.
    const b = m(base);
    expect(obj(subtract(add(b, side), side))).toEqual(base);
    expect(obj(b)).toEqual(base);
  });

  it.each<SubtractCase>([
    {
      name: 'drops the source, keeping the shared share',
      base: { src: { VCPU: 2 }, dst: { VCPU: 2 }, nfs: { DISK_GB: 20 } },
      side: [
        { providerUuid: 'src', resources: { VCPU: 2 } },
        { providerUuid: 'nfs', resources: { DISK_GB: 10 } },
      ],
      left: { dst: { VCPU: 2 }, nfs: { DISK_GB: 10 } },
    },
    {
      name: 'a resize on the same provider',
      base: { h: { VCPU: 6, MEMORY_MB: 3072 } },
      side: [{ providerUuid: 'h', resources: { VCPU: 2, MEMORY_MB: 1024 } }],
      left: { h: { VCPU: 4, MEMORY_MB: 2048 } },
    },
    {
      name: 'null when the amounts are no longer held',
      base: { src: { VCPU: 1 } },
      side: [{ providerUuid: 'src', resources: { VCPU: 2 } }],
      left: null,
    },
    {
      name: 'null when a provider is gone',
      base: { dst: { VCPU: 2 } },
      side: [{ providerUuid: 'src', resources: { VCPU: 2 } }],
      left: null,
    },
    {
      name: 'null when a class is gone',
      base: { src: { VCPU: 2 } },
      side: [{ providerUuid: 'src', resources: { MEMORY_MB: 2 } }],
      left: null,
    },
  ])('subtract: $name', ({ base, side, left }) => {
    expect(obj(subtract(m(base), side))).toEqual(left);
  });
});
