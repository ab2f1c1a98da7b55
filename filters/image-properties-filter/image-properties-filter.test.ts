// Table tests for ImagePropertiesFilter (after nova/tests/unit/scheduler/filters/
// test_image_props_filters.py; Nova's supported_instance tuples become root traits here, and the
// hypervisor-version cases have no counterpart).
import { buildHostView, buildRequestSpec } from '../../src/scheduler/helpers';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { create, NAME, REASON_UNSUPPORTED } from './index';

const plugin = buildPlugin(create, NAME);

/** Nova's (arch, hv_type, vm_mode) tuple as berth's root traits. */
const supports = (arch: string, hv: string, mode: string) => [
  `HW_ARCH_${arch.toUpperCase()}`,
  `CUSTOM_HYPERVISOR_${hv.toUpperCase()}`,
  `CUSTOM_VM_MODE_${mode.toUpperCase()}`,
];

interface Case {
  readonly name: string;
  readonly image: Record<string, string>;
  readonly traits: string[];
  readonly want: boolean;
}

describe(NAME, () => {
  it.each<Case>([
    {
      name: 'passes same inst props',
      image: { hw_architecture: 'x86_64', img_hv_type: 'kvm', hw_vm_mode: 'hvm' },
      traits: supports('x86_64', 'kvm', 'hvm'),
      want: true,
    },
    {
      name: 'fails different inst props',
      image: { hw_architecture: 'armv7l', img_hv_type: 'qemu', hw_vm_mode: 'hvm' },
      traits: supports('x86_64', 'kvm', 'hvm'),
      want: false,
    },
    {
      name: 'passes partial inst props',
      image: { hw_architecture: 'x86_64', hw_vm_mode: 'hvm' },
      traits: supports('x86_64', 'kvm', 'hvm'),
      want: true,
    },
    {
      name: 'fails partial inst props',
      image: { hw_architecture: 'x86_64', hw_vm_mode: 'hvm' },
      traits: supports('x86_64', 'xen', 'xen'),
      want: false,
    },
    { name: 'passes without inst props', image: {}, traits: [], want: true },
    {
      name: 'fails without host props',
      image: { hw_architecture: 'x86_64', img_hv_type: 'kvm', hw_vm_mode: 'hvm' },
      traits: [],
      want: false,
    },
    {
      name: 'pv mode compat',
      image: { hw_vm_mode: 'pv' },
      traits: supports('x86_64', 'xen', 'xen'),
      want: true,
    },
    {
      name: 'hvm mode compat',
      image: { hw_vm_mode: 'hv' },
      traits: supports('x86_64', 'kvm', 'hvm'),
      want: true,
    },
    {
      name: 'xen arch compat',
      image: { hw_architecture: 'i386' },
      traits: supports('i686', 'kvm', 'hvm'),
      want: true,
    },
    {
      name: 'amd64 arch compat',
      image: { hw_architecture: 'amd64' },
      traits: supports('x86_64', 'kvm', 'hvm'),
      want: true,
    },
    {
      name: 'xen hv type compat',
      image: { img_hv_type: 'xapi' },
      traits: supports('i686', 'xen', 'hvm'),
      want: true,
    },
    {
      name: 'baremetal vmmode compat',
      image: { hw_vm_mode: 'baremetal' },
      traits: supports('x86_64', 'baremetal', 'hvm'),
      want: true,
    },
    {
      name: 'legacy property names',
      image: { architecture: 'x86_64', hypervisor_type: 'kvm', vm_mode: 'hvm' },
      traits: supports('x86_64', 'kvm', 'hvm'),
      want: true,
    },
    {
      name: 'legacy property names fail too',
      image: { architecture: 'aarch64' },
      traits: supports('x86_64', 'kvm', 'hvm'),
      want: false,
    },
    {
      name: 'values are case-insensitive',
      image: { hw_architecture: 'X86_64', img_hv_type: 'KVM' },
      traits: supports('x86_64', 'kvm', 'hvm'),
      want: true,
    },
  ])('$name', ({ image, traits, want }) => {
    const host = buildHostView({
      providers: [
        { uuid: 'cn1', name: 'compute-1', traits },
        { uuid: 'numa0', parentUuid: 'cn1', traits: ['HW_ARCH_AARCH64'] },
      ],
    });
    const extraSpecs = Object.fromEntries(Object.entries(image).map(([k, v]) => [`image:${k}`, v]));
    const verdict = verdictOf(plugin, host, buildRequestSpec({ extraSpecs }));
    expect(verdict.fits).toBe(want);
    if (!verdict.fits) {
      expect(verdict.reason).toMatch(
        new RegExp(`^${REASON_UNSUPPORTED}: \\w+=\\S+ needs root trait [A-Z0-9_]+ on compute-1$`),
      );
    }
  });

  it('ignores unscoped keys (those belong to AggregateInstanceExtraSpecsFilter)', () => {
    const host = buildHostView({ providers: [{ uuid: 'cn1' }] });
    const req = buildRequestSpec({ extraSpecs: { hw_architecture: 'x86_64' } });
    expect(verdictOf(plugin, host, req)).toEqual({ fits: true });
  });

  it('names the missing trait', () => {
    const host = buildHostView({ providers: [{ uuid: 'cn1', name: 'compute-1' }] });
    const req = buildRequestSpec({ extraSpecs: { 'image:hw_architecture': 'amd64' } });
    expect(verdictOf(plugin, host, req)).toEqual({
      fits: false,
      reason: `${REASON_UNSUPPORTED}: hw_architecture=amd64 needs root trait HW_ARCH_X86_64 on compute-1`,
    });
  });
});
