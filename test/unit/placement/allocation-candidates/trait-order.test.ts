// The order of a provider's traits in allocation-candidate summaries: `traits` table id order
// (Placement's order where its database reads resource_provider_traits by index), names for
// traits whose id the rows did not carry.
import { CapacityIndex } from '../../../../src/placement/allocation-candidates/capacity-index';
import { summarize } from '../../../../src/placement/allocation-candidates/results';

const providers = [{ id: 1, uuid: 'rp1', name: 'rp1', generation: 0, parentId: null, rootId: 1 }];

describe('provider summary trait order', () => {
  it('lists traits by their id in the traits table', () => {
    const index = CapacityIndex.fromRows({
      providers,
      inventories: [],
      aggregates: [],
      traits: [
        { providerId: 1, trait: 'CUSTOM_FOO', traitId: 300 },
        { providerId: 1, trait: 'HW_NUMA_ROOT', traitId: 193 },
        { providerId: 1, trait: 'CUSTOM_ALPHA', traitId: 302 },
        { providerId: 1, trait: 'CUSTOM_ZED', traitId: 301 },
      ],
    });
    expect(summarize(index, index.slotOfId(1)).traits).toEqual([
      'HW_NUMA_ROOT',
      'CUSTOM_FOO',
      'CUSTOM_ZED',
      'CUSTOM_ALPHA',
    ]);
  });

  it('keeps the order across a refresh, and puts traits without an id last, by name', () => {
    const index = CapacityIndex.fromRows({
      providers,
      inventories: [],
      aggregates: [],
      traits: [],
    });
    index.refreshProviders([1], {
      providers,
      inventories: [],
      aggregates: [],
      traits: [
        { providerId: 1, trait: 'B_NO_ID' },
        { providerId: 1, trait: 'Z_TRAIT', traitId: 5 },
        { providerId: 1, trait: 'A_NO_ID' },
        { providerId: 1, trait: 'A_TRAIT', traitId: 9 },
      ],
    });
    expect(summarize(index, index.slotOfId(1)).traits).toEqual([
      'Z_TRAIT',
      'A_TRAIT',
      'A_NO_ID',
      'B_NO_ID',
    ]);
  });
});
