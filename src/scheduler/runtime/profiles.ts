// Named scheduler profiles: several pipelines in one scheduler, a request naming the one it runs
// (Kubernetes KubeSchedulerConfiguration `profiles` + `schedulerName`; Nova's per-flavor
// behaviour). Profile `default` is the BERTH_SCHEDULER_FILTERS / BERTH_SCHEDULER_WEIGHERS /
// BERTH_SCHEDULER_CONFIG / BERTH_HOST_SUBSET_SIZE pipeline; BERTH_SCHEDULER_PROFILES (JSON or
// `@file`) adds the others. A profile's `filters` / `weighers` replace the default lists (absent:
// the default's); its `plugins` merge over BERTH_SCHEDULER_CONFIG per plugin, key by key.

import { readJsonSetting } from '../../config/json-setting';
import { errorMessage } from './isolation';
import type { Pipeline, SchedulerLogger } from './pipeline';
import {
  buildPipeline,
  type PluginRegistry,
  type SchedulerConfig,
  SchedulerConfigError,
} from './registry';

/** The profile a request runs when it names none. */
export const DEFAULT_PROFILE = 'default';
/** The variable named profiles come from (error messages name it). */
export const PROFILES_VARIABLE = 'BERTH_SCHEDULER_PROFILES';

type PluginSettings = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** One named profile as BERTH_SCHEDULER_PROFILES writes it. */
export interface ProfileSpec {
  /** Filter NAMEs in run order; absent = the default profile's. */
  readonly filters?: readonly string[];
  /** Weigher NAMEs; absent = the default profile's. */
  readonly weighers?: readonly string[];
  /** Per-plugin configuration merged over BERTH_SCHEDULER_CONFIG's, key by key. */
  readonly plugins?: PluginSettings;
  /** Hosts the final pick is drawn from; absent = BERTH_HOST_SUBSET_SIZE. */
  readonly hostSubsetSize?: number;
}

/** The default profile's settings (the BERTH_SCHEDULER_* variables). */
export interface BaseProfile {
  readonly filters: readonly string[];
  readonly weighers: readonly string[];
  readonly plugins: PluginSettings;
  readonly hostSubsetSize: number;
}

/** A profile built into a pipeline. */
export interface BuiltProfile {
  readonly name: string;
  /** What it was built from (merged plugin configuration included). */
  readonly config: SchedulerConfig;
  readonly pipeline: Pipeline;
}

const PROFILE_KEYS = ['filters', 'weighers', 'plugins', 'hostSubsetSize'];
const PROFILE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function fail(message: string): never {
  throw new SchedulerConfigError(`${PROFILES_VARIABLE}: ${message}`);
}

function namesOrThrow(profile: string, key: string, v: unknown): string[] {
  if (!Array.isArray(v) || v.some((n) => typeof n !== 'string' || n.trim() === '')) {
    fail(`profile "${profile}": ${key} must be a list of plugin names (in run order)`);
  }
  return v.map((n: string) => n.trim());
}

function profileOrThrow(name: string, v: unknown): ProfileSpec {
  if (!PROFILE_NAME.test(name)) {
    fail(`"${name}" is not a profile name (letters, digits, '.', '_', '-'; at most 63)`);
  }
  if (name === DEFAULT_PROFILE) {
    fail(
      `profile "${DEFAULT_PROFILE}" is BERTH_SCHEDULER_FILTERS / BERTH_SCHEDULER_WEIGHERS / BERTH_SCHEDULER_CONFIG; give yours another name`,
    );
  }
  if (!isObject(v)) {
    fail(
      `profile "${name}" must be an object { "filters"?, "weighers"?, "plugins"?, "hostSubsetSize"? }`,
    );
  }
  const unknown = Object.keys(v).find((k) => !PROFILE_KEYS.includes(k));
  if (unknown !== undefined) {
    fail(`profile "${name}": unknown key "${unknown}"; known keys: ${PROFILE_KEYS.join(', ')}`);
  }
  const { filters, weighers, plugins, hostSubsetSize } = v;
  if (plugins !== undefined && !(isObject(plugins) && Object.values(plugins).every(isObject))) {
    fail(`profile "${name}": plugins must be an object { "PluginName": { ...config } }`);
  }
  const subset = hostSubsetSize;
  if (
    subset !== undefined &&
    !(typeof subset === 'number' && Number.isInteger(subset) && subset >= 1 && subset <= 1000)
  ) {
    fail(`profile "${name}": hostSubsetSize must be a whole number from 1 to 1000`);
  }
  return {
    ...(filters === undefined ? {} : { filters: namesOrThrow(name, 'filters', filters) }),
    ...(weighers === undefined ? {} : { weighers: namesOrThrow(name, 'weighers', weighers) }),
    ...(plugins === undefined ? {} : { plugins: plugins as PluginSettings }),
    ...(subset === undefined ? {} : { hostSubsetSize: subset as number }),
  };
}

