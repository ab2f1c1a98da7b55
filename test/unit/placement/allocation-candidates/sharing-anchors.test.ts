// The sharing anchors are cached and dropped only when a sharing flag, an aggregate set or the
// forest changes (not on every usage or inventory change: that made each claim rebuild them over
// every provider). Through random sequences of every kind of index change, the cached anchors must
// equal anchors computed afresh from the same index.

import { mulberry32 } from '../../../../src/lib/seeded-random';
import { CapacityIndex } from '../../../../src/placement/allocation-candidates/capacity-index';
import { SharingAnchors } from '../../../../src/placement/allocation-candidates/sharing-anchors';

const AGGS = ['a1', 'a2', 'a3'];
const SHARES = 'MISC_SHARES_VIA_AGGREGATE';

function expectFresh(index: CapacityIndex): void {
  const fresh = new SharingAnchors(index);
  for (const slot of index.orderedSlots()) {
    expect([slot, Array.from(index.anchors.anchorsOf(slot))]).toEqual([
      slot,
      Array.from(fresh.anchorsOf(slot)),
    ]);
    expect([slot, Array.from(index.anchors.sharingFor(slot))]).toEqual([
      slot,
      Array.from(fresh.sharingFor(slot)),
    ]);
  }
}

describe('sharing anchors cache', () => {
  it.each([1, 2, 3, 4])('follows random index changes (seed %i)', (seed) => {
    const next = mulberry32(seed);
    const int = (n: number) => Math.floor(next() * n);
    const index = new CapacityIndex();
    let nextId = 1;
    const alive = () => Array.from(index.orderedSlots(), (s) => index.providerId[s]!);
    for (let step = 0; step < 400; step++) {
      const ids = alive();
      const id = ids[int(ids.length)];
      const roll = int(8);
      if (ids.length < 3 || roll === 0) {
        const parent = ids.length > 0 && int(2) === 0 ? ids[int(ids.length)]! : null;
        const newId = nextId++;
        index.addProviders([
          {
            id: newId,
            uuid: `u${newId}`,
            name: `p${newId}`,
            generation: 0,
            parentId: parent,
            rootId: newId,
          },
        ]);
      } else if (roll === 1) {
        index.setTraits(id!, int(3) === 0 ? [SHARES] : ['HW_CPU_X86_AVX2']);
      } else if (roll === 2) {
        index.setAggregates(
          id!,
          AGGS.filter(() => int(2) === 0),
        );
      } else if (roll === 3) {
        const parent = ids[int(ids.length)]!;
        if (!index.isAncestorOrSelf(index.slotOfId(id!), index.slotOfId(parent))) {
          index.reparentProvider(id!, int(3) === 0 ? null : parent);
        }
      } else if (roll === 4 && index.children[index.slotOfId(id!)]!.length === 0) {
        index.removeProvider(id!);
      } else if (roll === 5) {
        index.replaceInventories(id!, [
          {
            resourceClass: 'DISK_GB',
            total: 10 + int(5),
            reserved: 0,
            minUnit: 1,
            maxUnit: 100,
            stepSize: 1,
            allocationRatio: 1,
            used: 0,
          },
        ]);
      } else {
        index.applyAllocationDelta(id!, 'DISK_GB', 1);
      }
      if (step % 5 === 0) {
        expectFresh(index);
      }
    }
    expectFresh(index);
  });
});
