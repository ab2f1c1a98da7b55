// Builders of source rows for the checkSource tests (validate-source.test.ts): a provider, an
// inventory, a consumer or an allocation with sensible defaults, and a small valid cloud to change.
import { STANDARD_RESOURCE_CLASSES } from '../../../../src/db/seed';
import type {
  AllocationRow,
  ConsumerRow,
  InventoryRow,
  ProviderRow,
  SourceRows,
} from '../../../../src/import/placement/source-rows';

/** The uuid numbered `n`. */
export const U = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A root provider row `id` (uuid U(id), name rp<id>). */
export const rp = (id: number, o: Partial<ProviderRow> = {}): ProviderRow => ({
  id: String(id),
  uuid: U(id),
  name: `rp${id}`,
  generation: 1,
  rootId: String(id),
  parentId: null,
  ...o,
});
/** 10 VCPU of provider `provider`. */
export const inv = (id: number, provider: number, o: Partial<InventoryRow> = {}): InventoryRow => ({
  id: String(id),
  providerId: String(provider),
  classId: '0',
  total: 10,
  reserved: 0,
  minUnit: 1,
  maxUnit: 10,
  stepSize: 1,
  allocationRatio: 1,
  ...o,
});
/** Consumer row `n` (uuid U(1000 + n)) of project 1, user 1. */
export const consumer = (n: number, o: Partial<ConsumerRow> = {}): ConsumerRow => ({
  id: String(n),
  uuid: U(1000 + n),
  projectId: '1',
  userId: '1',
  generation: 1,
  typeId: null,
  ...o,
});
/** 1 VCPU of consumer U(1001) on `provider`. */
export const alloc = (
  id: number,
  provider: number,
  o: Partial<AllocationRow> = {},
): AllocationRow => ({
  id: String(id),
  providerId: String(provider),
  consumerUuid: U(1001),
  classId: '0',
  used: 1,
  ...o,
});

/** Host 1 with child 2 (and grandchild 3), host 4; VCPU everywhere; consumer 1 on 2, 2 on 4. */
export function base(o: Partial<SourceRows> = {}): SourceRows {
  return {
    resourceClasses: STANDARD_RESOURCE_CLASSES.map((name, i) => ({ id: String(i), name })),
    traits: [{ id: '1', name: 'HW_CPU_X86_AVX2' }],
    aggregates: [{ id: '1', uuid: U(900) }],
    projects: [{ id: '1', name: 'p' }],
    users: [{ id: '1', name: 'u' }],
    consumerTypes: [{ id: '1', name: 'INSTANCE' }],
    providers: [
      rp(1),
      rp(2, { parentId: '1', rootId: '1' }),
      rp(3, { parentId: '2', rootId: '1' }),
      rp(4),
    ],
    inventories: [inv(1, 1), inv(2, 2), inv(3, 3), inv(4, 4)],
    providerTraits: [{ providerId: '1', targetId: '1' }],
    providerAggregates: [{ providerId: '4', targetId: '1' }],
    consumers: [consumer(1, { typeId: '1' }), consumer(2)],
    allocations: [alloc(1, 2), alloc(2, 4, { consumerUuid: U(1002) })],
    ...o,
  };
}

/** `kind/rule` of every finding, and of every dependent. */