/**
 * Parses BERTH_SCHEDULER_PROFILES: JSON, or `@file` read now (a reload calls it again).
 * @throws SchedulerConfigError naming the variable (and the profile) for an unreadable file,
 *   text that is not JSON, or a profile of the wrong shape.
 */
export function parseProfilesOrThrow(raw: string | undefined): Map<string, ProfileSpec> {
  if (raw === undefined || raw.trim() === '') {
    return new Map();
  }
  let value: unknown;
  let protoKey = false;
  try {
    ({ value, protoKey } = readJsonSetting(raw));
  } catch (err) {
    fail(errorMessage(err));
  }
  if (protoKey) {
    fail('"__proto__" is not a profile, plugin or key name');
  }
  if (!isObject(value)) {
    fail(
      'must be a JSON object { "profile-name": { "filters"?, "weighers"?, "plugins"?, "hostSubsetSize"? } }',
    );
  }
  return new Map(Object.entries(value).map(([name, v]) => [name, profileOrThrow(name, v)]));
}

function mergePlugins(base: PluginSettings, over: PluginSettings | undefined): PluginSettings {
  const merged: Record<string, Readonly<Record<string, unknown>>> = { ...base };
  for (const [name, settings] of Object.entries(over ?? {})) {
    merged[name] = { ...base[name], ...settings };
  }
  return merged;
}

/** Every profile's SchedulerConfig, `default` first, then the named ones in the order given. */
export function profileConfigs(
  base: BaseProfile,
  profiles: ReadonlyMap<string, ProfileSpec>,
): Map<string, SchedulerConfig> {
  const configs = new Map<string, SchedulerConfig>([
    [
      DEFAULT_PROFILE,
      {
        enabledFilters: base.filters,
        enabledWeighers: base.weighers,
        plugins: base.plugins,
        hostSubsetSize: base.hostSubsetSize,
        settingNames: {
          enabledFilters: 'BERTH_SCHEDULER_FILTERS',
          enabledWeighers: 'BERTH_SCHEDULER_WEIGHERS',
          plugins: 'BERTH_SCHEDULER_CONFIG',
        },
      },
    ],
  ]);
  for (const [name, p] of profiles) {
    configs.set(name, {
      enabledFilters: p.filters ?? base.filters,
      enabledWeighers: p.weighers ?? base.weighers,
      plugins: mergePlugins(base.plugins, p.plugins),
      hostSubsetSize: p.hostSubsetSize ?? base.hostSubsetSize,
      settingNames: { enabledFilters: 'filters', enabledWeighers: 'weighers', plugins: 'plugins' },
    });
  }
  return configs;
}

/**
 * Builds every profile's pipeline (all of them, so a bad one fails now, not on first use).
 * @throws SchedulerConfigError; for a named profile the message starts
 *   `BERTH_SCHEDULER_PROFILES: profile "<name>": `.
 */
export function buildProfilesOrThrow(
  registry: PluginRegistry,
  configs: ReadonlyMap<string, SchedulerConfig>,
  logger: SchedulerLogger,
): Map<string, BuiltProfile> {
  const built = new Map<string, BuiltProfile>();
  for (const [name, config] of configs) {
    try {
      built.set(name, { name, config, pipeline: buildPipeline(registry, config, { logger }) });
    } catch (err) {
      if (name === DEFAULT_PROFILE) {
        throw err;
      }
      fail(`profile "${name}": ${errorMessage(err)}`);
    }
  }
  return built;
}
