// The scheduler part of the environment: plugin lists (with their defaults) and the per-plugin
// configuration of BERTH_SCHEDULER_CONFIG (config.ts reads the rest).
import { z } from 'zod';
import { ConfigError } from './config-error';
import { readJsonSetting } from './json-setting';

/**
 * Filters enabled when BERTH_SCHEDULER_FILTERS is unset. AvailabilityZoneFilter, SameHostFilter,
 * DifferentHostFilter and the ServerGroup filters pass every host unless a request asks for a
 * zone or gives their hint (ScheduleInput.availabilityZone / sameHost / differentHost / group), so
 * they cost nothing by default and what a caller asks for is never silently ignored.
 */
export const DEFAULT_FILTERS = [
  'AvailabilityZoneFilter',
  'ComputeFilter',
  'RamFilter',
  'DiskFilter',
  'AggregateInstanceExtraSpecsFilter',
  'SameHostFilter',
  'DifferentHostFilter',
  'ServerGroupAntiAffinityFilter',
  'ServerGroupAffinityFilter',
];
/** Weighers enabled when BERTH_SCHEDULER_WEIGHERS is unset (the soft server-group ones weigh 0 without a group). */
export const DEFAULT_WEIGHERS = [
  'RAMWeigher',
  'DiskWeigher',
  'CPUWeigher',
  'ServerGroupSoftAffinityWeigher',
  'ServerGroupSoftAntiAffinityWeigher',
];

/**
 * A comma-separated list of plugin names, `fallback` when unset; `none` = an empty list.
 * @throws ConfigError for a value naming nothing (',' or '') or with empty entries ('A,,B').
 */
export function list(name: string, v: string | undefined, fallback: readonly string[]): string[] {
  if (v === undefined) {
    return [...fallback];
  }
  if (v.trim() === 'none') {
    return [];
  }
  const names = v.split(',').map((x) => x.trim());
  if (names.some((x) => x.length === 0)) {
    throw new ConfigError(
      `invalid ${name}: '${v}' has an empty name; list names separated by commas, or set it to 'none' to run none`,
    );
  }
  return names;
}

/**
 * Parses BERTH_SCHEDULER_CONFIG (JSON, or `@file` read now).
 * @throws ConfigError naming the variable.
 */
export function pluginConfigOrThrow(
  raw: string | undefined,
): Record<string, Record<string, unknown>> {
  if (!raw) {
    return {};
  }
  let value: unknown;
  let protoKey: boolean;
  try {
    ({ value, protoKey } = readJsonSetting(raw));
  } catch (err) {
    throw new ConfigError(`invalid BERTH_SCHEDULER_CONFIG: ${(err as Error).message}`);
  }
  // Lists of enabled plugins are variables of their own (a common mistake: Nova keeps them in
  // the same [filter_scheduler] section as plugin options).
  const lists: Record<string, string> = {
    enabledFilters: 'BERTH_SCHEDULER_FILTERS',
    enabled_filters: 'BERTH_SCHEDULER_FILTERS',
    enabledWeighers: 'BERTH_SCHEDULER_WEIGHERS',
    weight_classes: 'BERTH_SCHEDULER_WEIGHERS',
  };
  const listKey =
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.keys(value).find((k) => Object.hasOwn(lists, k))
      : undefined;
  if (listKey !== undefined) {
    const variable = lists[listKey]!;
    const defaults = variable === 'BERTH_SCHEDULER_FILTERS' ? DEFAULT_FILTERS : DEFAULT_WEIGHERS;
    throw new ConfigError(
      `invalid BERTH_SCHEDULER_CONFIG: "${listKey}" is not a plugin; set ${variable} to the comma-separated names in run order (it replaces the defaults: ${defaults.join(',')})`,
    );
  }
  if (protoKey) {
    // It would be dropped or become a prototype, silently: neither is a setting.
    throw new ConfigError(
      'invalid BERTH_SCHEDULER_CONFIG: "__proto__" is not a plugin or key name',
    );
  }
  const parsed = pluginConfigSchema.safeParse(value);
  if (!parsed.success) {
    // Plugin names and their keys are checked against the registry once plugins are loaded
    // (src/scheduler/registry.ts: unknown names and undeclared keys stop start-up).
    const shape = 'must be a JSON object { "PluginName": { ...config } }';
    const plugin = parsed.error.issues[0]?.path[0];
    throw new ConfigError(
      `invalid BERTH_SCHEDULER_CONFIG: ${plugin === undefined ? '' : `the configuration of "${String(plugin)}" is not an object; `}${shape}`,
    );
  }
  return parsed.data;
}

/** BERTH_SCHEDULER_CONFIG's shape: an object of per-plugin configuration objects. */
const pluginConfigSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
