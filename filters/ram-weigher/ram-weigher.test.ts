// Table tests for RAMWeigher (after nova/tests/unit/scheduler/weights/test_weights_ram.py): the raw
// weight is Nova's free_ram_mb (total - reserved - used, no allocation ratio), minval 0.
import {
  buildHostView,
  buildRequestSpec,
  type InventoryInput,
} from '../../src/scheduler/plugin-testing';
import { createPipeline } from '../../src/scheduler/runtime/pipeline';
import { buildPlugin, runPipeline } from '../../test/support/plugin';
import { create, MULTIPLIER_KEY, NAME } from './index';

const make = (config: Record<string, unknown> = {}) => buildPlugin(create, NAME, config);

describe(NAME, () => {
  it.each<{ name: string; root: InventoryInput | undefined; child?: InventoryInput; want: number }>(
    [
      { name: 'free memory of the root', root: { total: 4096, used: 1024 }, want: 3072 },
      {
        name: 'reserved subtracted, allocation ratio ignored (free_ram_mb)',
        root: { total: 4096, reserved: 96, allocationRatio: 1.5, used: 1000 },
        want: 3000,
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

  it("declares Nova's minval 0", () => {
    expect(make().minval).toBe(0);
    expect(make().maxval).toBeUndefined();
  });

  // test_default_of_spreading_first, test_ram_filter_multiplier1/2, test_ram_filter_negative,
  // test_host_with_agg: free_ram_mb 512 / 1024 / 3072 / 8192 (and -512).
  it.each<{
    name: string;
    config: Record<string, unknown>;
    agg?: string;
    want: [string, number][];
  }>([
    {
      name: 'spreads by default',
      config: {},
      want: [
        ['host4', 1],
        ['host3', 0.375],
        ['host2', 0.125],
        ['host1', 0.0625],
        ['negative', 0],
      ],
    },
    {
      name: 'multiplier 0: every host weighs 0',
      config: { multiplier: 0 },
      want: [
        ['host1', 0],
        ['host2', 0],
        ['host3', 0],
        ['host4', 0],
        ['negative', 0],
      ],
    },
    {
      name: 'multiplier 2',
      config: { multiplier: 2 },
      want: [
        ['host4', 2],
        ['host3', 0.75],
        ['host2', 0.25],
        ['host1', 0.125],
        ['negative', 0],
      ],
    },
    {
      name: 'an aggregate multiplier 1.5 overrides -1',
      config: { multiplier: -1 },
      agg: '1.5',
      want: [
        ['host4', 1.5],
        ['host3', 0.5625],
        ['host2', 0.1875],
        ['host1', 0.09375],
        ['negative', 0],
      ],
    },
  ])('weighs like Nova: $name', async ({ config, agg, want }) => {
    const free: [string, number][] = [
      ['host1', 512],
      ['host2', 1024],
      ['host3', 3072],
      ['host4', 8192],
      ['negative', -512],
    ];
    const hosts = free.map(([uuid, mb]) =>
      buildHostView({
        providers: [{ uuid, inventories: { MEMORY_MB: { total: 8192, used: 8192 - mb } } }],
        aggregates: agg === undefined ? [] : [{ uuid: 'a', metadata: { [MULTIPLIER_KEY]: agg } }],
      }),
    );
    const pipeline = createPipeline({ filters: [], weighers: [make(config)] });
    const result = await runPipeline(pipeline, hosts, buildRequestSpec());
    const got = Object.fromEntries(result.hosts.map((r) => [r.host.uuid, r.weight]));
    expect(Object.fromEntries(want)).toEqual(got);
    if (want[0]![1] !== 0) {
      expect(result.hosts.map((r) => r.host.uuid)).toEqual(want.map(([h]) => h));
    }
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
