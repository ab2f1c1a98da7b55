// ImagePropertiesFilter: a host passes when it supports the image's architecture, hypervisor type
// and VM mode (upstream: nova/scheduler/filters/image_props_filter.py). Image properties come in
// the extra specs under the `image:` scope (so AggregateInstanceExtraSpecsFilter, which reads only
// unscoped and `aggregate_instance_extra_specs:` keys, ignores them), with Nova's names or their
// legacy aliases (nova/objects/image_meta.py: the current name wins when both are given):
// `image:hw_architecture` (`image:architecture`), `image:img_hv_type` (`image:hypervisor_type`),
// `image:hw_vm_mode` (`image:vm_mode`). Values are canonicalised and validated as Nova's fields
// do (nova/objects/fields.py Architecture, HVType, VMMode): a value Nova refuses makes the request
// unplaceable (Nova fails it building the image metadata). Placement has no `supported_instances`:
// the host side is the root provider's traits, `HW_ARCH_<ARCH>` (os-traits, named after Nova's
// constants: armv7l is HW_ARCH_ARMV7), `CUSTOM_HYPERVISOR_<TYPE>` and `CUSTOM_VM_MODE_<MODE>` (no
// standard traits exist for these two). Each property is matched on its own, not as one
// (arch, hv_type, vm_mode) tuple. When the host supports them, `image:img_hv_requested_version`
// (legacy `image:hypervisor_version_requires`) is checked against the host's hypervisor version,
// the highest root trait `CUSTOM_HYPERVISOR_VERSION_<n>` (./version-predicate.ts), as Nova does
// only there: no property asked for, no host version or no predicate pass. A predicate or host
// version Python refuses there makes Nova raise and fail the request: this filter throws, and
// failing closed rejects every host with the reason.
import { checkedField, configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory, HostView, Verdict } from '../../src/scheduler/plugin-api';
import { hypervisorVersionOf } from '../host-state/index';
import {
  type Predicate,
  parsePredicate,
  parseStrictVersion,
  satisfiedBy,
  versionToString,
} from './version-predicate';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'ImagePropertiesFilter';
/** Plugin kind. */
export const kind = 'filter';

/** The extra-spec scope image properties are given under. */
export const SCOPE = 'image:';
/** Rejection: the host lacks the trait for a requested image property. */
export const REASON_UNSUPPORTED = 'host does not support the image properties';
/** Rejection of every host: an image property has a value Nova refuses. */
export const REASON_INVALID = 'invalid image property';
/** Rejection: the host's hypervisor version does not satisfy `img_hv_requested_version`. */
export const REASON_VERSION = 'host hypervisor version does not satisfy the image';
/** Reason code of {@link REASON_UNSUPPORTED}. */
export const CODE_UNSUPPORTED = 'image_properties.unsupported';
/** Reason code of {@link REASON_INVALID}. */
export const CODE_INVALID = 'image_properties.invalid';
/** Reason code of {@link REASON_VERSION}. */
export const CODE_VERSION = 'image_properties.hypervisor_version';
/**
 * What the filter throws (failing closed: every host rejected with it, as Nova's ValueError fails
 * the request) when a host reaches the version check with a predicate or a version Python refuses.
 */
export const ERROR_BAD_VERSION = 'cannot compare hypervisor versions';
/** The image property naming the hypervisor versions the image needs, then its legacy name. */
export const VERSION_KEYS = ['img_hv_requested_version', 'hypervisor_version_requires'] as const;

/** Nova's architectures (nova/virt/arch.py values) -> their os-traits trait (named after Nova's constant). */
export const ARCH_TRAITS: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ...['alpha', 'armv6', 'armv7b', 'aarch64', 'cris', 'i686', 'ia64', 'lm32', 'm68k'],
    ...['microblaze', 'microblazeel', 'mips', 'mipsel', 'mips64', 'mips64el', 'openrisc'],
    ...['parisc', 'parisc64', 'ppc', 'ppcle', 'ppc64', 'ppc64le', 'ppcemb', 's390', 's390x'],
    ...['sh4', 'sh4eb', 'sparc', 'sparc64', 'unicore32', 'x86_64', 'xtensa', 'xtensaeb'],
  ]
    .map((arch) => [arch, `HW_ARCH_${arch.toUpperCase()}`])
    .concat([['armv7l', 'HW_ARCH_ARMV7']]),
);

