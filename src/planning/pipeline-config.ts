// The pipelines a simulation runs (src/planning/simulation.ts): a running profile's, or one made
// of a base profile and overrides (filters, weighers, plugin settings, host subset size, plugin
// directories not yet deployed), each built afresh from the current generation's registry and
// profile configurations with a seeded random source, so the same seed gives the same ranking
// tie-breaks and host-subset picks. Nothing here changes the running pipelines.
import { mulberry32 } from '../lib/seeded-random';
import { BadRequestError, ErrorCode } from '../placement/errors';
import type { SchedulerLogger } from '../scheduler/runtime/pipeline';
import type { ChosenPipeline, PipelineGeneration } from '../scheduler/runtime/pipeline-set';
import { forgetPluginModules } from '../scheduler/runtime/pipeline-set';
import { loadPluginDirs } from '../scheduler/runtime/plugin-dirs';
import { DEFAULT_PROFILE } from '../scheduler/runtime/profiles';
import {
  buildPipeline,
  type PluginRegistry,
  type RegisteredPlugin,
  type SchedulerConfig,
} from '../scheduler/runtime/registry';

/** A pipeline of the caller's own: a base profile and what replaces its settings. */
export interface PipelineOverrides {
  /** The base profile (default `default`); unset fields come from it. */
  readonly profile?: string;
  readonly filters?: readonly string[];
  readonly weighers?: readonly string[];
  /** JSON text: per-plugin settings merged over the base profile's, key by key. */
  readonly plugins?: string;
  readonly hostSubsetSize?: number;
  /** Directories on this server with plugins not yet deployed (loaded inline). */
  readonly pluginDirs?: readonly string[];
}

/** What a simulation runs: a profile by name, or overrides of one. */
export type SimulationConfiguration =
  | { readonly profile: string }
  | { readonly pipeline: PipelineOverrides };

/** A built simulation pipeline: what runs, what it is called, and what releases it. */
export interface SimulationPipeline {
  readonly chosen: ChosenPipeline;
  /** The profile name, or `custom` for overrides. */
  readonly label: string;
  /** Forgets the modules of its plugin directories (none: nothing to do). */
  dispose(): void;
}

const QUIET: SchedulerLogger = { warn: () => {}, info: () => {} };

/** Pipelines built with plugin directories so far (each gets a key of its own). */
let loads = 0;

/** A seeded source of uniform numbers in [0, 1) (mulberry32). */
export const seededRandom = mulberry32;

function invalid(message: string): BadRequestError {
  return new BadRequestError(
    `Simulation pipeline: ${message}`,
    ErrorCode.SIMULATION_INVALID_PIPELINE,
  );
}

function baseConfigOrThrow(gen: PipelineGeneration, profile: string): SchedulerConfig {
  const built = gen.profiles.get(profile);
  if (!built) {
    throw invalid(
      `unknown scheduler profile "${profile}"; known profiles: ${[...gen.profiles.keys()].join(', ')}`,
    );
  }
  return built.config;
}

type Settings = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

function pluginSettingsOrThrow(text: string): Settings {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw invalid(`plugins is not JSON: ${(err as Error).message}`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(value) || !Object.values(value).every(isObject)) {
    throw invalid('plugins must be a JSON object { "PluginName": { ...settings } }');
  }
  if (Object.hasOwn(value, '__proto__')) {
    throw invalid('"__proto__" is not a plugin name');
  }
  return value as Settings;
}

function mergeSettings(base: Settings, over: Settings): Settings {
  const merged: Record<string, Readonly<Record<string, unknown>>> = { ...base };
  for (const [name, settings] of Object.entries(over)) {
    merged[name] = { ...base[name], ...settings };
  }
  return merged;
}

/** The registry with the plugins of `dirs` added; one of the same NAME replaces the running one. */
function registryWith(base: PluginRegistry, dirs: readonly string[]): PluginRegistry {
  let loaded: RegisteredPlugin[];
  try {
    loaded = loadPluginDirs(dirs);
  } catch (err) {
    throw invalid(`plugin directory: ${(err as Error).message}`);
  }
  const registry = new Map(base);
  const seen = new Set<string>();
  for (const entry of loaded) {
    if (seen.has(entry.module.NAME)) {
      throw invalid(`plugin ${entry.module.NAME} is in the plugin directories twice`);
    }
    seen.add(entry.module.NAME);
    registry.set(entry.module.NAME, entry);
  }
  return registry;
}

/**
 * Builds the pipeline a simulation runs, with random numbers from `seed`.
 * @throws BadRequestError SIMULATION_INVALID_PIPELINE naming what does not build.
 */
export function simulationPipeline(
  gen: PipelineGeneration,
  configuration: SimulationConfiguration,
  seed: number,
): SimulationPipeline {
  const rng = seededRandom(seed);
  if ('profile' in configuration) {
    const config = baseConfigOrThrow(gen, configuration.profile);
    const pipeline = build(gen.registry, config, rng);
    // The running profile's key (src/scheduler/runtime/pipeline-set.ts): the same pipeline.
    const key = JSON.stringify([gen.number, configuration.profile, null]);
    return {
      chosen: { pipeline, profile: configuration.profile, key },
      label: configuration.profile,
      dispose: () => {},
    };
  }
  const o = configuration.pipeline;
  const profile = o.profile ?? DEFAULT_PROFILE;
  const base = baseConfigOrThrow(gen, profile);
  const subset = o.hostSubsetSize;
  if (subset !== undefined && !(Number.isInteger(subset) && subset >= 1 && subset <= 1000)) {
    throw invalid(`hostSubsetSize must be a whole number from 1 to 1000 (got ${subset})`);
  }
  const config: SchedulerConfig = {
    ...base,
    enabledFilters: o.filters ?? base.enabledFilters,
    enabledWeighers: o.weighers ?? base.enabledWeighers,
    plugins: o.plugins
      ? mergeSettings(base.plugins ?? {}, pluginSettingsOrThrow(o.plugins))
      : base.plugins,
    hostSubsetSize: subset ?? base.hostSubsetSize,
    settingNames: { enabledFilters: 'filters', enabledWeighers: 'weighers', plugins: 'plugins' },
  };
  const dirs = o.pluginDirs ?? [];
  const dispose = () => {
    if (dirs.length > 0) {
      forgetPluginModules(dirs);
    }
  };
  try {
    const registry = dirs.length > 0 ? registryWith(gen.registry, dirs) : gen.registry;
    const pipeline = build(registry, config, rng);
    // Names exactly this pipeline: plugin files not yet deployed may change between two calls.
    const key = JSON.stringify([
      'simulation',
      gen.number,
      dirs.length > 0 ? `${dirs.join(':')}#${++loads}` : null,
      config.enabledFilters,
      config.enabledWeighers,
      config.plugins ?? null,
      config.hostSubsetSize ?? null,
    ]);
    return { chosen: { pipeline, profile, key }, label: 'custom', dispose };
  } catch (err) {
    dispose();
    throw err;
  }
}

function build(registry: PluginRegistry, config: SchedulerConfig, rng: () => number) {
  try {
    return buildPipeline(registry, config, { rng, logger: QUIET });
  } catch (err) {
    throw err instanceof BadRequestError ? err : invalid((err as Error).message);
  }
}
