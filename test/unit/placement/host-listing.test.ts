// The host listing over a hand-built capacity index: sorting by every column, each filter,
// paging and the errors of bad arguments.
import { CapacityIndex } from '../../../src/placement/allocation-candidates/capacity-index';
import type { IndexRows } from '../../../src/placement/allocation-candidates/index-rows';
import { PlacementError } from '../../../src/placement/errors';
import { type HostListQuery, listHosts, MAX_HOST_PAGE } from '../../../src/placement/host-listing';
import type { AggregateRecord } from '../../../src/placement/types';

const AGG_A = '00000000-0000-4000-8000-00000000000a';
const AGG_B = '00000000-0000-4000-8000-00000000000b';
const AGG_Z = '00000000-0000-4000-8000-0000000000ff'; // unnamed, zone only

const aggregates: AggregateRecord[] = [
  { id: 1, uuid: AGG_A, name: 'rack-a', metadata: [{ key: 'availability_zone', value: 'az1' }] },
  { id: 2, uuid: AGG_B, name: 'rack-b', metadata: [{ key: 'availability_zone', value: 'az2' }] },
];

const inv = (providerId: number, resourceClass: string, total: number, used: number) => ({
  providerId,
  resourceClass,
  total,
  reserved: 0,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: 1,
  used,
});

const uuidOf = (id: number) => `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`;
const provider = (id: number, name: string, parentId: number | null = null) => ({
  id,
  uuid: uuidOf(id),
  name,
  generation: 1,
  parentId,
  rootId: parentId ?? id,
});

/**
 * Four hosts:
 * - alpha (az1, rack-a): VCPU 2/10, MEMORY_MB 950/1000 (95 %: full), 2 instances
 * - bravo (az2, rack-b): disabled; VCPU 5/10, 1 instance
 * - charlie (no aggregate): VCPU 0/10 on the root, two NUMA cells with 4/8 VCPU each and a GPU
 *   trait, 3 instances (one of them on both cells)
 * - delta (unnamed aggregate, no zone): no inventory
 */
function buildIndex(): CapacityIndex {
  const rows: IndexRows = {
    providers: [
      provider(1, 'alpha'),
      provider(2, 'bravo'),
      provider(3, 'charlie'),
      provider(4, 'charlie-numa0', 3),
      provider(5, 'charlie-numa1', 3),
      provider(6, 'delta'),
    ],
    inventories: [
      inv(1, 'VCPU', 10, 2),
      inv(1, 'MEMORY_MB', 1000, 950),
      inv(2, 'VCPU', 10, 5),
      inv(3, 'VCPU', 10, 0),
      inv(4, 'VCPU', 8, 4),
      inv(5, 'VCPU', 8, 4),
    ],
    traits: [
      { providerId: 2, trait: 'COMPUTE_STATUS_DISABLED' },
      { providerId: 5, trait: 'CUSTOM_GPU' },
    ],
    aggregates: [
      { providerId: 1, aggregateUuid: AGG_A },
      { providerId: 2, aggregateUuid: AGG_B },
      { providerId: 6, aggregateUuid: AGG_Z },
      { providerId: 4, aggregateUuid: AGG_A }, // a child's aggregate is not the host's
    ],
    consumers: [
      { providerId: 1, consumerIds: [11, 12], movingIds: [] },
      { providerId: 2, consumerIds: [13], movingIds: [] },
      { providerId: 4, consumerIds: [14, 15], movingIds: [] },
      { providerId: 5, consumerIds: [15, 16], movingIds: [] },
    ],
    resourceClassNames: ['VCPU', 'MEMORY_MB', 'DISK_GB'],
    traitNames: ['COMPUTE_STATUS_DISABLED', 'CUSTOM_GPU', 'HW_CPU_X86_AVX2'],
  };
  return CapacityIndex.fromRows(rows);
}

const index = buildIndex();
const list = (q: Partial<HostListQuery> = {}) =>
  listHosts(index, aggregates, { first: 50, offset: 0, ...q });
const names = (q: Partial<HostListQuery> = {}) => list(q).hosts.map((h) => h.name);

