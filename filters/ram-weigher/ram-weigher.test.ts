// Table tests for RAMWeigher (after nova/tests/unit/scheduler/weights/test_weights_ram.py).
import { buildHostView, buildRequestSpec, type InventoryInput } from '../../src/scheduler/helpers';
import { buildPlugin } from '../../test/support/plugin';
import { create, MULTIPLIER_KEY, NAME } from './index';

const make = (config: Record<string, unknown> = {}) => buildPlugin(create, NAME, config);

describe(NAME, () => {
  it.each<{ name: string; root: InventoryInput | undefined; child?: InventoryInput; want: number }>(
    [
      { name: 'free memory of the root', root: { total: 4096, used: 1024 }, want: 3072 },
      {
        name: 'reserved and ratio applied',
        root: { total: 4096, reserved: 96, allocationRatio: 1.5 },
        want: 6000,
      },
      {
        name: 'summed over the tree',
        root: { total: 1024 },
        child: { total: 2048, used: 48 },
        want: 3024,
      },
      { name: 'no memory inventory weighs 0', root: undefined, want: 0 },
      { name: 'overcommitted host weighs negative', root: { total: 1024, used: 1536 }, want: -512 },
    ],
  )('weighs $name', ({ root, child, want }) => {
    const host = buildHostView({
      providers: [
        { uuid: 'cn1', ...(root ? { inventories: { MEMORY_MB: root, VCPU: 8 } } : {}) },
        {
          uuid: 'numa0',
          parentUuid: 'cn1',
          ...(child ? { inventories: { MEMORY_MB: child } } : {}),
        },
      ],
    });
    expect(make().weigh(host, buildRequestSpec(), undefined)).toBe(want);
  });

  it('defaults the multiplier to 1 and reads it from config', () => {
    expect(make().multiplier).toBe(1);
    expect(make({ multiplier: -2 }).multiplier).toBe(-2);
  });

  it('lets aggregates override the multiplier through ram_weight_multiplier', () => {
    expect(make().multiplierMetadataKey).toBe(MULTIPLIER_KEY);
    expect(MULTIPLIER_KEY).toBe('ram_weight_multiplier');
  });

  it('rejects a non-numeric multiplier at start-up', () => {
    expect(() => make({ multiplier: 'high' })).toThrow(
      `${NAME}: config "multiplier" must be a finite number`,
    );
  });
});
