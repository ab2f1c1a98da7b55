// require_image_type_support: the image's disk format becomes a required root trait
// `COMPUTE_IMAGE_TYPE_<FORMAT>` of the candidate query, so only hosts whose compute driver can
// use that image format are candidates (upstream: nova/scheduler/request_filter.py
// require_image_type_support, Nova's `[scheduler] query_placement_for_image_type_support`). The
// disk format is the extra spec `image:disk_format` (Glance's `disk_format`); a volume-backed
// request carries none (Nova skips `is_bfv` requests, and the image metadata Nova builds from a
// volume has no disk format). A format whose trait os-traits does not define (`rbd`, `lvm`, a
// typo) requires nothing, as Nova, which logs an error: the explanation's note says so.
import { booleanField, configKeys, pluginConfig, withConfig } from '../../src/scheduler/helpers';
import type { AmendFactory, RequestAmendment } from '../../src/scheduler/plugin-api';

/** Nova's function name, as written in `enabledFilters`. */
export const NAME = 'require_image_type_support';
/** Plugin kind (a pre-candidate hook: it judges no host). */
export const kind = 'filter';

/** The extra spec holding the image's disk format. */
export const DISK_FORMAT_KEY = 'image:disk_format';
/** The prefix of the image type traits. */
export const TRAIT_PREFIX = 'COMPUTE_IMAGE_TYPE_';
/** os-traits 2.9 `compute/image.py`: the disk formats that have a trait. */
export const IMAGE_TYPE_TRAITS: ReadonlySet<string> = new Set(
  ['AKI', 'AMI', 'ARI', 'ISO', 'QCOW2', 'RAW', 'VDI', 'VHD', 'VHDX', 'VMDK', 'PLOOP'].map(
    (t) => TRAIT_PREFIX + t,
  ),
);
/** Explanation note: the disk format has no os-traits trait, so nothing is required. */
export const NOTE_UNKNOWN_TRAIT = 'no such os-traits trait, nothing required';

/**
 * The amendment for an image of disk format `diskFormat` (undefined: volume-backed or no image):
 * Nova's `'COMPUTE_IMAGE_TYPE_%s' % disk_format.upper()` as a required root trait.
 */
export function imageTypeAmendment(diskFormat: string | undefined): RequestAmendment | null {
  if (diskFormat === undefined) {
    return null;
  }
  const trait = TRAIT_PREFIX + diskFormat.toUpperCase();
  if (!IMAGE_TYPE_TRAITS.has(trait)) {
    return {
      note: `${DISK_FORMAT_KEY}=${JSON.stringify(diskFormat)}: ${trait}: ${NOTE_UNKNOWN_TRAIT}`,
    };
  }
  return { rootRequiredTraits: [[trait]], note: `required root trait ${trait}` };
}

const CONFIG = pluginConfig({
  queryPlacementForImageTypeSupport: booleanField(
    true,
    'Nova `[scheduler] query_placement_for_image_type_support`; false turns the hook off',
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: Nova's `[scheduler] query_placement_for_image_type_support`. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the hook. Config: `queryPlacementForImageTypeSupport` (default true: listing the plugin
 * turns it on; false turns it off, e.g. in one profile).
 * @throws Error when it is not a boolean.
 */
export const create: AmendFactory = withConfig(CONFIG, (config) => {
  const enabled = config.queryPlacementForImageTypeSupport;
  return {
    name: NAME,
    kind,
    // Failing open would offer hosts that cannot use the image (no host filter checks it again).
    onError: 'closed',
    amendRequest: (req) => (enabled ? imageTypeAmendment(req.extraSpecs[DISK_FORMAT_KEY]) : null),
  };
});
