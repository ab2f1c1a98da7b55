// Table tests for CPUWeigher (after nova/tests/unit/scheduler/weights/test_weights_cpu.py): the raw
// weight is vcpus_total * cpu_allocation_ratio - vcpus_used, where vcpus_used starts at the
// reserved vCPUs (total * ratio - reserved - used), minval 0.
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
  it.each<{ name: string; inv: InventoryInput | undefined; want: number }>([
    { name: 'free capacity', inv: { total: 100, used: 40 }, want: 60 },
    {
      name: 'ratio applied to the total, reserved not multiplied',
      inv: { total: 100, reserved: 20, allocationRatio: 4, used: 30 },
      want: 350,
    },
    { name: 'overcommitted weighs negative', inv: { total: 8, used: 10 }, want: -2 },
    { name: 'no inventory weighs 0', inv: undefined, want: 0 },
  ])('weighs $name', ({ inv, want }) => {
    const host = buildHostView({
      providers: [{ uuid: 'cn1', inventories: inv ? { VCPU: inv, OTHER: 7 } : { OTHER: 7 } }],
    });
    expect(make().weigh(host, buildRequestSpec(), undefined)).toBe(want);
  });

  it("declares Nova's minval 0", () => {
    expect(make().minval).toBe(0);
  });

  // Real Nova 26 CPUWeigher on vcpus_total 100 / used 20 / ratio 4 and 10 / 0 / 1: 1.0, 10/380.
  it('weighs like Nova through the pipeline', async () => {
    const hosts = [
      buildHostView({
        providers: [
          { uuid: 'a', inventories: { VCPU: { total: 100, reserved: 20, allocationRatio: 4 } } },
        ],
      }),
      buildHostView({ providers: [{ uuid: 'b', inventories: { VCPU: 10 } }] }),
    ];
    const result = await runPipeline(
      createPipeline({ filters: [], weighers: [make()] }),
      hosts,
      buildRequestSpec(),
    );
    expect(result.hosts.map((r) => [r.host.uuid, r.weight])).toEqual([
      ['a', 1],
      ['b', 10 / 380],
    ]);
  });

  it('defaults the multiplier to 1, reads it from config and names its aggregate key', () => {
    expect(make().multiplier).toBe(1);
    expect(make({ multiplier: -1.5 }).multiplier).toBe(-1.5);
    expect(make().multiplierMetadataKey).toBe(MULTIPLIER_KEY);
    expect(MULTIPLIER_KEY).toBe('cpu_weight_multiplier');
  });

  it('rejects a non-numeric multiplier at start-up', () => {
    expect(() => make({ multiplier: null })).toThrow(
      `${NAME}: config "multiplier" must be a finite number`,
    );
  });
});
