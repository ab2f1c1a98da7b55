// Table tests for transform_image_metadata (after nova/tests/unit/scheduler/test_request_filter.py
// test_transform_image_metadata_*, plus Nova's field checks, nova/objects/fields.py, and berth's
// two trait names that differ from Nova 26's).
import { STANDARD_TRAITS } from '../../src/db/seed';
import type { RequestAmendment } from '../../src/scheduler/plugin-api';
import { buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin } from '../../test/support/plugin';
import { create, NAME, NOTE_UNKNOWN_TRAIT, OS_TRAITS, REASON_INVALID } from './index';

function amend(image: Record<string, string>, config: Record<string, unknown> = {}) {
  const extraSpecs = Object.fromEntries(Object.entries(image).map(([k, v]) => [`image:${k}`, v]));
  return buildPlugin(create, NAME, config).amendRequest(buildRequestSpec({ extraSpecs }), {
    aggregates: [],
  }) as RequestAmendment | null;
}

const requires = (...traits: string[]) => ({
  rootRequiredTraits: traits.map((t) => [t]),
  note: `required root traits ${traits.join(', ')}`,
});

describe(NAME, () => {
  it.each<{ name: string; image: Record<string, string>; want: RequestAmendment | null }>([
    {
      name: 'x86 (Nova)',
      image: {
        hw_disk_bus: 'sata',
        hw_cdrom_bus: 'ide',
        hw_video_model: 'qxl',
        hw_vif_model: 'virtio',
        hw_architecture: 'x86_64',
        hw_emulation_architecture: 'aarch64',
      },
      want: requires(
        'COMPUTE_STORAGE_BUS_IDE',
        'COMPUTE_STORAGE_BUS_SATA',
        'COMPUTE_GRAPHICS_MODEL_QXL',
        'COMPUTE_NET_VIF_MODEL_VIRTIO',
        'HW_ARCH_X86_64',
        'COMPUTE_ARCH_AARCH64',
      ),
    },
    {
      name: 'aarch64 (Nova)',
      image: {
        hw_disk_bus: 'sata',
        hw_cdrom_bus: 'ide',
        hw_video_model: 'qxl',
        hw_vif_model: 'virtio',
        hw_architecture: 'aarch64',
        hw_emulation_architecture: 'x86_64',
      },
      want: requires(
        'COMPUTE_STORAGE_BUS_IDE',
        'COMPUTE_STORAGE_BUS_SATA',
        'COMPUTE_GRAPHICS_MODEL_QXL',
        'COMPUTE_NET_VIF_MODEL_VIRTIO',
        'HW_ARCH_AARCH64',
        'COMPUTE_ARCH_X86_64',
      ),
    },
    { name: 'no image property: nothing', image: {}, want: null },
    {
      name: 'the same bus twice is one trait',
      image: { hw_disk_bus: 'virtio', hw_cdrom_bus: 'virtio' },
      want: requires('COMPUTE_STORAGE_BUS_VIRTIO'),
    },
    {
      name: 'legacy architecture, canonicalised (amd64)',
      image: { architecture: 'amd64' },
      want: requires('HW_ARCH_X86_64'),
    },
    {
      name: 'hw_architecture wins over the legacy name',
      image: { architecture: 'aarch64', hw_architecture: 'i386' },
      want: requires('HW_ARCH_I686'),
    },
    {
      name: '- becomes _ (spapr-vlan), VIF models are lower-cased and legacy names mapped',
      image: { hw_vif_model: 'SPAPR-VLAN', hw_video_model: 'none' },
      want: requires('COMPUTE_GRAPHICS_MODEL_NONE', 'COMPUTE_NET_VIF_MODEL_SPAPR_VLAN'),
    },
    {
      name: 'a VMware VIF name (VirtualE1000)',
      image: { hw_vif_model: 'VirtualE1000' },
      want: requires('COMPUTE_NET_VIF_MODEL_E1000'),
    },
    {
      name: 'armv7l needs HW_ARCH_ARMV7 (Nova 26 builds HW_ARCH_ARMV7L and skips the pre-filter)',
      image: { hw_architecture: 'armv7l', hw_disk_bus: 'virtio' },
      want: requires('COMPUTE_STORAGE_BUS_VIRTIO', 'HW_ARCH_ARMV7'),
    },
    {
      name: 'hw_viommu_model needs COMPUTE_VIOMMU_MODEL_* (Nova 26 builds COMPUTE_VIOMMU_*)',
      image: { hw_viommu_model: 'virtio' },
      want: requires('COMPUTE_VIOMMU_MODEL_VIRTIO'),
    },
    {
      name: 'an emulation architecture without an os-traits trait: nothing at all, as Nova',
      image: { hw_disk_bus: 'sata', hw_emulation_architecture: 'i686' },
      want: { note: `COMPUTE_ARCH_I686 ${NOTE_UNKNOWN_TRAIT}` },
    },
    {
      name: 'a disk bus Nova refuses (its enum is case-sensitive)',
      image: { hw_disk_bus: 'VIRTIO' },
      want: { unsatisfiable: `${REASON_INVALID}: hw_disk_bus="VIRTIO" is not a valid disk bus` },
    },
    {
      name: 'a video model Nova refuses',
      image: { hw_video_model: 'tpm' },
      want: { unsatisfiable: `${REASON_INVALID}: hw_video_model="tpm" is not a valid video model` },
    },
    {
      name: 'an architecture Nova refuses, even after an unknown trait',
      image: { hw_emulation_architecture: 'i686', hw_architecture: 'x64' },
      want: {
        unsatisfiable: `${REASON_INVALID}: hw_architecture="x64" is not a valid architecture name`,
      },
    },
  ])('$name', ({ image, want }) => {
    expect(amend(image)).toEqual(want);
  });

  it('reads image properties only under image: (unscoped keys belong to other filters)', () => {
    const plugin = buildPlugin(create, NAME);
    const req = buildRequestSpec({ extraSpecs: { hw_disk_bus: 'sata' } });
    expect(plugin.amendRequest(req, { aggregates: [] })).toBe(null);
  });

  it('does nothing when imageMetadataPrefilter is false', () => {
    expect(amend({ hw_disk_bus: 'sata' }, { imageMetadataPrefilter: false })).toBe(null);
  });

  it('refuses a non-boolean imageMetadataPrefilter at start-up', () => {
    expect(() => amend({}, { imageMetadataPrefilter: 'true' })).toThrow(
      `${NAME}: config "imageMetadataPrefilter" must be true or false`,
    );
  });

  it('requires only traits berth seeds (os-traits), and knows every one under its prefixes', () => {
    for (const t of OS_TRAITS) {
      expect(STANDARD_TRAITS).toContain(t);
    }
    const prefixes =
      /^(COMPUTE_STORAGE_BUS|COMPUTE_GRAPHICS_MODEL|COMPUTE_NET_VIF_MODEL|HW_ARCH|COMPUTE_ARCH|COMPUTE_VIOMMU_MODEL)_/;
    expect(STANDARD_TRAITS.filter((t) => prefixes.test(t)).sort()).toEqual([...OS_TRAITS].sort());
  });
});
