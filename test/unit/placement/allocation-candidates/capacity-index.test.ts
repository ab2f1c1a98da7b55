// CapacityIndex: loading, derived data and the incremental mutators a change feed drives
// (berth-specific; upstream re-reads the tables on every request instead).
import fc from 'fast-check';
import { CapacityIndex } from '../../../../src/placement/allocation-candidates/capacity-index';
import { findAllocationCandidates } from '../../../../src/placement/allocation-candidates/find-allocation-candidates';
import type {
  IndexInventoryRow,
  IndexRows,
  ProviderRow,
} from '../../../../src/placement/allocation-candidates/index-rows';
import { canonical, UNBOUNDED } from './helpers';
import { requestArb, worldArb } from './random-world';

const prov = (id: number, parentId: number | null, rootId = id): ProviderRow => ({
  id,
  uuid: `u${id}`,
  name: `n${id}`,
  generation: 0,
  parentId,
  rootId,
});
const vcpu = (providerId: number, total: number, used = 0): IndexInventoryRow => ({
  providerId,
  resourceClass: 'VCPU',
  total,
  reserved: 1,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: 1.5,
  used,
});
const rows = (providers: ProviderRow[], inventories: IndexInventoryRow[] = []): IndexRows => ({
  providers,
  inventories,
  traits: [],
  aggregates: [],
});

