// The full load of the capacity index reads the database a range of provider ids at a time. Read
// in chunks of 1, 2, 3 and 5 providers, the index must equal the one read in one chunk and the
// one built from the per-provider rows the change feed reads (loadProviderRows), including a
// subtree moved under a parent created after it (a parent with a higher id than its child).
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import { loadProviderRows } from '../../src/placement/allocation-candidates/candidate-rows';
import { CapacityIndex } from '../../src/placement/allocation-candidates/capacity-index';
import { loadCapacityIndex } from '../../src/placement/allocation-candidates/index-load';
import { ChangeBus } from '../../src/placement/change-bus';
import { createTestDb, type TestDb } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';

/** Everything the index knows about each provider, by provider id, in a comparable form. */
function dump(index: CapacityIndex) {
  const inv = index.inventories;
  const uuidOf = (slot: number) => (slot < 0 ? null : index.uuid[slot]);
  return Array.from(index.orderedSlots(), (slot) => ({
    id: index.providerId[slot],
    uuid: index.uuid[slot],
    name: index.name[slot],
    generation: index.generation[slot],
    parent: uuidOf(index.parent[slot]!),
    root: uuidOf(index.root[slot]!),
    children: index.children[slot]!.map(uuidOf),
    members: (index.members[slot] ?? []).map(uuidOf),
    inventories: Array.from(index.inventorySlots(slot), (i) => [
      index.classes.name(inv.resourceClass[i]!),
      inv.total[i],
      inv.reserved[i],
      inv.minUnit[i],
      inv.maxUnit[i],
      inv.stepSize[i],
      inv.ratio[i],
      inv.used[i],
      inv.capacity[i],
    ]).sort(),
    traits: Array.from(index.traits[slot]!, (t) => index.traitTable.name(t)).sort(),
    aggregates: Array.from(index.aggregates[slot]!, (a) => index.aggregateTable.name(a)).sort(),
    consumers: index.consumers[slot]!.length,
    sharing: index.sharing[slot],
  }));
}

describe('loading the capacity index in chunks', () => {
  let db: TestDb;
  let s: Services;

  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`));
    const agg = randomUUID();
    const early = await buildResourceProvider(s, {
      name: 'early-root',
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
      traits: ['HW_CPU_X86_AVX2'],
      aggregates: [agg],
    });
    const child = await buildResourceProvider(s, {
      name: 'early-child',
      parentUuid: early.uuid,
      inventories: [{ resourceClass: 'MEMORY_MB', total: 4096, reserved: 512 }],
    });
    await buildResourceProvider(s, {
      name: 'grandchild',
      parentUuid: child.uuid,
      inventories: [{ resourceClass: 'PCI_DEVICE', total: 2, maxUnit: 1 }],
      traits: ['HW_NIC_SRIOV'],
    });
    for (let i = 0; i < 4; i++) {
      const host = await buildResourceProvider(s, {
        name: `host-${i}`,
        inventories: [
          { resourceClass: 'VCPU', total: 16, allocationRatio: 4 },
          { resourceClass: 'DISK_GB', total: 500, stepSize: 10 },
        ],
        traits: i % 2 ? ['HW_CPU_X86_SSE42', 'HW_NIC_SRIOV'] : ['HW_CPU_X86_SSE42'],
        aggregates: [agg],
      });
      await s.allocations.set([claim(host.uuid, { VCPU: 3 + i })]);
    }
    await buildResourceProvider(s, {
      name: 'shared-disk',
      inventories: [{ resourceClass: 'DISK_GB', total: 10000 }],
      traits: ['MISC_SHARES_VIA_AGGREGATE'],
      aggregates: [agg],
    });
    // A parent created last: the child's subtree (lower ids) moves under it.
    const late = await buildResourceProvider(s, {
      name: 'late-root',
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    await s.providers.update({ uuid: child.uuid, parentUuid: late.uuid, allowReparenting: true });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('gives the same index whatever the chunk size, and the same as the per-provider rows', async () => {
    const whole = await loadCapacityIndex(db.dataSource, 1_000_000);
    const ids = Array.from(whole.orderedSlots(), (slot) => whole.providerId[slot]!);
    expect(ids.length).toBe(9);
    const moved = whole.slotOfUuid(
      whole.uuid[whole.children[whole.slotOfId(Math.max(...ids))]![0]!]!,
    );
    expect(whole.name[moved]).toBe('early-child');
    expect(whole.members[whole.root[moved]!]!.map((m) => whole.name[m])).toEqual([
      'early-child',
      'grandchild',
      'late-root',
    ]);
    const expected = dump(whole);
    expect(dump(CapacityIndex.fromRows(await loadProviderRows(db.dataSource, ids)))).toEqual(
      expected,
    );
    for (const chunk of [1, 2, 3, 5]) {
      expect(dump(await loadCapacityIndex(db.dataSource, chunk))).toEqual(expected);
    }
  });
});
