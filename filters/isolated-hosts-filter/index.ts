// IsolatedHostsFilter: images listed as isolated run only on the hosts listed as isolated, and,
// with restrictIsolatedHostsToIsolatedImages (default true), isolated hosts run only isolated
// images (upstream: nova/scheduler/filters/isolated_hosts_filter.py; options from
// nova/conf/scheduler.py [filter_scheduler]). Hosts are named as Nova names them: the root
// provider's name (Nova's host). berth's request carries the image's uuid in the extra spec
// `image:id` (the `image:` scope holds the image, as for ImagePropertiesFilter); a request without
// it is volume-backed (no image), as in Nova. Image uuids are compared case-insensitively.
import {
  booleanField,
  configKeys,
  nameList,
  nameListField,
  pluginConfig,
  withConfig,
} from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'IsolatedHostsFilter';
/** Plugin kind. */
export const kind = 'filter';

/** Extra spec giving the request's image uuid. */
export const IMAGE_ID_SPEC = 'image:id';

/** Rejection: an isolated image on a host that is not isolated. */
export const REASON_ISOLATED_IMAGE = 'isolated image needs an isolated host';
/** Rejection: an isolated host and an image that is not isolated. */
export const REASON_ISOLATED_HOST = 'isolated host runs only isolated images';
/** Reason code of {@link REASON_ISOLATED_IMAGE}. */
export const CODE_ISOLATED_IMAGE = 'isolated_hosts.isolated_image';
/** Reason code of {@link REASON_ISOLATED_HOST}. */
export const CODE_ISOLATED_HOST = 'isolated_hosts.isolated_host';

const CONFIG = pluginConfig({
  isolatedImages: nameListField(
    'Nova `[filter_scheduler] isolated_images`: image uuids that run only on isolated hosts',
  ),
  isolatedHosts: nameListField(
    'Nova `[filter_scheduler] isolated_hosts`: host names that run only isolated images',
  ),
  restrictIsolatedHostsToIsolatedImages: booleanField(
    true,
    'Nova `[filter_scheduler] restrict_isolated_hosts_to_isolated_images`',
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: Nova's `isolated_images`, `isolated_hosts`, `restrict_isolated_hosts_to_isolated_images`. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the filter. Config: `isolatedImages` (image uuids), `isolatedHosts` (host names),
 * `restrictIsolatedHostsToIsolatedImages` (default true).
 * @throws Error when a list is not a list of non-empty strings or the flag is not a boolean.
 */
export const create: FilterFactory<string | null> = withConfig(CONFIG, (config) => {
  const images = new Set(nameList(config.isolatedImages).map((i) => i.toLowerCase()));
  const hosts = new Set(nameList(config.isolatedHosts));
  const restrict = config.restrictIsolatedHostsToIsolatedImages;
  return {
    name: NAME,
    kind,
    onError: 'closed',
    prepare: (req) => req.extraSpecs[IMAGE_ID_SPEC]?.trim().toLowerCase() || null,
    filter(host, _req, image) {
      const hostIsolated = hosts.has(host.name);
      const imageIsolated = images.size > 0 && image !== null && images.has(image);
      if (imageIsolated && !hostIsolated) {
        return {
          fits: false,
          reason: `${REASON_ISOLATED_IMAGE}: image ${image}`,
          code: CODE_ISOLATED_IMAGE,
        };
      }
      if (restrict && hostIsolated && !imageIsolated) {
        const what = image === null ? 'no image' : `image ${image}`;
        return {
          fits: false,
          reason: `${REASON_ISOLATED_HOST}: the request has ${what}`,
          code: CODE_ISOLATED_HOST,
        };
      }
      return { fits: true };
    },
  };
});
