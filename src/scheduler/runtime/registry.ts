// Plugin registry: built-in and operator plugin modules by NAME, and the enabled plugins built from
// config (upstream: nova/loadables.py + nova/scheduler/host_manager.py _choose_host_filters;
// Kubernetes framework/runtime/registry.go).
import { markRunning, restoreRunning } from '../../lib/watchdog';
import type {
  FilterStage,
  PluginHandle,
  PluginKind,
  PluginModule,
  SchedulerPlugin,
  WeigherPlugin,
} from '../plugin-api';
import { configKeys, parsePluginConfig, schemaOf } from '../plugin-config';
import { isHostFilter } from './filter-stage';
import { errorMessage } from './isolation';
import {
  createPipeline,
  type Pipeline,
  type PipelineOptions,
  type SchedulerLogger,
} from './pipeline';

/** Start-up error: bad scheduler configuration or a broken plugin module. */
export class SchedulerConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchedulerConfigError';
  }
}

/** A plugin module and where it came from (`'builtin'` or the file it was loaded from). */
export interface RegisteredPlugin {
  readonly module: PluginModule;
  readonly source: string;
}

/** NAME -> registered module. */
export type PluginRegistry = ReadonlyMap<string, RegisteredPlugin>;

/** Scheduler configuration (the lead's config.ts fills it from the environment / config file). */
export interface SchedulerConfig {
  /** Filter NAMEs in the order they run (Nova `enabled_filters`). */
  readonly enabledFilters: readonly string[];
  /** Weigher NAMEs (Nova `weight_classes`). */
  readonly enabledWeighers: readonly string[];
  /** Per-plugin configuration, by NAME, handed to the plugin's factory. */
  readonly plugins?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** See `PipelineOptions.hostSubsetSize`. */
  readonly hostSubsetSize?: number;
  /** See `PipelineOptions.defaultTimeBudgetMs`. */
  readonly defaultTimeBudgetMs?: number;
  /**
   * What error messages call the settings (e.g. the environment variables they come from);
   * default: the field names.
   */
  readonly settingNames?: {
    readonly enabledFilters?: string;
    readonly enabledWeighers?: string;
    readonly plugins?: string;
  };
}

/** One line of `schedulerPlugins`. */
export interface PluginInfo {
  readonly name: string;
  readonly kind: PluginKind;
  readonly source: string;
  /** 0-based position in `enabledFilters` / `enabledWeighers`, or `null` when not enabled. */
  readonly position: number | null;
}

/**
 * Checks that a loaded value has the plugin module shape.
 * @throws SchedulerConfigError naming `source` when it does not.
 */
export function toPluginModuleOrThrow(value: unknown, source: string): PluginModule {
  const mod = value as
    | (Partial<Record<keyof PluginModule, unknown>> & { default?: unknown })
    | null;
  if (
    mod !== null &&
    typeof mod === 'object' &&
    mod.NAME === undefined &&
    mod.default !== undefined
  ) {
    return toPluginModuleOrThrow(mod.default, source);
  }
  if (mod === null || typeof mod !== 'object' || typeof mod.NAME !== 'string' || mod.NAME === '') {
    throw new SchedulerConfigError(
      `${source}: a scheduler plugin must export a non-empty string NAME`,
    );
  }
  if (mod.kind !== 'filter' && mod.kind !== 'weigher') {
    throw new SchedulerConfigError(
      `${source}: plugin ${mod.NAME} must export kind 'filter' or 'weigher'`,
    );
  }
  if (typeof mod.create !== 'function') {
    throw new SchedulerConfigError(
      `${source}: plugin ${mod.NAME} must export a create(config, handle) function`,
    );
  }
  const schema = mod.configSchema;
  if (schema !== undefined && typeof schema !== 'function') {
    throw new SchedulerConfigError(
      `${source}: plugin ${mod.NAME}: configSchema must be a function (z) => z.object({...}) when exported`,
    );
  }
  let keys = mod.CONFIG_KEYS;
  if (schema !== undefined) {
    try {
      // The schema's keys are the configuration keys (a CONFIG_KEYS export beside it is ignored).
      keys = configKeys(schemaOf(schema as PluginModule['configSchema'] & {}));
    } catch (err) {
      throw new SchedulerConfigError(`${source}: plugin ${mod.NAME}: ${errorMessage(err)}`);
    }
  }
  if (keys !== undefined && !(Array.isArray(keys) && keys.every((k) => typeof k === 'string'))) {
    throw new SchedulerConfigError(
      `${source}: plugin ${mod.NAME}: CONFIG_KEYS must be a list of strings when exported`,
    );
  }
  return {
    NAME: mod.NAME,
    kind: mod.kind,
    create: mod.create as PluginModule['create'],
    ...(keys === undefined ? {} : { CONFIG_KEYS: Object.freeze([...(keys as string[])]) }),
    ...(schema === undefined ? {} : { configSchema: schema as PluginModule['configSchema'] & {} }),
  };
}

