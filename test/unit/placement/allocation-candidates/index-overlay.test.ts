// The planning overlay: the engine and the host views read its usage and consumers, the live
// index never sees them, cached host views are shared until the overlay changes a tree, and a
// structural change of the live index marks the overlay as no longer current.
import { CapacityIndex } from '../../../../src/placement/allocation-candidates/capacity-index';
import { findAllocationCandidates } from '../../../../src/placement/allocation-candidates/find-allocation-candidates';
import {
  applyOverlay,
  OverlayMismatch,
  overlayIndex,
} from '../../../../src/placement/allocation-candidates/index-overlay';
import { emptyRequestGroup } from '../../../../src/placement/allocation-candidates/request';
import type { AggregateWithMetadata } from '../../../../src/placement/host-rows';
import { HostViewCache } from '../../../../src/scheduler/state/host-view-cache';
import { provider, uuid, vcpuInventory } from '../../scheduler/index-fixtures';

const inv = vcpuInventory;

function live(): CapacityIndex {
  return CapacityIndex.fromRows({
    providers: [provider(1), provider(2)],
    inventories: [inv(1, 8, 2), inv(2, 4)],
    traits: [],
    aggregates: [],
    consumers: [{ providerId: 1, consumerIds: [7], movingIds: [] }],
  });
}

const hosts = (index: CapacityIndex, vcpu: number) =>
  findAllocationCandidates(index, {
    groups: [{ ...emptyRequestGroup(''), resources: { VCPU: vcpu } }],
  }).allocationRequests.map((r) => r.allocations[0]!.providerUuid);

describe('overlayIndex', () => {
  it('places and releases on the overlay only', () => {
    const index = live();
    const overlay = overlayIndex(index);
    expect(hosts(overlay.index, 5)).toEqual([uuid(1)]);
    applyOverlay(overlay, { [uuid(1)]: { VCPU: 4 } }, -1, 1);
    expect(hosts(overlay.index, 3)).toEqual([uuid(2)]);
    expect(hosts(index, 3)).toEqual([uuid(1), uuid(2)]);
    expect(Array.from(overlay.index.consumers[index.slotOfUuid(uuid(1))]!)).toEqual([-1, 7]);
    expect(Array.from(index.consumers[index.slotOfUuid(uuid(1))]!)).toEqual([7]);
    applyOverlay(overlay, { [uuid(1)]: { VCPU: 4 } }, -1, -1);
    expect(hosts(overlay.index, 3)).toEqual([uuid(1), uuid(2)]);
    expect(Array.from(overlay.index.consumers[index.slotOfUuid(uuid(1))]!)).toEqual([7]);
  });

  it('keeps the snapshot while the live usage moves, and notices structural changes', () => {
    const index = live();
    const overlay = overlayIndex(index);
    index.applyAllocationDelta(2, 'VCPU', 4);
    expect(hosts(index, 1)).toEqual([uuid(1)]);
    expect(hosts(overlay.index, 1)).toEqual([uuid(1), uuid(2)]);
    expect(overlay.current()).toBe(true);
    index.setTraits(2, ['CUSTOM_X']);
    expect(overlay.current()).toBe(false);
  });

  it('refuses allocations on unknown providers or classes, changing nothing', () => {
    const overlay = overlayIndex(live());
    expect(() =>
      applyOverlay(overlay, { [uuid(1)]: { VCPU: 1 }, [uuid(2)]: { MEMORY_MB: 1 } }, -1, 1),
    ).toThrow(OverlayMismatch);
    expect(hosts(overlay.index, 6)).toEqual([uuid(1)]);
  });

  it('shares the cached host views of trees the overlay did not change', () => {
    const index = live();
    const cache = new HostViewCache();
    const requests = new Map([
      [uuid(1), []],
      [uuid(2), []],
    ]);
    const none: AggregateWithMetadata[] = [];
    const before = cache.views(index, none, requests);
    const overlay = overlayIndex(index);
    const fork = cache.forkFor(index, overlay.index, none);
    applyOverlay(overlay, { [uuid(2)]: { VCPU: 1 } }, -1, 1);
    const after = fork.views(overlay.index, none, requests);
    expect(after[0]!.providers).toBe(before[0]!.providers);
    expect(after[1]!.root.inventories.VCPU!.used).toBe(1);
    expect(after[1]!.numInstances).toBe(1);
    expect(cache.views(index, none, requests)[1]!.root.inventories.VCPU!.used).toBe(0);
  });
});