/** Nova's HVType.ALL. */
const HV_TYPES: readonly string[] = [
  ...['baremetal', 'bhyve', 'docker', 'fake', 'hyperv', 'ironic', 'kqemu', 'kvm', 'lxc', 'lxd'],
  ...['openvz', 'parallels', 'phyp', 'qemu', 'test', 'uml', 'vbox', 'vz', 'vmware', 'xen'],
  ...['zvm', 'prsm'],
];

/** Nova's VMMode.ALL. */
const VM_MODES: readonly string[] = ['hvm', 'xen', 'uml', 'exe'];

/** Nova `Architecture.canonicalize`: the canonical name, or `null` where Nova raises. */
export function canonicalArch(value: string): string | null {
  let v = value.toLowerCase();
  if (['i386', 'i486', 'i586', 'x86_32', 'x86_32p'].includes(v)) {
    v = 'i686';
  } else if (v === 'amd64') {
    v = 'x86_64';
  }
  return Object.hasOwn(ARCH_TRAITS, v) ? v : null;
}

/** Nova `HVType.canonicalize`. */
export function canonicalHvType(value: string): string | null {
  const v = value.toLowerCase() === 'xapi' ? 'xen' : value.toLowerCase();
  return HV_TYPES.includes(v) ? v : null;
}

/** Nova `VMMode.canonicalize`. */
export function canonicalVmMode(value: string): string | null {
  let v = value.toLowerCase();
  if (v === 'pv') {
    v = 'xen';
  } else if (v === 'hv' || v === 'baremetal') {
    v = 'hvm';
  }
  return VM_MODES.includes(v) ? v : null;
}

/** One image property: its extra-spec keys (Nova name first), how to canonicalise it, its trait. */
interface Property {
  readonly keys: readonly [string, string];
  /** What Nova's error calls it. */
  readonly what: string;
  readonly canonical: (value: string) => string | null;
  readonly trait: (canonical: string) => string;
}

/** The properties read, with the trait of each canonical value. */
export const PROPERTIES: readonly Property[] = [
  {
    keys: ['hw_architecture', 'architecture'],
    what: 'architecture name',
    canonical: canonicalArch,
    trait: (arch) => ARCH_TRAITS[arch]!,
  },
  {
    keys: ['img_hv_type', 'hypervisor_type'],
    what: 'hypervisor virt type',
    canonical: canonicalHvType,
    trait: (hv) => `CUSTOM_HYPERVISOR_${hv.toUpperCase()}`,
  },
  {
    keys: ['hw_vm_mode', 'vm_mode'],
    what: 'virtual machine mode',
    canonical: canonicalVmMode,
    trait: (mode) => `CUSTOM_VM_MODE_${mode.toUpperCase()}`,
  },
];

/** One property asked for and the trait that satisfies it. */
interface WantedTrait {
  readonly key: string;
  readonly value: string;
  readonly trait: string;
}

/** The version predicate an image asks for: its key, raw value and parse. */
interface WantedVersion {
  readonly key: string;
  readonly value: string;
  readonly predicate: Predicate;
}

/** What a request asks for: the traits its image properties need, or why it cannot be placed. */
export type Wanted =
  | { readonly traits: readonly WantedTrait[]; readonly version?: WantedVersion }
  | { readonly invalid: string };

/**
 * The image's `img_hv_requested_version` (the current name winning over the legacy one, even
 * when empty: nova/objects/image_meta.py from_dict); undefined when absent or empty (Nova:
 * `if not (hypervisor_version and version_required)`). Parsed now, judged per host.
 */
export function wantedVersion(
  extraSpecs: Readonly<Record<string, string>>,
): WantedVersion | undefined {
  const key = VERSION_KEYS.find((k) => extraSpecs[SCOPE + k] !== undefined);
  const value = key === undefined ? '' : extraSpecs[SCOPE + key]!;
  return key === undefined || value === ''
    ? undefined
    : { key, value, predicate: parsePredicate(value) };
}

/**
 * The traits the request's image properties need (one per property given); `defaultArch` stands
 * for an image without an architecture (Nova's `image_properties_default_architecture`).
 */
