// ImagePropertiesFilter: a host passes when it supports the image's architecture, hypervisor type
// and VM mode (upstream: nova/scheduler/filters/image_props_filter.py). Image properties come in
// the extra specs under the `image:` scope (so AggregateInstanceExtraSpecsFilter, which reads only
// unscoped and `aggregate_instance_extra_specs:` keys, ignores them), with Nova's names or their
// legacy aliases: `image:hw_architecture` (`image:architecture`), `image:img_hv_type`
// (`image:hypervisor_type`), `image:hw_vm_mode` (`image:vm_mode`). Placement has no
// `supported_instances`: the host side is the root provider's traits, `HW_ARCH_<ARCH>` (os-traits),
// `CUSTOM_HYPERVISOR_<TYPE>` and `CUSTOM_VM_MODE_<MODE>` (no standard traits exist for these two).
// Each property asked for must be matched by a trait of its kind; values are canonicalised as Nova
// does (amd64 -> x86_64, i386 -> i686, xapi -> xen, pv -> xen, hv/baremetal -> hvm).
// `img_hv_requested_version` is not evaluated (no hypervisor version in Placement).
import type { FilterFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'ImagePropertiesFilter';
/** Plugin kind. */
export const kind = 'filter';
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS: readonly string[] = [];

/** The extra-spec scope image properties are given under. */
export const SCOPE = 'image:';
/** Rejection: the host lacks the trait for a requested image property. */
export const REASON_UNSUPPORTED = 'host does not support the image properties';

/** One image property: its extra-spec keys (Nova name first), how to canonicalise it, the trait. */
interface Property {
  readonly keys: readonly string[];
  readonly canonical: (value: string) => string;
  readonly traitPrefix: string;
}

function canonicalArch(value: string): string {
  const v = value.toLowerCase();
  if (v === 'amd64' || v === 'x64') {
    return 'x86_64';
  }
  if (v === 'x86' || v === 'i386' || v === 'i486' || v === 'i586') {
    return 'i686';
  }
  return v;
}

function canonicalHvType(value: string): string {
  const v = value.toLowerCase();
  return v === 'xapi' ? 'xen' : v;
}

function canonicalVmMode(value: string): string {
  const v = value.toLowerCase();
  if (v === 'pv') {
    return 'xen';
  }
  return v === 'hv' || v === 'baremetal' ? 'hvm' : v;
}

/** The properties read, with the trait prefix of each. */
export const PROPERTIES: readonly Property[] = [
  { keys: ['hw_architecture', 'architecture'], canonical: canonicalArch, traitPrefix: 'HW_ARCH_' },
  {
    keys: ['img_hv_type', 'hypervisor_type'],
    canonical: canonicalHvType,
    traitPrefix: 'CUSTOM_HYPERVISOR_',
  },
  { keys: ['hw_vm_mode', 'vm_mode'], canonical: canonicalVmMode, traitPrefix: 'CUSTOM_VM_MODE_' },
];

/** What a request asks for: property key -> the one trait that satisfies it. */
type Wanted = readonly { readonly key: string; readonly value: string; readonly trait: string }[];

/** The traits the request's image properties need (one per property given). */
export function wantedTraits(extraSpecs: Readonly<Record<string, string>>): Wanted {
  const wanted: { key: string; value: string; trait: string }[] = [];
  for (const property of PROPERTIES) {
    const key = property.keys.find((k) => (extraSpecs[SCOPE + k] ?? '').trim() !== '');
    if (key !== undefined) {
      const value = extraSpecs[SCOPE + key]!.trim();
      const name = property
        .canonical(value)
        .toUpperCase()
        .replace(/[^A-Z0-9_]/g, '_');
      wanted.push({ key, value, trait: property.traitPrefix + name });
    }
  }
  return wanted;
}

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory<Wanted> = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  prepare: (req) => wantedTraits(req.extraSpecs),
  filter(host, _req, wanted) {
    for (const { key, value, trait } of wanted) {
      if (!host.root.traits.includes(trait)) {
        return {
          fits: false,
          reason: `${REASON_UNSUPPORTED}: ${key}=${value} needs root trait ${trait} on ${host.name}`,
        };
      }
    }
    return { fits: true };
  },
});