describe('CapacityIndex', () => {
  it('computes capacity as floor((total - reserved) * allocation_ratio)', () => {
    const index = CapacityIndex.fromRows(rows([prov(1, null)], [vcpu(1, 4)]));
    const slot = index.findInventory(index.slotOfId(1), index.classes.lookup('VCPU'));
    expect(index.inventories.capacity[slot]).toBe(4);
  });

  it('accepts children before their parents and derives roots from parents', () => {
    const index = CapacityIndex.fromRows(rows([prov(3, 2, 99), prov(2, 1, 99), prov(1, null)]));
    expect(index.root[index.slotOfId(3)]).toBe(index.slotOfId(1));
    expect(index.members[index.slotOfId(1)]!.map((s) => index.providerId[s])).toEqual([1, 2, 3]);
    expect(Array.from(index.rootOrder(), (s) => index.providerId[s])).toEqual([1]);
  });

  it('re-parents a subtree and refuses cycles', () => {
    const index = CapacityIndex.fromRows(
      rows([prov(1, null), prov(2, 1), prov(3, 2), prov(4, null)]),
    );
    index.reparentProvider(2, 4);
    expect(index.root[index.slotOfId(3)]).toBe(index.slotOfId(4));
    expect(index.members[index.slotOfId(1)]!.map((s) => index.providerId[s])).toEqual([1]);
    expect(index.members[index.slotOfId(4)]!.map((s) => index.providerId[s])).toEqual([2, 3, 4]);
    expect(() => index.reparentProvider(4, 3)).toThrow('cannot be its own ancestor');
    index.reparentProvider(2, null);
    expect(Array.from(index.rootOrder(), (s) => index.providerId[s])).toEqual([1, 2, 4]);
  });

  it('refuses to remove a provider that has children', () => {
    const index = CapacityIndex.fromRows(rows([prov(1, null), prov(2, 1)]));
    expect(() => index.removeProvider(1)).toThrow('still has children');
    index.removeProvider(2);
    index.removeProvider(1);
    expect(index.rootOrder()).toHaveLength(0);
    expect(index.slotOfUuid('u1')).toBe(-1);
  });

  it('applies allocation deltas and reports inventories it does not have', () => {
    const index = CapacityIndex.fromRows(rows([prov(1, null)], [vcpu(1, 4, 1)]));
    const req = {
      groups: [
        {
          suffix: '',
          resources: { VCPU: 3 },
          requiredTraits: [],
          forbiddenTraits: [],
          memberOf: [],
          forbiddenAggregates: [],
        },
      ],
    };
    expect(findAllocationCandidates(index, req).allocationRequests).toHaveLength(1);
    expect(index.applyAllocationDelta(1, 'VCPU', 1)).toBe(true);
    expect(findAllocationCandidates(index, req).allocationRequests).toHaveLength(0);
    expect(index.applyAllocationDelta(1, 'DISK_GB', 1)).toBe(false);
    expect(index.applyAllocationDelta(7, 'VCPU', 1)).toBe(false);
  });

  it('tracks sharing providers and their anchors through trait and aggregate changes', () => {
    const index = CapacityIndex.fromRows(rows([prov(1, null), prov(2, 1), prov(3, null)]));
    index.setAggregates(2, ['agg']);
    index.setAggregates(3, ['agg']);
    expect(index.anchors.sharingFor(index.slotOfId(1))).toHaveLength(0);
    index.setTraits(3, ['MISC_SHARES_VIA_AGGREGATE']);
    expect(Array.from(index.anchors.sharingFor(index.slotOfId(1)))).toEqual([index.slotOfId(3)]);
    index.setAggregates(2, []);
    expect(index.anchors.sharingFor(index.slotOfId(1))).toHaveLength(0);
  });

  it('keeps the resource class and trait catalogue current', () => {
    const index = CapacityIndex.fromRows({
      ...rows([prov(1, null)], [vcpu(1, 4)]),
      resourceClassNames: [],
      traitNames: [],
    });
    const req = (trait: string) => ({
      groups: [
        {
          suffix: '',
          resources: { VCPU: 1 },
          requiredTraits: [[trait]],
          forbiddenTraits: [],
          memberOf: [],
          forbiddenAggregates: [],
        },
      ],
    });
    expect(index.isKnownResourceClass('VCPU')).toBe(true);
    expect(() => findAllocationCandidates(index, req('CUSTOM_NEW'))).toThrow(
      'No such trait(s): CUSTOM_NEW.',
    );
    index.defineTrait('CUSTOM_NEW');
    expect(findAllocationCandidates(index, req('CUSTOM_NEW')).allocationRequests).toHaveLength(0);
    index.setTraits(1, ['CUSTOM_NEW']);
    expect(findAllocationCandidates(index, req('CUSTOM_NEW')).allocationRequests).toHaveLength(1);
    index.setTraits(1, []);
    index.forgetTrait('CUSTOM_NEW');
    expect(() => findAllocationCandidates(index, req('CUSTOM_NEW'))).toThrow('No such trait(s)');
  });

  it('refreshProviders replaces the data of the listed providers and drops missing ones', () => {
    const index = CapacityIndex.fromRows(
      rows([prov(1, null), prov(2, 1), prov(3, null)], [vcpu(2, 4)]),
    );
    index.refreshProviders([2, 3, 5], rows([prov(2, null), prov(5, 2)], [vcpu(5, 8)]));
    expect(index.slotOfId(3)).toBe(-1);
    expect(index.parent[index.slotOfId(2)]).toBe(-1);
    expect(index.root[index.slotOfId(5)]).toBe(index.slotOfId(2));
    expect(index.inventorySlots(index.slotOfId(2))).toHaveLength(0);
  });
});

