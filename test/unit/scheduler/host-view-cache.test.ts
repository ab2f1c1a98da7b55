// The host-view cache: a view is reused while nothing about its tree changed in the capacity
// index, rebuilt when a provider of the tree changes (usage, inventory, traits, aggregates, name,
// a new child), and dropped wholesale when the aggregate metadata list or the index is replaced.
import { CapacityIndex } from '../../../src/placement/allocation-candidates/capacity-index';
import type { AggregateWithMetadata } from '../../../src/placement/host-rows';
import { HostViewCache } from '../../../src/scheduler/state/host-view-cache';
import { provider, uuid, vcpuInventory } from './index-fixtures';

const AGG = '00000000-0000-0000-0000-00000000a001';
const inv = vcpuInventory;

function fixture() {
  const index = CapacityIndex.fromRows({
    providers: [provider(1), provider(2), provider(3, 2)],
    inventories: [inv(1, 8), inv(2, 4), inv(3, 2)],
    traits: [],
    aggregates: [{ providerId: 1, aggregateUuid: AGG }],
  });
  const aggregates: AggregateWithMetadata[] = [
    { uuid: AGG, name: 'gold', metadata: { tier: 'gold' } },
  ];
  return { index, aggregates, cache: new HostViewCache() };
}

const roots = [uuid(1), uuid(2)];
const noRequests = new Map(roots.map((r): [string, never[]] => [r, []]));

describe('HostViewCache', () => {
  it('builds views once and reuses them while nothing changed', () => {
    const { index, aggregates, cache } = fixture();
    const first = cache.views(index, aggregates, noRequests);
    expect(first.map((v) => v.uuid)).toEqual(roots);
    expect(first[0]!.aggregates[0]!.metadata).toEqual({ tier: 'gold' });
    expect(first[1]!.providers.map((p) => p.uuid)).toEqual([uuid(2), uuid(3)]);
    expect(cache.stats).toEqual({ hits: 0, builds: 2 });
    const again = cache.views(index, aggregates, noRequests);
    expect(cache.stats).toEqual({ hits: 2, builds: 2 });
    expect(again[0]!.providers).toBe(first[0]!.providers);
  });

  it.each([
    ['usage of a child', (i: CapacityIndex) => i.applyAllocationDelta(3, 'VCPU', 1)],
    ['inventory of a child', (i: CapacityIndex) => i.replaceInventories(3, [inv(3, 6)])],
    ['traits of a child', (i: CapacityIndex) => i.setTraits(3, ['CUSTOM_X'])],
    ['aggregates of a child', (i: CapacityIndex) => i.setAggregates(3, [AGG])],
    ['name of the root', (i: CapacityIndex) => i.upsertProvider(provider(2, null, 'renamed'))],
    ['a new child', (i: CapacityIndex) => i.upsertProvider(provider(4, 2))],
  ])('rebuilds only the tree whose %s changed', (_what, change) => {
    const { index, aggregates, cache } = fixture();
    const before = cache.views(index, aggregates, noRequests);
    change(index);
    const after = cache.views(index, aggregates, noRequests);
    expect(cache.stats).toEqual({ hits: 1, builds: 3 });
    expect(after[0]!.providers).toBe(before[0]!.providers);
    expect(after[1]!.providers).not.toBe(before[1]!.providers);
  });

  it('shows the new usage after a change', () => {
    const { index, aggregates, cache } = fixture();
    cache.views(index, aggregates, noRequests);
    index.applyAllocationDelta(3, 'VCPU', 2);
    const [, tree] = cache.views(index, aggregates, noRequests);
    expect(tree!.providers[1]!.inventories.VCPU!.used).toBe(2);
  });

  it('starts over when the aggregate metadata list is replaced', () => {
    const { index, aggregates, cache } = fixture();
    cache.views(index, aggregates, noRequests);
    const changed = [{ ...aggregates[0]!, metadata: { tier: 'silver' } }];
    const [host] = cache.views(index, changed, noRequests);
    expect(host!.aggregates[0]!.metadata).toEqual({ tier: 'silver' });
    expect(cache.stats.builds).toBe(4);
  });

  it('leaves out roots the index no longer knows and attaches each request to its host', () => {
    const { index, aggregates, cache } = fixture();
    const request = { allocations: { [uuid(1)]: { VCPU: 1 } }, mappings: {} };
    const views = cache.views(
      index,
      aggregates,
      new Map([
        [uuid(1), [request]],
        [uuid(99), []],
      ]),
    );
    expect(views).toHaveLength(1);
    expect(views[0]!.allocationRequests).toEqual([request]);
  });

  it('hands out frozen views: a plugin cannot change what the next request sees', () => {
    const { index, aggregates, cache } = fixture();
    const [host] = cache.views(index, aggregates, noRequests);
    expect(() => {
      (host!.root.inventories.VCPU as { used: number }).used = 99;
    }).toThrow(TypeError);
    expect(() => {
      (host!.aggregates[0]!.metadata as Record<string, string>).tier = 'x';
    }).toThrow(TypeError);
  });
});
