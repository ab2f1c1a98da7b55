// HostView.numInstances / numIoOps from the capacity index: consumers are counted once per tree
// (a consumer on the root and a child is one instance), moving consumers are the subset with a
// move, a provider refresh replaces its consumers, and the cached view is rebuilt when they change.
// numMovesIn: the moving consumers whose recorded source allocations are on no provider of the tree.
import { CapacityIndex } from '../../../src/placement/allocation-candidates/capacity-index';
import type { IndexRows } from '../../../src/placement/allocation-candidates/index-rows';
import { HostViewCache } from '../../../src/scheduler/state/host-view-cache';
import { provider, uuid } from './index-fixtures';

const inv = (providerId: number) => ({
  providerId,
  resourceClass: 'VCPU',
  total: 8,
  reserved: 0,
  minUnit: 1,
  maxUnit: 8,
  stepSize: 1,
  allocationRatio: 1,
  used: 0,
});

function rows(consumers: IndexRows['consumers']): IndexRows {
  return {
    providers: [provider(1), provider(2, 1), provider(3, 1), provider(4)],
    inventories: [inv(1), inv(2), inv(3), inv(4)],
    traits: [],
    aggregates: [],
    consumers,
  };
}

const requests = new Map([uuid(1), uuid(4)].map((r): [string, never[]] => [r, []]));

function counts(index: CapacityIndex, cache = new HostViewCache()) {
  return cache.views(index, [], requests).map((v) => [v.numInstances, v.numIoOps]);
}

describe('host consumer counts', () => {
  it('counts distinct consumers over the tree and the moving ones among them', () => {
    const index = CapacityIndex.fromRows(
      rows([
        { providerId: 1, consumerIds: [10, 11], movingIds: [11] },
        { providerId: 2, consumerIds: [10, 12], movingIds: [] },
        { providerId: 3, consumerIds: [11], movingIds: [11] },
        { providerId: 4, consumerIds: [20], movingIds: [] },
      ]),
    );
    expect(counts(index)).toEqual([
      [3, 1],
      [1, 0],
    ]);
  });

  it('tells the moves that arrived from those that started on the tree', () => {
    const index = CapacityIndex.fromRows(
      rows([
        // 11 moves from host 4 to child 2 of host 1; 12 moves within host 1 (root to child 3);
        // 13 moves from host 1 (root) to host 4; 10 does not move.
        { providerId: 1, consumerIds: [10, 12, 13], movingIds: [12, 13], movingFromIds: [12, 13] },
        { providerId: 2, consumerIds: [11], movingIds: [11], movingFromIds: [] },
        { providerId: 3, consumerIds: [12], movingIds: [12], movingFromIds: [] },
        { providerId: 4, consumerIds: [11, 13], movingIds: [11, 13], movingFromIds: [11] },
      ]),
    );
    const views = new HostViewCache().views(index, [], requests);
    expect(views.map((v) => [v.numInstances, v.numIoOps, v.numMovesIn])).toEqual([
      [4, 3, 1],
      [2, 2, 1],
    ]);
  });

  it('reads moves without a direction as started on the tree', () => {
    const index = CapacityIndex.fromRows(
      rows([{ providerId: 2, consumerIds: [10], movingIds: [10] }]),
    );
    expect(new HostViewCache().views(index, [], requests).map((v) => v.numMovesIn)).toEqual([0, 0]);
  });

  it('counts 0 without consumer rows', () => {
    expect(counts(CapacityIndex.fromRows(rows(undefined)))).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('replaces the consumers of refreshed providers and rebuilds the cached view', () => {
    const index = CapacityIndex.fromRows(
      rows([
        { providerId: 2, consumerIds: [10], movingIds: [10] },
        { providerId: 4, consumerIds: [20], movingIds: [] },
      ]),
    );
    const cache = new HostViewCache();
    expect(counts(index, cache)).toEqual([
      [1, 1],
      [1, 0],
    ]);
    // Consumer 10 confirmed its move away from provider 2; provider 4 is not refreshed.
    index.refreshProviders([2], rows([]));
    expect(counts(index, cache)).toEqual([
      [0, 0],
      [1, 0],
    ]);
    index.refreshProviders([3], rows([{ providerId: 3, consumerIds: [30, 31], movingIds: [31] }]));
    expect(counts(index, cache)).toEqual([
      [2, 1],
      [1, 0],
    ]);
  });
});