/** Applies one random change to both a rows model and an index. */
type Op = (model: IndexRows, index: CapacityIndex) => IndexRows;

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.tuple(fc.nat(), fc.integer({ min: -2, max: 3 })).map(
    ([pick, delta]): Op =>
      (m, index) => {
        const inv = m.inventories[pick % Math.max(1, m.inventories.length)];
        if (!inv) {
          return m;
        }
        index.applyAllocationDelta(inv.providerId, inv.resourceClass, delta);
        return {
          ...m,
          inventories: m.inventories.map((i) => (i === inv ? { ...i, used: i.used + delta } : i)),
        };
      },
  ),
  fc.tuple(fc.nat(), fc.subarray(['T1', 'T2', 'MISC_SHARES_VIA_AGGREGATE'])).map(
    ([pick, traits]): Op =>
      (m, index) => {
        const p = m.providers[pick % m.providers.length]!;
        index.setTraits(p.id, traits);
        return {
          ...m,
          traits: [
            ...m.traits.filter((t) => t.providerId !== p.id),
            ...traits.map((trait) => ({ providerId: p.id, trait })),
          ],
        };
      },
  ),
  fc.tuple(fc.nat(), fc.subarray(['A1', 'A2'])).map(
    ([pick, aggs]): Op =>
      (m, index) => {
        const p = m.providers[pick % m.providers.length]!;
        index.setAggregates(p.id, aggs);
        return {
          ...m,
          aggregates: [
            ...m.aggregates.filter((a) => a.providerId !== p.id),
            ...aggs.map((aggregateUuid) => ({ providerId: p.id, aggregateUuid })),
          ],
        };
      },
  ),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 8 })).map(
    ([pick, total]): Op =>
      (m, index) => {
        const p = m.providers[pick % m.providers.length]!;
        const inv = [{ ...vcpu(p.id, total), resourceClass: 'VF' }];
        index.replaceInventories(p.id, inv);
        return {
          ...m,
          inventories: [...m.inventories.filter((i) => i.providerId !== p.id), ...inv],
        };
      },
  ),
  fc.tuple(fc.nat(), fc.boolean()).map(
    ([pick, asRoot]): Op =>
      (m, index) => {
        const id = Math.max(...m.providers.map((p) => p.id)) + 1;
        const parent = asRoot ? null : m.providers[pick % m.providers.length]!.id;
        const row = prov(id, parent);
        index.upsertProvider(row);
        index.replaceInventories(id, [vcpu(id, 6)]);
        return {
          ...m,
          providers: [...m.providers, row],
          inventories: [...m.inventories, vcpu(id, 6)],
        };
      },
  ),
  fc.nat().map(
    (pick): Op =>
      (m, index) => {
        const leaves = m.providers.filter((p) => !m.providers.some((c) => c.parentId === p.id));
        const p = leaves[pick % leaves.length]!;
        if (m.providers.length === 1) {
          return m;
        }
        index.removeProvider(p.id);
        const keep = (r: { providerId: number }) => r.providerId !== p.id;
        return {
          providers: m.providers.filter((x) => x !== p),
          inventories: m.inventories.filter(keep),
          traits: m.traits.filter(keep),
          aggregates: m.aggregates.filter(keep),
        };
      },
  ),
  fc.tuple(fc.nat(), fc.nat()).map(
    ([a, b]): Op =>
      (m, index) => {
        const p = m.providers[a % m.providers.length]!;
        const target = m.providers[b % m.providers.length]!;
        const isAncestor = (x: ProviderRow | undefined): boolean =>
          !!x && (x.id === p.id || isAncestor(m.providers.find((q) => q.id === x.parentId)));
        const parentId = isAncestor(target) ? null : target.id;
        index.reparentProvider(p.id, parentId);
        return { ...m, providers: m.providers.map((x) => (x === p ? { ...x, parentId } : x)) };
      },
  ),
);

describe('CapacityIndex mutators', () => {
  it('leave the index answering exactly like one rebuilt from the final rows', () => {
    fc.assert(
      fc.property(
        worldArb.chain((w) =>
          fc.record({ w: fc.constant(w), ops: fc.array(opArb, { minLength: 1, maxLength: 8 }) }),
        ),
        fc.nat(),
        ({ w, ops }, seed) => {
          const index = CapacityIndex.fromRows(w);
          const model = ops.reduce((m, op) => op(m, index), w);
          const rebuilt = CapacityIndex.fromRows(model);
          for (const req of fc.sample(requestArb(model), { numRuns: 4, seed })) {
            const a = findAllocationCandidates(index, req, { bounds: UNBOUNDED });
            const b = findAllocationCandidates(rebuilt, req, { bounds: UNBOUNDED });
            expect(a.allocationRequests.map(canonical)).toEqual(
              b.allocationRequests.map(canonical),
            );
            expect(a.providerSummaries).toEqual(b.providerSummaries);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
