// HostView.failedBuilds from the capacity index: a host's count is its root provider's
// build_failures row (0 without one), a refresh of the root replaces it (what every replica does
// on the change a build report records), and the cached host view is rebuilt when it changes.
import { CapacityIndex } from '../../../src/placement/allocation-candidates/capacity-index';
import type { IndexRows } from '../../../src/placement/allocation-candidates/index-rows';
import { HostViewCache } from '../../../src/scheduler/state/host-view-cache';
import { provider, uuid } from './index-fixtures';

function rows(buildFailures: IndexRows['buildFailures']): IndexRows {
  return {
    providers: [provider(1), provider(2, 1), provider(3)],
    inventories: [],
    traits: [],
    aggregates: [],
    buildFailures,
  };
}

const requests = new Map([uuid(1), uuid(3)].map((r): [string, never[]] => [r, []]));
const failed = (index: CapacityIndex, cache = new HostViewCache()) =>
  cache.views(index, [], requests).map((v) => v.failedBuilds);

describe('HostView.failedBuilds', () => {
  it("reads the root's count, 0 without a row", () => {
    expect(failed(CapacityIndex.fromRows(rows([{ providerId: 1, failedBuilds: 3 }])))).toEqual([
      3, 0,
    ]);
    expect(failed(CapacityIndex.fromRows(rows(undefined)))).toEqual([0, 0]);
  });

  it('follows a refresh of the root and rebuilds the cached view', () => {
    const index = CapacityIndex.fromRows(rows([]));
    const cache = new HostViewCache();
    expect(failed(index, cache)).toEqual([0, 0]);
    const version = index.version;
    index.refreshProviders([3], rows([{ providerId: 3, failedBuilds: 1 }]));
    expect(index.version).toBeGreaterThan(version);
    expect(failed(index, cache)).toEqual([0, 1]);
    index.refreshProviders([3], rows([]));
    expect(failed(index, cache)).toEqual([0, 0]);
  });
});
