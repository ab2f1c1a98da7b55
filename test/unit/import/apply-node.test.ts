// The inventory diff that decides whether an import touches a provider at all (idempotence).
import { diffInventories } from '../../../src/import/apply-node';
import type { InventoryRecord } from '../../../src/placement/types';

const rec = (
  resourceClass: string,
  total: number,
  o: Partial<InventoryRecord> = {},
): InventoryRecord => ({
  resourceProviderId: 1,
  resourceClass,
  total,
  reserved: 0,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: 1,
  capacity: total,
  used: 0,
  updatedAt: new Date(0),
  ...o,
});
const plan = (resourceClass: string, total: number, o: Record<string, number> = {}) => ({
  resourceClass,
  total,
  reserved: 0,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: 1,
  ...o,
});

describe('diffInventories', () => {
  it('is empty when the imported classes already match (usage does not matter)', () => {
    expect(diffInventories([rec('VCPU', 8, { used: 3 })], [plan('VCPU', 8)])).toEqual([]);
  });

  it('ignores classes the importer does not own', () => {
    expect(diffInventories([rec('VCPU', 8), rec('CUSTOM_GOLD', 1)], [plan('VCPU', 8)])).toEqual([]);
  });

  it('lists added, changed and removed imported classes', () => {
    expect(
      diffInventories(
        [rec('VCPU', 8), rec('DISK_GB', 100)],
        [plan('MEMORY_MB', 1024), plan('VCPU', 16, { allocationRatio: 4 })],
      ),
    ).toEqual([
      '+MEMORY_MB total=1024 reserved=0 min_unit=1 max_unit=1024 step_size=1 ratio=1',
      '~VCPU total 8→16, max_unit 8→16, ratio 1→4',
      '-DISK_GB',
    ]);
  });
});