/**
 * Builds the registry from the built-in modules and the operator's loaded modules.
 * @throws SchedulerConfigError when two modules share a NAME.
 */
export function createRegistry(
  builtins: readonly PluginModule[],
  operatorPlugins: readonly RegisteredPlugin[] = [],
): PluginRegistry {
  const registry = new Map<string, RegisteredPlugin>();
  const all = [...builtins.map((module) => ({ module, source: 'builtin' })), ...operatorPlugins];
  for (const entry of all) {
    const module = toPluginModuleOrThrow(entry.module, entry.source);
    const existing = registry.get(module.NAME);
    if (existing !== undefined) {
      throw new SchedulerConfigError(
        `scheduler plugin ${module.NAME} is registered twice (${existing.source} and ${entry.source})`,
      );
    }
    registry.set(module.NAME, { module, source: entry.source });
  }
  return registry;
}

function lookupOrThrow(
  registry: PluginRegistry,
  name: string,
  kind: PluginKind,
  setting: string,
): RegisteredPlugin {
  const entry = registry.get(name);
  if (entry === undefined) {
    const known = [...registry.values()]
      .filter((e) => e.module.kind === kind)
      .map((e) => e.module.NAME);
    throw new SchedulerConfigError(
      `${setting}: unknown scheduler ${kind} "${name}"; known ${kind}s: ${known.sort().join(', ') || '(none)'}`,
    );
  }
  if (entry.module.kind !== kind) {
    throw new SchedulerConfigError(
      `${setting}: "${name}" is a ${entry.module.kind}, not a ${kind}`,
    );
  }
  return entry;
}

function checkInstance(plugin: SchedulerPlugin, entry: RegisteredPlugin): void {
  const where = `${entry.module.NAME} (${entry.source})`;
  if (plugin === null || typeof plugin !== 'object' || plugin.name !== entry.module.NAME) {
    throw new SchedulerConfigError(
      `${where}: create() must return a plugin whose name is its NAME`,
    );
  }
  if (plugin.kind !== entry.module.kind) {
    throw new SchedulerConfigError(
      `${where}: create() returned a ${String(plugin.kind)}, module says ${entry.module.kind}`,
    );
  }
  if (plugin.kind === 'filter') {
    if (plugin.onError !== 'open' && plugin.onError !== 'closed') {
      throw new SchedulerConfigError(`${where}: onError must be 'open' or 'closed'`);
    }
    if (!isHostFilter(plugin) && typeof plugin.amendRequest !== 'function') {
      throw new SchedulerConfigError(`${where}: a filter needs filter() or amendRequest()`);
    }
  } else if (typeof plugin.weigh !== 'function' || !Number.isFinite(plugin.multiplier)) {
    throw new SchedulerConfigError(`${where}: a weigher needs weigh() and a finite multiplier`);
  }
}

function instantiate(
  entry: RegisteredPlugin,
  config: SchedulerConfig,
  logger: SchedulerLogger,
): SchedulerPlugin {
  const name = entry.module.NAME;
  let pluginConfig = config.plugins?.[name] ?? {};
  const schema = entry.module.configSchema;
  if (schema !== undefined) {
    try {
      pluginConfig = parsePluginConfig(schemaOf(schema), name, pluginConfig);
    } catch (err) {
      throw new SchedulerConfigError(
        `scheduler plugin ${name} (${entry.source}) failed to start: ${errorMessage(err)}`,
      );
    }
  }
  const handle: PluginHandle = {
    name,
    config: pluginConfig,
    // A log line never fails the plugin's call (fields with throwing getters, say).
    log: (msg, fields) => {
      try {
        logger.info({ plugin: name, ...fields }, String(msg));
      } catch (err) {
        logger.warn(
          { plugin: name, err: errorMessage(err) },
          'plugin log line could not be written',
        );
      }
    },
  };
  let plugin: SchedulerPlugin;
  const previous = markRunning(name);
  try {
    plugin = entry.module.create(pluginConfig, handle);
    checkInstance(plugin, entry);
  } catch (err) {
    if (err instanceof SchedulerConfigError) {
      throw err;
    }
    throw new SchedulerConfigError(
      `scheduler plugin ${name} (${entry.source}) failed to start: ${errorMessage(err)}`,
    );
  } finally {
    restoreRunning(previous);
  }
  return plugin;
}

