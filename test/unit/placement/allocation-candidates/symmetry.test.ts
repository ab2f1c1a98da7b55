// Identical children must not multiply the search: Placement returns every permutation of
// interchangeable providers (itertools.product + filters); the engine returns the same set
// lazily and prunes symmetric dead ends (berth-specific).
import { CapacityIndex } from '../../../../src/placement/allocation-candidates/capacity-index';
import { findAllocationCandidates } from '../../../../src/placement/allocation-candidates/find-allocation-candidates';
import type {
  IndexInventoryRow,
  ProviderRow,
} from '../../../../src/placement/allocation-candidates/index-rows';
import type { CandidateRequest } from '../../../../src/placement/allocation-candidates/request';
import { canonical } from './helpers';

function host(children: number, perChild: number, hosts = 1): CapacityIndex {
  const providers: ProviderRow[] = [];
  const inventories: IndexInventoryRow[] = [];
  let id = 0;
  for (let h = 0; h < hosts; h++) {
    const root = ++id;
    providers.push({
      id: root,
      uuid: `cn${h}`,
      name: `cn${h}`,
      generation: 0,
      parentId: null,
      rootId: root,
    });
    for (let c = 0; c < children; c++) {
      const child = ++id;
      providers.push({
        id: child,
        uuid: `cn${h}-pci${c}`,
        name: `pci${c}`,
        generation: 0,
        parentId: root,
        rootId: root,
      });
      inventories.push({
        providerId: child,
        resourceClass: 'PCI_DEVICE',
        total: perChild,
        reserved: 0,
        minUnit: 1,
        maxUnit: perChild,
        stepSize: 1,
        allocationRatio: 1,
        used: 0,
      });
    }
  }
  return CapacityIndex.fromRows({ providers, inventories, traits: [], aggregates: [] });
}

function groups(
  n: number,
  amount: number,
  groupPolicy: 'none' | 'isolate',
  limit?: number,
): CandidateRequest {
  return {
    groups: Array.from({ length: n }, (_, i) => ({
      suffix: `${i + 1}`,
      resources: { PCI_DEVICE: amount },
      requiredTraits: [],
      forbiddenTraits: [],
      memberOf: [],
      forbiddenAggregates: [],
    })),
    groupPolicy,
    limit,
  };
}

describe('identical children', () => {
  it('returns every permutation, as Placement does (6 children, 6 isolated groups: 6! = 720)', () => {
    const r = findAllocationCandidates(host(6, 1), groups(6, 1, 'isolate'));
    expect(r.allocationRequests).toHaveLength(720);
    expect(new Set(r.allocationRequests.map(canonical)).size).toBe(720);
    for (const ar of r.allocationRequests) {
      expect(new Set(Object.values(ar.mappings).flat()).size).toBe(6);
    }
  });

  it('stops at limit for 8 children x 8 isolated groups', () => {
    const started = performance.now();
    const r = findAllocationCandidates(host(8, 1, 50), groups(8, 1, 'isolate', 1000));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(r.allocationRequests).toHaveLength(1000);
    expect(new Set(r.allocationRequests.map(canonical)).size).toBe(1000);
    expect(r.providerSummaries).toHaveLength(9);
  });

  it('rejects more isolated groups than children without searching (matching bound)', () => {
    expect(
      findAllocationCandidates(host(8, 4, 20), groups(9, 1, 'isolate')).allocationRequests,
    ).toHaveLength(0);
  });

  it('prunes symmetric capacity dead ends (12 children of 3, 13 groups of 2, policy none)', () => {
    // Each child holds one group; without symmetry pruning this explores ~12! partial paths per host.
    const started = performance.now();
    const r = findAllocationCandidates(host(12, 3, 5), groups(13, 2, 'none'));
    expect(r.allocationRequests).toHaveLength(0);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('still finds the answers next to a symmetric dead end (12 children, 12 groups: 12! exist)', () => {
    const r = findAllocationCandidates(host(12, 3, 1), groups(12, 2, 'none', 50));
    expect(r.allocationRequests).toHaveLength(50);
  });
});
