// AggregateImagePropertiesIsolation: a host in an aggregate whose metadata key is an image property
// takes only images whose value for that property is among the key's values (upstream:
// nova/scheduler/filters/aggregate_image_properties_isolation.py; options from nova/conf/scheduler.py
// [filter_scheduler]). Image properties come in the extra specs under the `image:` scope, as for
// ImagePropertiesFilter (`image:os_distro` = `windows`), legacy names included (`image:architecture`).
// As in Nova: metadata keys that are not image properties Nova knows are ignored, an image without
// the property (or with a false or empty value) passes, values are compared as Python's `str()` of
// the coerced property (`hw_qemu_guest_agent=yes` is `True`, `hw_cpu_cores=02` is `2`, `amd64` is
// `x86_64`), the image's value is not split on commas, the aggregates' values are.
import {
  aggregateMetadataUnion,
  checkedField,
  configKeys,
  pluginConfig,
} from '../../src/scheduler/helpers';
import type { FilterFactory, PluginHandle } from '../../src/scheduler/plugin-api';
import { IMAGE_META_FIELDS, imageMetaProps, type PropertyValue } from './image-meta-props';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'AggregateImagePropertiesIsolation';
/** Plugin kind. */
export const kind = 'filter';

/** The extra-spec scope image properties are given under. */
export const SCOPE = 'image:';

/** Rejection: the image's value of a property is not among the aggregate's values. */
export const REASON_PROPERTY_MISMATCH = 'image property not allowed by aggregate metadata';
/** Rejection: an image property cannot be read as Nova's field type. */
export const REASON_INVALID_PROPERTY = 'invalid image property';
/** Reason code of {@link REASON_PROPERTY_MISMATCH}. */
export const CODE_PROPERTY_MISMATCH = 'aggregate_image_properties.mismatch';
/** Reason code of {@link REASON_INVALID_PROPERTY}. */
export const CODE_INVALID_PROPERTY = 'aggregate_image_properties.invalid_property';

type State = ReadonlyMap<string, PropertyValue> | { readonly error: string };

function readStringOrThrow(handle: PluginHandle, key: string, fallback: string): string {
  const value = handle.config[key] ?? fallback;
  if (typeof value !== 'string') {
    throw new Error(
      `${handle.name}: config "${key}" must be a string, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** The raw image properties of a request: its `image:` extra specs, scope removed. */
export function imageProperties(
  extraSpecs: Readonly<Record<string, string>>,
): Record<string, string> {
  const props: Record<string, string> = {};
  for (const [key, value] of Object.entries(extraSpecs)) {
    if (key.startsWith(SCOPE)) {
      props[key.slice(SCOPE.length)] = value;
    }
  }
  return props;
}

const CONFIG = pluginConfig({
  aggregateImagePropertiesIsolationNamespace: checkedField(
    'string',
    'none',
    'Nova `[filter_scheduler] aggregate_image_properties_isolation_namespace`',
    () => undefined,
  ),
  aggregateImagePropertiesIsolationSeparator: checkedField(
    'string',
    '`.`',
    'Nova `[filter_scheduler] aggregate_image_properties_isolation_separator`',
    () => undefined,
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: Nova's `aggregate_image_properties_isolation_{namespace,separator}`. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the filter. Config: `aggregateImagePropertiesIsolationNamespace` (only metadata keys
 * starting with it and the separator are read; default: every key) and
 * `aggregateImagePropertiesIsolationSeparator` (default `.`).
 * @throws Error when either is not a string.
 */
export const create: FilterFactory<State> = (_config, handle) => {
  const namespace = readStringOrThrow(handle, 'aggregateImagePropertiesIsolationNamespace', '');
  const separator = readStringOrThrow(handle, 'aggregateImagePropertiesIsolationSeparator', '.');
  const prefix = namespace === '' ? '' : namespace + separator;
  return {
    name: NAME,
    kind,
    onError: 'closed',
    prepare(req) {
      try {
        return imageMetaProps(imageProperties(req.extraSpecs));
      } catch (err) {
        return { error: (err as Error).message };
      }
    },
    filter(host, _req, props) {
      if ('error' in props) {
        return {
          fits: false,
          reason: `${REASON_INVALID_PROPERTY}: ${props.error}`,
          code: CODE_INVALID_PROPERTY,
        };
      }
      if (props.size === 0) {
        return { fits: true };
      }
      for (const [key, options] of aggregateMetadataUnion(host.aggregates)) {
        if (!key.startsWith(prefix) || !IMAGE_META_FIELDS.has(key)) {
          continue;
        }
        const prop = props.get(key);
        if (prop?.truthy && !options.includes(prop.text)) {
          const allowed = options.map((o) => `"${o}"`).join(', ');
          return {
            fits: false,
            reason: `${REASON_PROPERTY_MISMATCH}: ${key}="${prop.text}", the host takes ${allowed}`,
            code: CODE_PROPERTY_MISMATCH,
          };
        }
      }
      return { fits: true };
    },
  };
};