/**
 * Instantiates the enabled plugins in configured order.
 * @throws SchedulerConfigError for an unknown or twice-enabled name, a kind mismatch, configuration for
 *   an unknown plugin, or a factory that rejects its configuration.
 */
export function instantiatePlugins(
  registry: PluginRegistry,
  config: SchedulerConfig,
  logger: SchedulerLogger = { warn: () => {}, info: () => {} },
): { filters: FilterStage[]; weighers: WeigherPlugin<unknown>[] } {
  for (const [name, settings] of Object.entries(config.plugins ?? {})) {
    const entry = registry.get(name);
    if (entry === undefined) {
      throw new SchedulerConfigError(
        `${config.settingNames?.plugins ?? 'plugins'}: configuration given for unknown scheduler plugin "${name}"; known plugins: ${[...registry.keys()].sort().join(', ')}`,
      );
    }
    const known = entry.module.CONFIG_KEYS;
    const unknown = Object.keys(settings).find((key) => known && !known.includes(key));
    if (known !== undefined && unknown !== undefined) {
      const hint = known.length > 0 ? `known keys: ${known.join(', ')}` : 'it takes none';
      throw new SchedulerConfigError(
        `${config.settingNames?.plugins ?? 'plugins'}.${name}: unknown configuration key "${unknown}"; ${hint}`,
      );
    }
  }
  const build = (names: readonly string[], kind: PluginKind) => {
    const setting =
      kind === 'filter'
        ? (config.settingNames?.enabledFilters ?? 'enabledFilters')
        : (config.settingNames?.enabledWeighers ?? 'enabledWeighers');
    const seen = new Set<string>();
    return names.map((name) => {
      if (seen.has(name)) {
        throw new SchedulerConfigError(`scheduler ${kind} "${name}" is enabled twice`);
      }
      seen.add(name);
      return instantiate(lookupOrThrow(registry, name, kind, setting), config, logger);
    });
  };
  const filters = build(config.enabledFilters, 'filter') as FilterStage[];
  const weighers = build(config.enabledWeighers, 'weigher') as WeigherPlugin<unknown>[];
  return { filters, weighers };
}

/**
 * Instantiates the enabled plugins and builds the pipeline (the composition root's one call).
 * @throws SchedulerConfigError as `instantiatePlugins`, or for an invalid `hostSubsetSize`.
 */
export function buildPipeline(
  registry: PluginRegistry,
  config: SchedulerConfig,
  options: Omit<PipelineOptions, 'hostSubsetSize' | 'defaultTimeBudgetMs'> = {},
): Pipeline {
  const plugins = instantiatePlugins(registry, config, options.logger);
  try {
    return createPipeline(plugins, {
      ...options,
      ...(config.hostSubsetSize === undefined ? {} : { hostSubsetSize: config.hostSubsetSize }),
      ...(config.defaultTimeBudgetMs === undefined
        ? {}
        : { defaultTimeBudgetMs: config.defaultTimeBudgetMs }),
    });
  } catch (err) {
    throw new SchedulerConfigError(errorMessage(err));
  }
}

/** Every registered plugin, sorted by kind then name, with its enabled position (for `schedulerPlugins`). */
export function listPlugins(registry: PluginRegistry, config?: SchedulerConfig): PluginInfo[] {
  return [...registry.values()]
    .map(({ module, source }) => {
      const enabled = module.kind === 'filter' ? config?.enabledFilters : config?.enabledWeighers;
      const index = enabled?.indexOf(module.NAME) ?? -1;
      return { name: module.NAME, kind: module.kind, source, position: index >= 0 ? index : null };
    })
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}
