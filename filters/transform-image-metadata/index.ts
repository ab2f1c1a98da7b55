// transform_image_metadata: image properties naming the virtual hardware become required root
// traits of the candidate query (upstream: nova/scheduler/request_filter.py
// transform_image_metadata, Nova's `[scheduler] image_metadata_prefilter`): hw_cdrom_bus and
// hw_disk_bus -> COMPUTE_STORAGE_BUS_*, hw_video_model -> COMPUTE_GRAPHICS_MODEL_*, hw_vif_model
// -> COMPUTE_NET_VIF_MODEL_*, hw_architecture (legacy `architecture`) -> HW_ARCH_*,
// hw_emulation_architecture -> COMPUTE_ARCH_*, hw_viommu_model -> COMPUTE_VIOMMU_MODEL_*, each the
// property's value with `-` as `_`, upper-cased. Properties come as `image:<property>` extra
// specs, checked as Nova's image metadata fields check them (nova/objects/fields.py: a value
// Nova refuses makes the request unplaceable, as ImagePropertiesFilter does). When a computed
// trait is not an os-traits trait Nova logs an error and adds none of them; berth does the same,
// except for two names Nova 26 builds wrongly: armv7l needs HW_ARCH_ARMV7 (Nova: HW_ARCH_ARMV7L)
// and hw_viommu_model needs COMPUTE_VIOMMU_MODEL_<M> (Nova: COMPUTE_VIOMMU_<M>), the traits
// os-traits defines for those values and Nova's libvirt driver reports.
import { booleanField, configKeys, pluginConfig, withConfig } from '../../src/scheduler/helpers';
import type { AmendFactory, RequestAmendment } from '../../src/scheduler/plugin-api';
import { ARCH_TRAITS, canonicalArch } from '../image-properties-filter/index';

/** Nova's function name, as written in `enabledFilters`. */
export const NAME = 'transform_image_metadata';
/** Plugin kind (a pre-candidate hook: it judges no host). */
export const kind = 'filter';

/** The extra-spec scope image properties are given under. */
export const SCOPE = 'image:';
/** Unsatisfiable: an image property has a value Nova refuses. */
export const REASON_INVALID = 'invalid image property';
/** Explanation note: a computed trait is not in os-traits, so nothing is required (as Nova). */
export const NOTE_UNKNOWN_TRAIT = 'is not an os-traits trait: no trait required';

const DISK_BUS = ['fdc', 'ide', 'sata', 'scsi', 'usb', 'virtio', 'xen', 'lxc', 'uml'];
const VIDEO_MODEL = ['cirrus', 'qxl', 'vga', 'vmvga', 'xen', 'virtio', 'gop', 'none', 'bochs'];
const VIF_MODEL = [
  ...['virtio', 'ne2k_pci', 'pcnet', 'rtl8139', 'e1000', 'e1000e', 'netfront', 'spapr-vlan'],
  ...['lan9118', 'sriov', 'vmxnet', 'vmxnet3'],
];
/** Nova's VIFModel.LEGACY_VALUES (VMware names). */
const VIF_LEGACY: Readonly<Record<string, string>> = {
  virtuale1000: 'e1000',
  virtuale1000e: 'e1000e',
  virtualpcnet32: 'pcnet',
  virtualsriovethernetcard: 'sriov',
  virtualvmxnet: 'vmxnet',
  virtualvmxnet3: 'vmxnet3',
};
const VIOMMU_MODEL = ['intel', 'smmuv3', 'virtio', 'auto'];

/** os-traits 2.9 traits under the prefixes this filter builds (the ones it may require). */
export const OS_TRAITS: ReadonlySet<string> = new Set([
  ...DISK_BUS.map((b) => `COMPUTE_STORAGE_BUS_${b.toUpperCase()}`),
  ...VIDEO_MODEL.map((m) => `COMPUTE_GRAPHICS_MODEL_${m.toUpperCase()}`),
  ...VIF_MODEL.map((m) => `COMPUTE_NET_VIF_MODEL_${m.replaceAll('-', '_').toUpperCase()}`),
  ...Object.values(ARCH_TRAITS),
  ...['AARCH64', 'MIPSEL', 'PPC64LE', 'RISCV64', 'S390X', 'X86_64'].map((a) => `COMPUTE_ARCH_${a}`),
  ...VIOMMU_MODEL.map((m) => `COMPUTE_VIOMMU_MODEL_${m.toUpperCase()}`),
]);