export function wantedTraits(
  extraSpecs: Readonly<Record<string, string>>,
  defaultArch?: string,
): Wanted {
  const traits: WantedTrait[] = [];
  for (const [i, property] of PROPERTIES.entries()) {
    const key = property.keys.find((k) => extraSpecs[SCOPE + k] !== undefined);
    const value =
      key === undefined ? (i === 0 ? defaultArch : undefined) : extraSpecs[SCOPE + key]!;
    if (value === undefined) {
      continue;
    }
    const canonical = property.canonical(value);
    const shown = key ?? 'imagePropertiesDefaultArchitecture';
    if (canonical === null) {
      return {
        invalid: `${REASON_INVALID}: ${shown}=${JSON.stringify(value)} is not a valid ${property.what}`,
      };
    }
    traits.push({ key: shown, value, trait: property.trait(canonical) });
  }
  const version = wantedVersion(extraSpecs);
  return version === undefined ? { traits } : { traits, version };
}

/**
 * Nova's `_compare_product_version` for a host that supports the image's properties: fits when
 * the host has no version or the image no predicate. @throws Error as Nova raises ValueError: a
 * predicate, or the host's version in dotted form, that Python's parsers refuse.
 */
function versionVerdict(host: HostView, wanted: WantedVersion | undefined): Verdict {
  const hv = hypervisorVersionOf(host);
  if (wanted === undefined || !hv) {
    return { fits: true };
  }
  const shown = `${SCOPE}${wanted.key}=${JSON.stringify(wanted.value)}`;
  if ('error' in wanted.predicate) {
    throw new Error(
      `${ERROR_BAD_VERSION}: ${shown} is not a version predicate (${wanted.predicate.error})`,
    );
  }
  // Past 2^53 the trait has at least six base-1000 groups: never a StrictVersion.
  const dotted = Number.isSafeInteger(hv) ? versionToString(BigInt(hv)) : String(hv);
  const version = parseStrictVersion(dotted);
  if ('error' in version) {
    throw new Error(
      `${ERROR_BAD_VERSION}: ${host.name}'s CUSTOM_HYPERVISOR_VERSION_${hv} reads as "${dotted}" (${version.error})`,
    );
  }
  return satisfiedBy(wanted.predicate.clauses, version)
    ? { fits: true }
    : {
        fits: false,
        reason: `${REASON_VERSION}: ${shown}, the host runs ${dotted} (CUSTOM_HYPERVISOR_VERSION_${hv})`,
        code: CODE_VERSION,
      };
}

const CONFIG = pluginConfig({
  imagePropertiesDefaultArchitecture: checkedField(
    'architecture',
    'none',
    'Nova `[filter_scheduler] image_properties_default_architecture`',
    () => undefined,
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: Nova's `[filter_scheduler] image_properties_default_architecture`. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the filter. Config: `imagePropertiesDefaultArchitecture` (one of Nova's architecture
 * names, as `x86_64`; unset by default).
 * @throws Error when it is not one.
 */
export const create: FilterFactory<Wanted> = (config) => {
  const defaultArch = config.imagePropertiesDefaultArchitecture;
  if (
    defaultArch !== undefined &&
    (typeof defaultArch !== 'string' || !Object.hasOwn(ARCH_TRAITS, defaultArch))
  ) {
    throw new Error(
      `${NAME}: config "imagePropertiesDefaultArchitecture" must be one of ${Object.keys(ARCH_TRAITS).sort().join(', ')}, got ${JSON.stringify(defaultArch)}`,
    );
  }
  return {
    name: NAME,
    kind,
    onError: 'closed',
    prepare: (req) => wantedTraits(req.extraSpecs, defaultArch),
    filter(host, _req, wanted) {
      if ('invalid' in wanted) {
        return { fits: false, reason: wanted.invalid, code: CODE_INVALID };
      }
      if (wanted.traits.length === 0) {
        return { fits: true }; // Nova: supported when no property is asked for, version unread
      }
      for (const { key, value, trait } of wanted.traits) {
        if (!host.root.traits.includes(trait)) {
          return {
            fits: false,
            reason: `${REASON_UNSUPPORTED}: ${key}=${value} needs root trait ${trait}`,
            code: CODE_UNSUPPORTED,
          };
        }
      }
      return versionVerdict(host, wanted.version);
    },
  };
};
