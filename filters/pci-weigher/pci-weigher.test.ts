// Table tests for PCIWeigher (after nova/tests/unit/scheduler/weights/test_weights_pci.py): fewer
// free PCI devices weigh more, capped at MAX_DEVS; devices are free units of PCI resource classes.

import type { HostView } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPipeline, createRegistry } from '../../src/scheduler/runtime/registry';
import { buildPlugin, runPipeline } from '../../test/support/plugin';
import * as weigher from './index';

const { create, MULTIPLIER_KEY, NAME } = weigher;

/** A host whose PCI pools are child providers with `counts` free CUSTOM_PCI_8086_1572 each. */
function host(name: string, counts: number[], metadata?: Record<string, string>): HostView {
  return buildHostView({
    providers: [
      { uuid: name, name, inventories: { VCPU: 8 } },
      ...counts.map((c, i) => ({
        uuid: `${name}-pf${i}`,
        parentUuid: name,
        inventories: { CUSTOM_PCI_8086_1572: { total: c + 1, used: 1 } },
      })),
    ],
    aggregates: metadata === undefined ? [] : [{ uuid: 'agg', metadata }],
  });
}

async function rank(hosts: HostView[], config: Record<string, unknown> = {}) {
  const pipeline = buildPipeline(createRegistry([weigher]), {
    enabledFilters: [],
    enabledWeighers: [NAME],
    plugins: { [NAME]: config },
  });
  return (await runPipeline(pipeline, hosts, buildRequestSpec())).hosts;
}

describe(NAME, () => {
  it.each<[string, [string, number[]][], Record<string, unknown>, string | null, number]>([
    [
      'no PCI request, empty host wins',
      [
        ['host1', [3, 1]],
        ['host2', []],
      ],
      {},
      'host2',
      1,
    ],
    [
      'no PCI request, fewest devices win',
      [
        ['host1', [2, 2, 2]],
        ['host2', [3, 1]],
      ],
      {},
      'host2',
      1,
    ],
    [
      'fewest free devices win',
      [
        ['host1', [4, 1]],
        ['host2', [10]],
        ['host3', [1, 1, 1, 1]],
      ],
      {},
      'host3',
      1,
    ],
    [
      'many devices weigh the same',
      [
        ['host1', [500]],
        ['host2', [2000]],
      ],
      {},
      null,
      0,
    ],
    [
      'a 0 multiplier disables it',
      [
        ['host1', [4, 1]],
        ['host2', [10]],
        ['host3', [1, 1, 1, 1]],
      ],
      { multiplier: 0 },
      null,
      0,
    ],
  ])('%s', async (_name, specs, config, winner, weight) => {
    const ranked = await rank(
      specs.map(([n, c]) => host(n, c)),
      config,
    );
    if (winner !== null) {
      expect(ranked[0]!.host.name).toBe(winner);
    }
    expect(ranked[0]!.weight).toBe(weight);
  });

  it('reads the multiplier from aggregates (Nova test_host_with_agg)', async () => {
    const meta = { [MULTIPLIER_KEY]: '1.5' };
    const ranked = await rank([host('host1', [2, 2, 2], meta), host('host2', [3, 1], meta)], {
      multiplier: 0,
    });
    expect(ranked[0]!.host.name).toBe('host2');
    expect(ranked[0]!.weight).toBe(1.5);
  });

  it.each<
    [string, Record<string, number | { total: number; used?: number; reserved?: number }>, number]
  >([
    ['no PCI inventory', { VCPU: 8 }, 100],
    ['free PCI_DEVICE and VFs', { PCI_DEVICE: 2, SRIOV_NET_VF: { total: 8, used: 3 } }, 93],
    ['a PF class from the importer', { CUSTOM_SRIOV_NET_PF: 1 }, 99],
    ['reserved units are not free', { PCI_DEVICE: { total: 4, reserved: 4 } }, 100],
    ['over-used counts as none free', { PCI_DEVICE: { total: 1, used: 2 } }, 100],
    ['other custom classes do not count', { CUSTOM_GPU: 4 }, 100],
    ['at most MAX_DEVS - 1 count', { PCI_DEVICE: 250 }, 1],
  ])('weighs a host with %s', (_name, inventories, want) => {
    const h = buildHostView({ providers: [{ uuid: 'h', inventories }] });
    expect(buildPlugin(create, NAME).weigh(h, buildRequestSpec(), undefined)).toBe(want);
  });

  it('counts only the configured classes', () => {
    const h = buildHostView({
      providers: [{ uuid: 'h', inventories: { CUSTOM_GPU: 4, PCI_DEVICE: 2 } }],
    });
    const w = buildPlugin(create, NAME, { resourceClasses: ['CUSTOM_G*'] });
    expect(w.weigh(h, buildRequestSpec(), undefined)).toBe(96);
  });

  it('defaults the multiplier to 1 and names its aggregate key', () => {
    const w = buildPlugin(create, NAME);
    expect(w.multiplier).toBe(1);
    expect(w.multiplierMetadataKey).toBe('pci_weight_multiplier');
  });

  it.each([
    [{ multiplier: -1 }, 'multiplier'],
    [{ multiplier: 'x' }, 'multiplier'],
    [{ resourceClasses: ['pci'] }, 'resourceClasses'],
    [{ resourceClasses: [''] }, 'resourceClasses'],
  ])('rejects %j at start-up', (config, key) => {
    expect(() => buildPlugin(create, NAME, config)).toThrow(`${NAME}: config "${key}"`);
  });
});
