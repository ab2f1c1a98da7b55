// Table tests for HypervisorVersionWeigher (after nova/tests/unit/scheduler/weights/
// test_weights_hypervisor_version.py): newer hypervisors weigh more; the version comes from a
// root trait.
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPipeline, createRegistry } from '../../src/scheduler/runtime/registry';
import { buildPlugin, runPipeline } from '../../test/support/plugin';
import * as weigher from './index';

const { create, DEFAULT_MULTIPLIER, MULTIPLIER_KEY, NAME } = weigher;
const make = (config: Record<string, unknown> = {}) => buildPlugin(create, NAME, config);
const hostWith = (uuid: string, traits: string[], childTraits: string[] = []) =>
  buildHostView({
    providers: [
      { uuid, traits },
      { uuid: `${uuid}-child`, parentUuid: uuid, traits: childTraits },
    ],
  });

describe(NAME, () => {
  it.each([
    { name: 'the version trait', traits: ['CUSTOM_HYPERVISOR_VERSION_8000000'], want: 8000000 },
    {
      name: 'the highest of several',
      traits: ['CUSTOM_HYPERVISOR_VERSION_1000', 'CUSTOM_HYPERVISOR_VERSION_3000'],
      want: 3000,
    },
    { name: 'no version trait weighs 0', traits: ['HW_CPU_X86_AVX'], want: 0 },
    { name: 'a non-numeric suffix is ignored', traits: ['CUSTOM_HYPERVISOR_VERSION_X'], want: 0 },
    { name: 'the bare prefix is ignored', traits: ['CUSTOM_HYPERVISOR_VERSION_'], want: 0 },
  ])('weighs $name', ({ traits, want }) => {
    expect(make().weigh(hostWith('cn1', traits), buildRequestSpec(), undefined)).toBe(want);
  });

  it('reads the root provider only', () => {
    const host = hostWith('cn1', [], ['CUSTOM_HYPERVISOR_VERSION_5']);
    expect(make().weigh(host, buildRequestSpec(), undefined)).toBe(0);
  });

  it('reads a configured prefix', () => {
    const host = hostWith('cn1', ['CUSTOM_HV_VER_42', 'CUSTOM_HYPERVISOR_VERSION_7']);
    expect(make({ traitPrefix: 'CUSTOM_HV_VER_' }).weigh(host, buildRequestSpec(), undefined)).toBe(
      42,
    );
  });

  it.each([
    [1, ['host4', 'host3', 'host2', 'host1']],
    [-1, ['host1', 'host2', 'host3', 'host4']],
  ])('with multiplier %p ranks hosts by version', async (multiplier, order) => {
    const registry = createRegistry([weigher]);
    const pipeline = buildPipeline(registry, {
      enabledFilters: [],
      enabledWeighers: [NAME],
      plugins: { [NAME]: { multiplier } },
    });
    const hosts = [1000, 2000, 3000, 4000].map((v, i) =>
      hostWith(`host${i + 1}`, [`CUSTOM_HYPERVISOR_VERSION_${v}`]),
    );
    const result = await runPipeline(pipeline, hosts, buildRequestSpec());
    expect(result.hosts.map((r) => r.host.uuid)).toEqual(order);
  });

  it('defaults the multiplier to 1 and names its aggregate key', () => {
    expect(DEFAULT_MULTIPLIER).toBe(1);
    expect(make().multiplier).toBe(1);
    expect(MULTIPLIER_KEY).toBe('hypervisor_version_weight_multiplier');
  });

  it.each([['custom_x'], ['HW_'], [3]])('rejects traitPrefix %p at start-up', (traitPrefix) => {
    expect(() => make({ traitPrefix })).toThrow(`${NAME}: config "traitPrefix"`);
  });
});
