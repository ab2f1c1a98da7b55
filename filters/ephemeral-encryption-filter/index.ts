// ephemeral_encryption_filter: a flavor (`hw:ephemeral_encryption`) or image
// (`image:hw_ephemeral_encryption`) asking for encrypted ephemeral storage needs the root trait
// COMPUTE_EPHEMERAL_ENCRYPTION, and with a format (`hw:ephemeral_encryption_format` /
// `image:hw_ephemeral_encryption_format`: plain, luks, luksv2) also
// COMPUTE_EPHEMERAL_ENCRYPTION_<FORMAT> (upstream: nova/scheduler/request_filter.py
// ephemeral_encryption_filter and nova/virt/hardware.py get_ephemeral_encryption_constraint /
// get_ephemeral_encryption_format; Nova runs it on every request, with no option). Booleans are
// read as oslo's `strutils.bool_from_string`; where Nova raises (flavor and image disagree, a
// format it does not know) the request is unplaceable, with Nova's reason.
import { configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { AmendFactory, RequestAmendment } from '../../src/scheduler/plugin-api';
import { pyStrip } from '../image-properties-filter/version-predicate';

/** Nova's function name, as written in `enabledFilters`. */
export const NAME = 'ephemeral_encryption_filter';
/** Plugin kind (a pre-candidate hook: it judges no host). */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration (Nova has no option for it). */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Unsatisfiable: the flavor and the image disagree (Nova's FlavorImageConflict). */
export const REASON_CONFLICT = 'flavor and image conflict';
/** Unsatisfiable: an encryption format Nova does not know (Nova's Invalid). */
export const REASON_INVALID_FORMAT = 'invalid ephemeral encryption format';
/** The trait of encrypted ephemeral storage; a format adds `_<FORMAT>`. */
export const TRAIT = 'COMPUTE_EPHEMERAL_ENCRYPTION';
/** Nova's BlockDeviceEncryptionFormatType.ALL. */
export const FORMATS: readonly string[] = ['plain', 'luks', 'luksv2'];

const FLAVOR = 'hw:ephemeral_encryption';
const IMAGE = 'image:hw_ephemeral_encryption';
const FLAVOR_FORMAT = 'hw:ephemeral_encryption_format';
const IMAGE_FORMAT = 'image:hw_ephemeral_encryption_format';

/** oslo_utils.strutils.bool_from_string(value): true for 1/t/true/on/y/yes, else false. */
export function boolFromString(value: string): boolean {
  return ['1', 't', 'true', 'on', 'y', 'yes'].includes(pyStrip(value).toLowerCase());
}

/** The amendment for a request with extra specs `specs` (null when no encryption is asked for). */
export function encryptionAmendment(
  specs: Readonly<Record<string, string>>,
): RequestAmendment | null {
  const flavor = specs[FLAVOR] === undefined ? undefined : boolFromString(specs[FLAVOR]);
  const image = specs[IMAGE] === undefined ? undefined : boolFromString(specs[IMAGE]);
  if (flavor !== undefined && image !== undefined && flavor !== image) {
    return {
      unsatisfiable: `${REASON_CONFLICT}: ${FLAVOR}=${specs[FLAVOR]}, ${IMAGE}=${specs[IMAGE]}`,
    };
  }
  if (!(flavor || image)) {
    return null;
  }
  // The image's format is an enum field: Nova refuses another value when it reads the image.
  const imageFormat = specs[IMAGE_FORMAT];
  if (imageFormat !== undefined && !FORMATS.includes(imageFormat)) {
    return { unsatisfiable: `${REASON_INVALID_FORMAT}: ${IMAGE_FORMAT}=${imageFormat}` };
  }
  const flavorFormat = specs[FLAVOR_FORMAT];
  if (flavorFormat && imageFormat && flavorFormat !== imageFormat) {
    return {
      unsatisfiable: `${REASON_CONFLICT}: ${FLAVOR_FORMAT}=${flavorFormat}, ${IMAGE_FORMAT}=${imageFormat}`,
    };
  }
  const format = flavorFormat || imageFormat;
  if (format && !FORMATS.includes(format)) {
    return {
      unsatisfiable: `${REASON_INVALID_FORMAT}: ${format} (allowed: ${FORMATS.join(', ')})`,
    };
  }
  const traits = format ? [TRAIT, `${TRAIT}_${format.toUpperCase()}`] : [TRAIT];
  return {
    rootRequiredTraits: traits.map((t) => [t]),
    note: `required root traits ${traits.join(', ')}`,
  };
}

/** Creates the hook; it takes no configuration. */
export const create: AmendFactory = () => ({
  name: NAME,
  kind,
  // Failing open would offer hosts that cannot encrypt the ephemeral disks.
  onError: 'closed',
  amendRequest: (req) => encryptionAmendment(req.extraSpecs),
});