/** One image property: its extra-spec names (current first), its field check, its trait. */
interface Property {
  readonly keys: readonly string[];
  /** What Nova's error calls the value. */
  readonly what: string;
  /** The value as Nova's field stores it, or null where the field refuses it. */
  readonly coerce: (value: string) => string | null;
  readonly trait: (value: string) => string;
}

const member = (values: readonly string[]) => (v: string) => (values.includes(v) ? v : null);
const named = (prefix: string) => (v: string) =>
  `${prefix}_${v.replaceAll('-', '_').toUpperCase()}`;

/** Nova's prefix_map, in its order. */
export const PROPERTIES: readonly Property[] = [
  {
    keys: ['hw_cdrom_bus'],
    what: 'disk bus',
    coerce: member(DISK_BUS),
    trait: named('COMPUTE_STORAGE_BUS'),
  },
  {
    keys: ['hw_disk_bus'],
    what: 'disk bus',
    coerce: member(DISK_BUS),
    trait: named('COMPUTE_STORAGE_BUS'),
  },
  {
    keys: ['hw_video_model'],
    what: 'video model',
    coerce: member(VIDEO_MODEL),
    trait: named('COMPUTE_GRAPHICS_MODEL'),
  },
  {
    keys: ['hw_vif_model'],
    what: 'VIF model',
    coerce: (v) => member(VIF_MODEL)(VIF_LEGACY[v.toLowerCase()] ?? v.toLowerCase()),
    trait: named('COMPUTE_NET_VIF_MODEL'),
  },
  {
    keys: ['hw_architecture', 'architecture'],
    what: 'architecture name',
    coerce: canonicalArch,
    trait: (arch) => ARCH_TRAITS[arch]!,
  },
  {
    keys: ['hw_emulation_architecture'],
    what: 'architecture name',
    coerce: canonicalArch,
    trait: named('COMPUTE_ARCH'),
  },
  {
    keys: ['hw_viommu_model'],
    what: 'vIOMMU model',
    coerce: member(VIOMMU_MODEL),
    trait: named('COMPUTE_VIOMMU_MODEL'),
  },
];

/** The amendment for the image properties in `extraSpecs` (null when it names none). */
export function imageMetadataAmendment(
  extraSpecs: Readonly<Record<string, string>>,
): RequestAmendment | null {
  const traits: string[] = [];
  const unknown: string[] = [];
  for (const property of PROPERTIES) {
    const key = property.keys.find((k) => extraSpecs[SCOPE + k] !== undefined);
    if (key === undefined) {
      continue;
    }
    const value = extraSpecs[SCOPE + key]!;
    const coerced = property.coerce(value);
    if (coerced === null) {
      return {
        unsatisfiable: `${REASON_INVALID}: ${key}=${JSON.stringify(value)} is not a valid ${property.what}`,
      };
    }
    const trait = property.trait(coerced);
    (OS_TRAITS.has(trait) ? traits : unknown).push(trait);
  }
  if (unknown.length > 0) {
    return { note: `${unknown.join(', ')} ${NOTE_UNKNOWN_TRAIT}` };
  }
  const required = [...new Set(traits)];
  return required.length === 0
    ? null
    : {
        rootRequiredTraits: required.map((t) => [t]),
        note: `required root traits ${required.join(', ')}`,
      };
}

const CONFIG = pluginConfig({
  imageMetadataPrefilter: booleanField(
    true,
    'Nova `[scheduler] image_metadata_prefilter`; false turns the hook off',
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: Nova's `[scheduler] image_metadata_prefilter`. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the hook. Config: `imageMetadataPrefilter` (default true: listing the plugin turns it
 * on; false turns it off, e.g. in one profile).
 * @throws Error when it is not a boolean.
 */
export const create: AmendFactory = withConfig(CONFIG, (config) => {
  const enabled = config.imageMetadataPrefilter;
  return {
    name: NAME,
    kind,
    // Failing open would offer hosts without the virtual hardware the image needs.
    onError: 'closed',
    amendRequest: (req) => (enabled ? imageMetadataAmendment(req.extraSpecs) : null),
  };
});
