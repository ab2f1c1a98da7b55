// The scopes capacity is watched in, over a hand-built capacity index: aggregates ranked by their
// share of the cloud summed over classes (not by raw units, where MEMORY_MB would always win),
// capped, and the rest summed once as `other`.
import { CapacityIndex } from '../../../src/placement/allocation-candidates/capacity-index';
import { capacityScopes } from '../../../src/placement/capacity-history-scopes';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [MEM, CPU, A, B] = [uuid(101), uuid(102), uuid(103), uuid(104)];

const inv = (providerId: number, resourceClass: string, total: number) => ({
  providerId,
  resourceClass,
  total,
  reserved: 0,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: 1,
  used: 0,
});

/** Host 1 (MEM): 60,000 MB, 2 VCPU; host 2 (CPU): 40,000 MB, 18 VCPU; host 3 (A and B): 10 MB, 1 VCPU. */
const index = CapacityIndex.fromRows({
  providers: [1, 2, 3].map((id) => ({
    id,
    uuid: uuid(id),
    name: `host-${id}`,
    generation: 1,
    parentId: null,
    rootId: id,
  })),
  inventories: [
    inv(1, 'MEMORY_MB', 60_000),
    inv(1, 'VCPU', 2),
    inv(2, 'MEMORY_MB', 40_000),
    inv(2, 'VCPU', 18),
    inv(3, 'MEMORY_MB', 10),
    inv(3, 'VCPU', 1),
  ],
  traits: [],
  aggregates: [
    { providerId: 1, aggregateUuid: MEM },
    { providerId: 2, aggregateUuid: CPU },
    { providerId: 3, aggregateUuid: A },
    { providerId: 3, aggregateUuid: B },
  ],
  consumers: [],
  resourceClassNames: ['VCPU', 'MEMORY_MB'],
  traitNames: [],
});

/** Each listed scope as `aggregate: MEMORY_MB/VCPU` capacity. */
const shape = (max: number) =>
  capacityScopes(index, max).aggregates.map((a) => {
    const of = (rc: string) => a.lines.find((l) => l.resourceClass === rc)?.capacity;
    return `${a.aggregate}: ${of('MEMORY_MB')}/${of('VCPU')}`;
  });

describe('capacityScopes', () => {
  it('sums the whole cloud per class', () => {
    expect(
      capacityScopes(index, 0).cloud.map((l) => [l.resourceClass, l.capacity, l.providers]),
    ).toEqual([
      ['MEMORY_MB', 100_010, 3],
      ['VCPU', 21, 3],
    ]);
  });

  it.each([
    { name: 'no aggregates at 0', max: 0, want: [] },
    {
      name: 'the VCPU-heavy aggregate first (share 1.26 against 0.70), the rest as other',
      max: 1,
      want: [`${CPU}: 40000/18`, 'other: 60010/3'],
    },
    {
      name: 'the host in two left-out aggregates counted once in other',
      max: 2,
      want: [`${CPU}: 40000/18`, `${MEM}: 60000/2`, 'other: 10/1'],
    },
    {
      name: 'every aggregate and no other when all fit, equal shares by uuid',
      max: 4,
      want: [`${CPU}: 40000/18`, `${MEM}: 60000/2`, `${A}: 10/1`, `${B}: 10/1`],
    },
  ])('lists $name', ({ max, want }) => {
    expect(shape(max)).toEqual(want);
  });
});