describe('listHosts', () => {
  it('lists root providers only, by name, with their tree’s figures', () => {
    const page = list();
    expect(page.totalCount).toBe(4);
    expect(page.hosts.map((h) => h.name)).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
    const charlie = page.hosts[2]!;
    expect(charlie).toMatchObject({
      uuid: uuidOf(3),
      children: 2,
      instances: 3,
      disabled: false,
      availabilityZone: null,
      aggregates: [],
    });
    expect(charlie.usage).toEqual([
      expect.objectContaining({ resourceClass: 'VCPU', capacity: 26, used: 8, providers: 3 }),
    ]);
    expect(charlie.maxUtilisation).toBeCloseTo(8 / 26);
    const alpha = page.hosts[0]!;
    expect(alpha.availabilityZone).toBe('az1');
    expect(alpha.aggregates.map((a) => a.name)).toEqual(['rack-a']);
    expect(alpha.maxUtilisation).toBeCloseTo(0.95);
    expect(page.hosts[1]!.disabled).toBe(true);
    expect(page.hosts[3]!.aggregates).toEqual([{ id: 0, uuid: AGG_Z, name: null, metadata: [] }]);
  });

  it.each([
    {
      name: 'name descending',
      field: 'NAME',
      dir: 'DESC',
      want: ['delta', 'charlie', 'bravo', 'alpha'],
    },
    {
      name: 'zone, hosts without one last',
      field: 'AVAILABILITY_ZONE',
      dir: 'DESC',
      want: ['bravo', 'alpha', 'charlie', 'delta'],
    },
    {
      name: 'aggregates by display name (uuid when unnamed)',
      field: 'AGGREGATES',
      dir: 'ASC',
      want: ['delta', 'alpha', 'bravo', 'charlie'],
    },
    {
      name: 'instances, ties by name',
      field: 'INSTANCES',
      dir: 'DESC',
      want: ['charlie', 'alpha', 'bravo', 'delta'],
    },
    {
      name: 'children',
      field: 'CHILDREN',
      dir: 'DESC',
      want: ['charlie', 'alpha', 'bravo', 'delta'],
    },
    {
      name: 'disabled first',
      field: 'DISABLED',
      dir: 'DESC',
      want: ['bravo', 'alpha', 'charlie', 'delta'],
    },
    {
      name: 'fullest class',
      field: 'MAX_UTILISATION',
      dir: 'DESC',
      want: ['alpha', 'bravo', 'charlie', 'delta'],
    },
    {
      name: 'VCPU utilisation ascending, hosts without VCPU last',
      field: 'UTILISATION',
      rc: 'VCPU',
      dir: 'ASC',
      want: ['alpha', 'charlie', 'bravo', 'delta'],
    },
    {
      name: 'VCPU used',
      field: 'USED',
      rc: 'VCPU',
      dir: 'DESC',
      want: ['charlie', 'bravo', 'alpha', 'delta'],
    },
    {
      name: 'VCPU capacity',
      field: 'CAPACITY',
      rc: 'VCPU',
      dir: 'DESC',
      want: ['charlie', 'alpha', 'bravo', 'delta'],
    },
    {
      name: 'MEMORY_MB utilisation: only alpha has it',
      field: 'UTILISATION',
      rc: 'MEMORY_MB',
      dir: 'ASC',
      want: ['alpha', 'bravo', 'charlie', 'delta'],
    },
  ] as const)('sorts by $name', ({ field, dir, want, ...rest }) => {
    const resourceClass = 'rc' in rest ? rest.rc : null;
    expect(names({ orderBy: { field, direction: dir, resourceClass } })).toEqual(want);
  });

  it.each([
    { name: 'name part, any case', filter: { nameContains: 'HARL' }, want: ['charlie'] },
    { name: 'a trait of a child', filter: { trait: 'CUSTOM_GPU' }, want: ['charlie'] },
    { name: 'a trait no provider has', filter: { trait: 'HW_CPU_X86_AVX2' }, want: [] },
    { name: 'aggregate (the root’s only)', filter: { aggregate: AGG_A }, want: ['alpha'] },
    { name: 'zone', filter: { availabilityZone: 'az2' }, want: ['bravo'] },
    { name: 'enabled', filter: { state: 'ENABLED' }, want: ['alpha', 'charlie', 'delta'] },
    { name: 'disabled', filter: { state: 'DISABLED' }, want: ['bravo'] },
    { name: 'at least 90 % full', filter: { state: 'FULL' }, want: ['alpha'] },
    {
      name: 'two conditions',
      filter: { state: 'ENABLED', nameContains: 'a' },
      want: ['alpha', 'charlie', 'delta'],
    },
  ] as const)('filters by $name', ({ filter, want }) => {
    const page = list({ filter });
    expect(page.hosts.map((h) => h.name)).toEqual(want);
    expect(page.totalCount).toBe(want.length);
  });

  it('sorts names with numbers in numeric order (host-2 before host-10)', () => {
    const rows: IndexRows = {
      providers: ['host-10', 'host-2', 'host-1', 'host-2a'].map((n, i) => provider(i + 1, n)),
      inventories: [],
      traits: [],
      aggregates: [],
    };
    const page = listHosts(CapacityIndex.fromRows(rows), [], { first: 10, offset: 0 });
    expect(page.hosts.map((h) => h.name)).toEqual(['host-1', 'host-2', 'host-2a', 'host-10']);
  });

  it('pages with the total of all pages', () => {
    expect(list({ first: 2, offset: 0 }).hosts.map((h) => h.name)).toEqual(['alpha', 'bravo']);
    const second = list({ first: 2, offset: 2 });
    expect(second.hosts.map((h) => h.name)).toEqual(['charlie', 'delta']);
    expect(second.totalCount).toBe(4);
    expect(list({ first: 2, offset: 10 })).toEqual({ totalCount: 4, hosts: [] });
    expect(list({ first: 0 }).hosts).toEqual([]);
  });

  it.each([
    {
      name: 'a page above the maximum',
      q: { first: MAX_HOST_PAGE + 1 },
      code: 'berth.invalid_input',
    },
    { name: 'a negative page size', q: { first: -1 }, code: 'berth.invalid_input' },
    { name: 'a negative offset', q: { offset: -1 }, code: 'berth.invalid_input' },
    {
      name: 'an unknown sort column',
      q: { orderBy: { field: 'COLOUR', direction: 'ASC' } },
      code: 'berth.invalid_input',
    },
    {
      name: 'a per-class sort without a class',
      q: { orderBy: { field: 'USED', direction: 'ASC' } },
      code: 'berth.invalid_input',
    },
    {
      name: 'an unknown class',
      q: { orderBy: { field: 'USED', direction: 'ASC', resourceClass: 'CUSTOM_NOPE' } },
      code: 'berth.resource_class.not_found',
    },
    {
      name: 'an unknown trait',
      q: { filter: { trait: 'CUSTOM_NOPE' } },
      code: 'berth.trait.not_found',
    },
    {
      name: 'a malformed aggregate uuid',
      q: { filter: { aggregate: 'rack-a' } },
      code: 'berth.invalid_uuid',
    },
  ])('refuses $name with a stable code', ({ q, code }) => {
    let caught: unknown;
    try {
      list(q as Partial<HostListQuery>);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PlacementError);
    expect((caught as PlacementError).code).toBe(code);
  });
});
