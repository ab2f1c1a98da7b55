// Table tests for DiskWeigher (after nova/tests/unit/scheduler/weights/test_weights_disk.py): the raw
// weight is Nova's free disk (total - reserved - used, no allocation ratio; GB), minval 0.
import {
  buildHostView,
  buildRequestSpec,
  type InventoryInput,
} from '../../src/scheduler/plugin-testing';
import { buildPlugin } from '../../test/support/plugin';
import { create, MULTIPLIER_KEY, NAME } from './index';

const make = (config: Record<string, unknown> = {}) => buildPlugin(create, NAME, config);

describe(NAME, () => {
  it.each<{ name: string; inv: InventoryInput | undefined; want: number }>([
    { name: 'free capacity', inv: { total: 100, used: 40 }, want: 60 },
    {
      name: 'reserved subtracted, allocation ratio ignored (free_disk_mb)',
      inv: { total: 100, reserved: 20, allocationRatio: 4, used: 30 },
      want: 50,
    },
    {
      name: 'overcommitted weighs negative (clamped by minval)',
      inv: { total: 100, used: 150 },
      want: -50,
    },
    { name: 'no inventory weighs 0', inv: undefined, want: 0 },
  ])('weighs $name', ({ inv, want }) => {
    const host = buildHostView({
      providers: [{ uuid: 'cn1', inventories: inv ? { DISK_GB: inv, OTHER: 7 } : { OTHER: 7 } }],
    });
    expect(make().weigh(host, buildRequestSpec(), undefined)).toBe(want);
  });

  it("declares Nova's minval 0", () => {
    expect(make().minval).toBe(0);
    expect(make().maxval).toBeUndefined();
  });

  it('defaults the multiplier to 1, reads it from config and names its aggregate key', () => {
    expect(make().multiplier).toBe(1);
    expect(make({ multiplier: -1.5 }).multiplier).toBe(-1.5);
    expect(make().multiplierMetadataKey).toBe(MULTIPLIER_KEY);
    expect(MULTIPLIER_KEY).toBe('disk_weight_multiplier');
  });

  it('rejects a non-numeric multiplier at start-up', () => {
    expect(() => make({ multiplier: null })).toThrow(
      `${NAME}: config "multiplier" must be a finite number`,
    );
  });
});
