// Table tests for PciPassthroughFilter (after nova/tests/unit/scheduler/filters/
// test_pci_passthrough_filters.py; Nova's device pools are child-provider inventories here).
import {
  buildHostView,
  buildRequestSpec,
  type ProviderInput,
} from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import {
  ALIAS_KEY,
  CODE_INVALID_REQUEST,
  CODE_NOT_ENOUGH_DEVICES,
  create,
  NAME,
  REASON_INVALID_REQUEST,
  REASON_NOT_ENOUGH_DEVICES,
} from './index';

const NIC = 'CUSTOM_PCI_8086_1572';
const GPU = 'CUSTOM_PCI_10DE_1DB4';
const config = {
  aliases: {
    nic: { resourceClass: NIC },
    'nic-a': { resourceClass: NIC, traits: ['CUSTOM_PHYSNET_A'] },
    gpu: { resourceClass: GPU },
  },
};
const plugin = buildPlugin(create, NAME, config);

const device = (uuid: string, rc: string, total: number, extra: Partial<ProviderInput> = {}) => ({
  uuid,
  parentUuid: 'cn1',
  inventories: { [rc]: total },
  ...extra,
});

interface Case {
  readonly name: string;
  readonly devices: ProviderInput[];
  readonly root?: Record<string, number>;
  readonly alias: string | undefined;
  readonly want: true | string;
}

describe(NAME, () => {
  it.each<Case>([
    { name: 'passes without a PCI request', devices: [], alias: undefined, want: true },
    {
      name: 'passes when the pools support the request',
      devices: [device('pf0', NIC, 2), device('pf1', GPU, 1)],
      alias: 'nic:2,gpu:1',
      want: true,
    },
    {
      name: 'fails when a pool is too small',
      devices: [device('pf0', NIC, 2)],
      alias: 'nic:3',
      want: REASON_NOT_ENOUGH_DEVICES,
    },
    {
      name: 'fails with no pools',
      devices: [],
      alias: 'gpu:1',
      want: REASON_NOT_ENOUGH_DEVICES,
    },
    {
      name: 'free units are summed over several devices',
      devices: [device('pf0', NIC, 1), device('pf1', NIC, 1)],
      alias: 'nic:2',
      want: true,
    },
    {
      name: 'used devices are not free',
      devices: [device('pf0', NIC, 2, { used: { [NIC]: 1 } })],
      alias: 'nic:2',
      want: REASON_NOT_ENOUGH_DEVICES,
    },
    {
      name: 'inventory on the root provider is not a device',
      devices: [],
      root: { [NIC]: 4 },
      alias: 'nic:1',
      want: REASON_NOT_ENOUGH_DEVICES,
    },
    {
      name: 'alias traits select the devices',
      devices: [device('pf0', NIC, 2), device('pf1', NIC, 1, { traits: ['CUSTOM_PHYSNET_A'] })],
      alias: 'nic-a:2',
      want: REASON_NOT_ENOUGH_DEVICES,
    },
    {
      name: 'alias traits satisfied',
      devices: [device('pf1', NIC, 2, { traits: ['CUSTOM_PHYSNET_A'] })],
      alias: 'nic-a:2',
      want: true,
    },
    {
      name: 'the same alias twice adds up',
      devices: [device('pf0', NIC, 2)],
      alias: 'nic:1, nic:2',
      want: REASON_NOT_ENOUGH_DEVICES,
    },
    {
      name: 'an unknown alias is invalid',
      devices: [],
      alias: 'fpga:1',
      want: REASON_INVALID_REQUEST,
    },
    { name: 'a missing count is invalid', devices: [], alias: 'nic', want: REASON_INVALID_REQUEST },
    { name: 'a zero count is invalid', devices: [], alias: 'nic:0', want: REASON_INVALID_REQUEST },
  ])('$name', ({ devices, root, alias, want }) => {
    const host = buildHostView({
      providers: [{ uuid: 'cn1', name: 'compute-1', inventories: root ?? {} }, ...devices],
    });
    const req = buildRequestSpec({ extraSpecs: alias === undefined ? {} : { [ALIAS_KEY]: alias } });
    const verdict = verdictOf(plugin, host, req);
    if (want === true) {
      expect(verdict).toEqual({ fits: true });
    } else {
      expect(verdict.fits).toBe(false);
      expect(!verdict.fits && verdict.reason.startsWith(`${want}: `)).toBe(true);
      expect(!verdict.fits && verdict.code).toBe(
        want === REASON_INVALID_REQUEST ? CODE_INVALID_REQUEST : CODE_NOT_ENOUGH_DEVICES,
      );
    }
  });

  it('names the alias, class, wanted and found', () => {
    const host = buildHostView({
      providers: [{ uuid: 'cn1', name: 'compute-1' }, device('pf0', NIC, 2)],
    });
    const req = buildRequestSpec({ extraSpecs: { [ALIAS_KEY]: 'nic:3' } });
    expect(verdictOf(plugin, host, req)).toEqual({
      fits: false,
      reason: `${REASON_NOT_ENOUGH_DEVICES}: nic wanted 3 ${NIC}, found 2 free`,
      code: 'pci_passthrough.not_enough_devices',
    });
  });

  it.each([
    [{ aliases: [] }],
    [{ aliases: { a: {} } }],
    [{ aliases: { a: { resourceClass: 'lower' } } }],
    [{ aliases: { a: { resourceClass: NIC, traits: 'X' } } }],
  ])('rejects configuration %j at start-up', (bad) => {
    expect(() => buildPlugin(create, NAME, bad)).toThrow(`${NAME}: config "aliases"`);
  });
});
