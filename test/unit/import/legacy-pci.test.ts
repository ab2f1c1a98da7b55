// PCI capacity from pci_devices rows or pci_stats pools (seed 001 step 4c).
import { pciFromDevices, pciFromStats } from '../../../src/import/legacy-pci';

describe('pciFromDevices', () => {
  it('counts available, claimed and allocated devices per class and notes the rest', () => {
    const got = pciFromDevices([
      { dev_type: 'type-VF', status: 'available' },
      { dev_type: 'type-VF', status: 'claimed' },
      { dev_type: 'type-VF', status: 'allocated' },
      { dev_type: 'type-VF', status: 'unavailable' },
      { dev_type: 'type-VDPA', status: 'available' },
      { dev_type: 'type-PCI', status: 'available', deleted: '0' },
    ]);
    expect(Object.fromEntries(got.totals)).toEqual({ SRIOV_NET_VF: 3, PCI_DEVICE: 1 });
    expect(got.notes).toEqual([
      '1 PCI device(s) not counted: status unavailable',
      '1 PCI device(s) not counted: dev_type type-VDPA has no resource class',
    ]);
  });
});

describe('pciFromStats', () => {
  it.each([
    { name: 'NULL', raw: null, want: {} },
    { name: 'an empty string', raw: '', want: {} },
    {
      name: 'a plain list with dev_type on the pool',
      raw: [{ count: 5, dev_type: 'type-PF' }],
      want: { CUSTOM_SRIOV_NET_PF: 5 },
    },
    {
      name: 'a pool without dev_type (type-PCI)',
      raw: '[{"count": 2, "vendor_id": "8086"}]',
      want: { PCI_DEVICE: 2 },
    },
  ])('reads $name', ({ raw, want }) => {
    expect(Object.fromEntries(pciFromStats(raw).totals)).toEqual(want);
  });

  it('says the totals come from free counts', () => {
    expect(pciFromStats([{ count: 1, dev_type: 'type-VF' }]).notes).toEqual([
      'PCI totals from pci_stats (free devices at the last report; no pci_devices table)',
    ]);
  });

  it.each([
    { raw: '[{"count": -1}]', msg: /non-negative integer count/ },
    { raw: '[{"count": "x"}]', msg: /non-negative integer count/ },
    { raw: '42', msg: /neither/ },
  ])('rejects $raw', ({ raw, msg }) => {
    expect(() => pciFromStats(raw)).toThrow(msg);
  });
});
