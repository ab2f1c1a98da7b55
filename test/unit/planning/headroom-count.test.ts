// The analytic count of a flat host (src/planning/headroom-hosts.ts flatEngineCount): min over
// the classes of the free capacity — floor((total - reserved) × ratio) - used — divided by the
// amount, 0 with `candidate.resource.units` when an amount is outside min_unit, max_unit or
// step_size; and, for generated inventories (seeded), the same number as placing one instance
// at a time on an overlay until the engine no longer offers the host.
import { DemoRandom } from '../../../src/demo/random';
import { CapacityIndex } from '../../../src/placement/allocation-candidates/capacity-index';
import { findAllocationCandidates } from '../../../src/placement/allocation-candidates/find-allocation-candidates';
import {
  applyOverlay,
  overlayIndex,
} from '../../../src/placement/allocation-candidates/index-overlay';
import { emptyRequestGroup } from '../../../src/placement/allocation-candidates/request';
import { flatEngineCount } from '../../../src/planning/headroom-hosts';
import { provider, uuid } from '../scheduler/index-fixtures';

interface Inv {
  resourceClass: string;
  total: number;
  reserved?: number;
  minUnit?: number;
  maxUnit?: number;
  stepSize?: number;
  allocationRatio?: number;
  used?: number;
}

function host(invs: readonly Inv[]): CapacityIndex {
  return CapacityIndex.fromRows({
    providers: [provider(1)],
    inventories: invs.map((i) => ({
      providerId: 1,
      resourceClass: i.resourceClass,
      total: i.total,
      reserved: i.reserved ?? 0,
      minUnit: i.minUnit ?? 1,
      maxUnit: i.maxUnit ?? i.total,
      stepSize: i.stepSize ?? 1,
      allocationRatio: i.allocationRatio ?? 1,
      used: i.used ?? 0,
    })),
    traits: [],
    aggregates: [],
  });
}

const count = (index: CapacityIndex, amounts: Record<string, number>) =>
  flatEngineCount(index, index.slotOfUuid(uuid(1)), amounts);

describe('flatEngineCount', () => {
  it('divides the free capacity by the amount, the smallest class ending it', () => {
    const index = host([
      { resourceClass: 'VCPU', total: 16 },
      { resourceClass: 'MEMORY_MB', total: 8192 },
    ]);
    expect(count(index, { VCPU: 2, MEMORY_MB: 2048 })).toEqual({ count: 4, limit: 'MEMORY_MB' });
    expect(count(index, { VCPU: 5, MEMORY_MB: 1024 })).toEqual({ count: 3, limit: 'VCPU' });
  });

  it('takes reserved, the allocation ratio (floored) and usage into account', () => {
    const index = host([
      { resourceClass: 'VCPU', total: 10, reserved: 2, allocationRatio: 1.5, used: 3 },
    ]);
    // floor((10 - 2) × 1.5) = 12, 9 free.
    expect(count(index, { VCPU: 2 })).toEqual({ count: 4, limit: 'VCPU' });
    expect(count(index, { VCPU: 9 })).toEqual({ count: 1, limit: 'VCPU' });
    expect(count(index, { VCPU: 10 })).toEqual({ count: 0, limit: 'VCPU' });
  });

  it('counts 0 over capacity, and 0 by units outside min_unit, max_unit or step_size', () => {
    expect(count(host([{ resourceClass: 'VCPU', total: 4, used: 6 }]), { VCPU: 1 })).toEqual({
      count: 0,
      limit: 'VCPU',
    });
    const units = host([{ resourceClass: 'VCPU', total: 32, minUnit: 2, maxUnit: 8, stepSize: 2 }]);
    expect(count(units, { VCPU: 1 }).limit).toBe('candidate.resource.units');
    expect(count(units, { VCPU: 3 })).toEqual({ count: 0, limit: 'candidate.resource.units' });
    expect(count(units, { VCPU: 10 })).toEqual({ count: 0, limit: 'candidate.resource.units' });
    expect(count(units, { VCPU: 8 })).toEqual({ count: 4, limit: 'VCPU' });
  });

  it('counts 0 for a class the host has no inventory of', () => {
    expect(count(host([{ resourceClass: 'VCPU', total: 4 }]), { VCPU: 1, DISK_GB: 1 })).toEqual({
      count: 0,
      limit: 'candidate.resource.capacity',
    });
  });

  it('equals placing one instance at a time until the engine stops offering the host', () => {
    const seed = Date.now() % 1_000_000;
    const r = new DemoRandom(seed);
    for (let k = 0; k < 300; k++) {
      const inv = (resourceClass: string, total: number): Inv => ({
        resourceClass,
        total,
        reserved: r.chance(0.3) ? r.int(0, total) : 0,
        allocationRatio: r.pick([1, 1.2, 1.5, 2, 16]),
        minUnit: r.chance(0.2) ? r.int(1, 3) : 1,
        maxUnit: r.chance(0.2) ? r.int(1, total) : total,
        stepSize: r.chance(0.2) ? r.int(1, 4) : 1,
        used: r.chance(0.5) ? r.int(0, total) : 0,
      });
      const index = host([inv('VCPU', r.int(1, 64)), inv('MEMORY_MB', 256 * r.int(1, 64))]);
      const amounts = { VCPU: r.int(1, 6), MEMORY_MB: 256 * r.int(1, 8) };
      const overlay = overlayIndex(index);
      const request = { groups: [{ ...emptyRequestGroup(''), resources: amounts }] };
      let placed = 0;
      while (
        placed < 10_000 &&
        findAllocationCandidates(overlay.index, request).allocationRequests.length > 0
      ) {
        applyOverlay(overlay, { [uuid(1)]: amounts }, -1 - placed, 1);
        placed++;
      }
      const got = count(index, amounts).count;
      if (got !== placed) {
        throw new Error(`seed ${seed}, case ${k}: analytic ${got}, engine ${placed}`);
      }
    }
  });
});
