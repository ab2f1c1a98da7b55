// Table tests for ImagePropertiesFilter (after Nova's test_image_props_filters.py: supported_instance
// tuples become root traits, the hypervisor version root trait CUSTOM_HYPERVISOR_VERSION_<n>), Nova's
// canonicalisation and validation of the values (objects/fields.py), image_properties_default_architecture.
import { STANDARD_TRAITS } from '../../src/db/seed';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { createPipeline } from '../../src/scheduler/runtime/pipeline';
import { buildPlugin, runPipeline, verdictOf } from '../../test/support/plugin';
import {
  ARCH_TRAITS,
  CODE_UNSUPPORTED,
  create,
  ERROR_BAD_VERSION,
  NAME,
  REASON_INVALID,
  REASON_UNSUPPORTED,
  REASON_VERSION,
} from './index';

const plugin = buildPlugin(create, NAME);

/** Nova's (arch, hv_type, vm_mode) tuple as berth's root traits. */
const supports = (arch: string, hv: string, mode: string) => [
  ARCH_TRAITS[arch]!,
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
      name: 'armv7l is os-traits HW_ARCH_ARMV7',
      image: { hw_architecture: 'armv7l' },
      traits: supports('armv7l', 'kvm', 'hvm'),
      want: true,
    },
    {
      name: 'x86_32 is i686 (Nova canonicalize)',
      image: { hw_architecture: 'x86_32' },
      traits: supports('i686', 'kvm', 'hvm'),
      want: true,
    },
    {
      name: 'the current name wins over the legacy one',
      image: { hw_architecture: 'x86_64', architecture: 'aarch64' },
      traits: supports('x86_64', 'kvm', 'hvm'),
      want: true,
    },
    {
      name: 'each property on its own: a tuple Nova would not find passes (documented)',
      image: { hw_architecture: 'aarch64', img_hv_type: 'kvm' },
      traits: [...supports('x86_64', 'kvm', 'hvm'), ...supports('aarch64', 'qemu', 'hvm')],
      want: true,
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
      expect(verdict.code).toBe(CODE_UNSUPPORTED);
      expect(verdict.reason).toMatch(
        new RegExp(`^${REASON_UNSUPPORTED}: \\w+=\\S+ needs root trait [A-Z0-9_]+$`),
      );
    }
  });

  // Nova refuses these when it builds the image metadata (fields.py canonicalize raises): the
  // request cannot be placed anywhere.
  it.each([
    {
      image: { hw_architecture: 'x64' },
      shown: 'hw_architecture="x64"',
      what: 'architecture name',
    },
    {
      image: { hw_architecture: 'x86' },
      shown: 'hw_architecture="x86"',
      what: 'architecture name',
    },
    {
      image: { architecture: 'risc-v' },
      shown: 'architecture="risc-v"',
      what: 'architecture name',
    },
    { image: { hw_architecture: '' }, shown: 'hw_architecture=""', what: 'architecture name' },
    { image: { img_hv_type: 'foo' }, shown: 'img_hv_type="foo"', what: 'hypervisor virt type' },
    { image: { hw_vm_mode: 'pvh' }, shown: 'hw_vm_mode="pvh"', what: 'virtual machine mode' },
  ])('rejects every host for $shown', ({ image, shown, what }) => {
    const host = buildHostView({
      providers: [{ uuid: 'cn1', traits: supports('x86_64', 'kvm', 'hvm') }],
    });
    const extraSpecs = Object.fromEntries(Object.entries(image).map(([k, v]) => [`image:${k}`, v]));
    expect(verdictOf(plugin, host, buildRequestSpec({ extraSpecs }))).toEqual({
      fits: false,
      reason: `${REASON_INVALID}: ${shown} is not a valid ${what}`,
      code: 'image_properties.invalid',
    });
  });

  // nova/virt/arch.py ALL; the traits are the os-traits names berth seeds (and accepts).
  it("maps every one of Nova's architectures to an os-traits trait berth accepts", () => {
    const nova = [
      ...['alpha', 'armv6', 'armv7l', 'armv7b', 'aarch64', 'cris', 'i686', 'ia64', 'lm32'],
      ...['m68k', 'microblaze', 'microblazeel', 'mips', 'mipsel', 'mips64', 'mips64el'],
      ...['openrisc', 'parisc', 'parisc64', 'ppc', 'ppcle', 'ppc64', 'ppc64le', 'ppcemb'],
      ...['s390', 's390x', 'sh4', 'sh4eb', 'sparc', 'sparc64', 'unicore32', 'x86_64'],
      ...['xtensa', 'xtensaeb'],
    ];
    expect(Object.keys(ARCH_TRAITS).sort()).toEqual([...nova].sort());
    for (const trait of Object.values(ARCH_TRAITS)) {
      expect(STANDARD_TRAITS).toContain(trait);
    }
    expect(ARCH_TRAITS['armv7l']).toBe('HW_ARCH_ARMV7');
  });

  it('applies imagePropertiesDefaultArchitecture to an image without one', () => {
    const arm = buildPlugin(create, NAME, { imagePropertiesDefaultArchitecture: 'aarch64' });
    const x86 = buildHostView({
      providers: [{ uuid: 'cn1', name: 'compute-1', traits: supports('x86_64', 'kvm', 'hvm') }],
    });
    expect(verdictOf(arm, x86, buildRequestSpec())).toEqual({
      fits: false,
      reason: `${REASON_UNSUPPORTED}: imagePropertiesDefaultArchitecture=aarch64 needs root trait HW_ARCH_AARCH64`,
      code: 'image_properties.unsupported',
    });
    const req = buildRequestSpec({ extraSpecs: { 'image:hw_architecture': 'x86_64' } });
    expect(verdictOf(arm, x86, req)).toEqual({ fits: true });
    expect(verdictOf(plugin, x86, buildRequestSpec())).toEqual({ fits: true });
  });

  it.each(['amd64', 'X86_64', 7])(
    'refuses imagePropertiesDefaultArchitecture = %p at start-up (Nova: choices=arch.ALL)',
    (bad) => {
      expect(() => buildPlugin(create, NAME, { imagePropertiesDefaultArchitecture: bad })).toThrow(
        `${NAME}: config "imagePropertiesDefaultArchitecture" must be one of`,
      );
    },
  );

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
      reason: `${REASON_UNSUPPORTED}: hw_architecture=amd64 needs root trait HW_ARCH_X86_64`,
      code: 'image_properties.unsupported',
    });
  });

  // Nova's _compare_product_version runs inside the supported_instances match only.
  describe('img_hv_requested_version', () => {
    const kvm = supports('x86_64', 'kvm', 'hvm');
    const version = (n: number) => `CUSTOM_HYPERVISOR_VERSION_${n}`;
    const props = { hw_architecture: 'x86_64', img_hv_type: 'kvm', hw_vm_mode: 'hvm' };
    const spec = (image: Record<string, string>) =>
      buildRequestSpec({
        extraSpecs: Object.fromEntries(Object.entries(image).map(([k, v]) => [`image:${k}`, v])),
      });
    const host = (traits: string[]) =>
      buildHostView({ providers: [{ uuid: 'cn1', name: 'compute-1', traits }] });

    it.each<{ name: string; image: Record<string, string>; traits: string[]; want: boolean }>([
      {
        name: 'passes same inst props and version (Nova)',
        image: { ...props, img_hv_requested_version: '>=6.0,<6.2' },
        traits: [...kvm, version(6000000)],
        want: true,
      },
      {
        name: 'fails different hyper version (Nova)',
        image: { ...props, img_hv_requested_version: '>=6.2' },
        traits: [...kvm, version(6000000)],
        want: false,
      },
      {
        name: 'passes without hyper version (Nova)',
        image: { ...props, img_hv_requested_version: '>=6.0' },
        traits: kvm,
        want: true,
      },
      {
        name: 'fails with unsupported hyper ver 5000 = 5.0 (Nova)',
        image: { ...props, img_hv_requested_version: '>=6.0' },
        traits: [...kvm, version(5000)],
        want: false,
      },
      {
        name: 'the highest version trait counts',
        image: { hw_architecture: 'x86_64', img_hv_requested_version: '>= 6.0, < 8.0' },
        traits: [...kvm, version(5000000), version(7001000)],
        want: true,
      },
      {
        name: 'version 0 is no version',
        image: { hw_architecture: 'x86_64', img_hv_requested_version: '>=6.0' },
        traits: [...kvm, version(0)],
        want: true,
      },
      {
        name: 'no arch, hv type or vm mode asked for: the version is not read',
        image: { img_hv_requested_version: '>=99.0' },
        traits: [version(6000000)],
        want: true,
      },
      {
        name: 'legacy hypervisor_version_requires',
        image: { hw_vm_mode: 'hvm', hypervisor_version_requires: '>=6.2' },
        traits: [...kvm, version(6000000)],
        want: false,
      },
      {
        name: 'the current name wins over the legacy one',
        image: {
          hw_vm_mode: 'hvm',
          hypervisor_version_requires: '>=6.2',
          img_hv_requested_version: '<6.2',
        },
        traits: [...kvm, version(6000000)],
        want: true,
      },
      {
        name: 'an empty current name wins too, and asks for nothing',
        image: {
          hw_vm_mode: 'hvm',
          hypervisor_version_requires: '>=6.2',
          img_hv_requested_version: '',
        },
        traits: [...kvm, version(6000000)],
        want: true,
      },
    ])('$name -> $want', ({ image, traits, want }) => {
      expect(verdictOf(plugin, host(traits), spec(image)).fits).toBe(want);
    });

    it('names the predicate and the version in the rejection', () => {
      const image = { ...props, img_hv_requested_version: '>= 6.0, < 8.0' };
      expect(verdictOf(plugin, host([...kvm, version(8000000)]), spec(image))).toEqual({
        fits: false,
        reason: `${REASON_VERSION}: image:img_hv_requested_version=">= 6.0, < 8.0", the host runs 8.0.0 (CUSTOM_HYPERVISOR_VERSION_8000000)`,
        code: 'image_properties.hypervisor_version',
      });
    });

    it('checks the properties before the version', () => {
      const image = { hw_architecture: 'aarch64', img_hv_requested_version: '>= 6.0' };
      expect(verdictOf(plugin, host([...kvm, version(5000)]), spec(image))).toMatchObject({
        fits: false,
        reason: expect.stringContaining(REASON_UNSUPPORTED),
        code: 'image_properties.unsupported',
      });
    });

    // Nova raises ValueError there, failing the whole request.
    it.each([
      {
        what: 'a malformed predicate',
        image: { ...props, img_hv_requested_version: '>= 6.0, < 8' },
        traits: [...kvm, version(6000000)],
        message: `${ERROR_BAD_VERSION}: image:img_hv_requested_version=">= 6.0, < 8" is not a version predicate (invalid version number '8')`,
      },
      {
        what: 'a host version StrictVersion refuses',
        image: { ...props, img_hv_requested_version: '>= 6.0' },
        traits: [...kvm, version(5)],
        message: `${ERROR_BAD_VERSION}: compute-1's CUSTOM_HYPERVISOR_VERSION_5 reads as "5" (invalid version number '5')`,
      },
    ])(
      'fails closed on $what: every host rejected with the reason',
      async ({ image, traits, message }) => {
        expect(() => verdictOf(plugin, host(traits), spec(image))).toThrow(message);
        const good = buildHostView({
          providers: [{ uuid: 'cn0', name: 'compute-0', traits: kvm }],
        });
        const result = await runPipeline(
          createPipeline({ filters: [plugin], weighers: [] }),
          [good, host(traits)],
          spec(image),
        );
        expect(result.hosts).toEqual([]);
        expect(result.explanation.filters[0]!.rejections).toEqual(
          ['cn0', 'cn1'].map((uuid, i) => ({
            host: uuid,
            hostName: `compute-${i}`,
            reason: `${NAME} failed closed (error): ${message}`,
            code: 'plugin.failed_closed',
          })),
        );
      },
    );

    it('ignores a malformed predicate no host reaches', () => {
      const image = { ...props, img_hv_requested_version: 'garbage' };
      expect(verdictOf(plugin, host(kvm), spec(image))).toEqual({ fits: true });
      expect(verdictOf(plugin, host([version(6000000)]), spec(image)).fits).toBe(false);
    });
  });
});
