// The scheduler pipelines running now, one per profile, and their reload without a restart
// (the SIGHUP reload of nginx / HAProxy; the scheduler configuration is rebuilt whole and swapped).
// A generation is everything one load built: the plugin registry (operator plugin files read
// afresh), every profile's pipeline, and the per-request filter-override pipelines made from them.
// Building is synchronous, so the swap is atomic: a request holds the pipeline it was handed and
// finishes on it, whatever a reload does meanwhile. A load that fails changes nothing.
import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { BadRequestError, ErrorCode } from '../../placement/errors';
import type { Pipeline, SchedulerLogger } from './pipeline';
import { type BuiltProfile, DEFAULT_PROFILE } from './profiles';
import { buildPipeline, type PluginRegistry } from './registry';

/** What one load built (the composition root's loader returns it). */
export interface LoadedPipelines {
  readonly registry: PluginRegistry;
  /** Every profile, `default` among them. */
  readonly profiles: ReadonlyMap<string, BuiltProfile>;
  /** Releases what the load holds (e.g. out-of-process plugins) once it is no longer current. */
  readonly dispose?: () => void;
}

/** One generation of pipelines. */
export interface PipelineGeneration extends LoadedPipelines {
  /** 1 for the start-up load, then one more per successful reload. */
  readonly number: number;
  readonly loadedAt: Date;
}

/** The pipeline one request runs, and a key naming exactly that pipeline (for shared evaluations). */
export interface ChosenPipeline {
  readonly pipeline: Pipeline;
  /** The profile that runs. */
  readonly profile: string;
  /** Generation, profile and filter override: equal keys mean the same pipeline. */
  readonly key: string;
}

/** Most filter-override pipelines kept per generation. */
const MAX_OVERRIDES = 100;

/** The current generation of pipelines; `reload()` replaces it. */
export class PipelineSet {
  private gen: PipelineGeneration;
  private overrides = new Map<string, Pipeline>();

  /**
   * Loads generation 1.
   * @throws whatever `load` throws (start-up stops).
   */
  constructor(
    private readonly load: () => LoadedPipelines,
    private readonly logger: SchedulerLogger,
  ) {
    this.gen = { ...load(), number: 1, loadedAt: new Date() };
  }

  /** The generation running now. */
  get current(): PipelineGeneration {
    return this.gen;
  }

  /**
   * The pipeline for `profile` (default `default`), with the admin's filter order override.
   * @throws BadRequestError UNKNOWN_PROFILE naming the known profiles; UNKNOWN_PLUGIN for a
   *   filter override that does not build.
   */
  pipelineFor(profile: string = DEFAULT_PROFILE, filters?: readonly string[]): ChosenPipeline {
    const gen = this.gen;
    const built = gen.profiles.get(profile);
    if (built === undefined) {
      throw new BadRequestError(
        `Unknown scheduler profile "${profile}"; known profiles: ${[...gen.profiles.keys()].join(', ')}`,
        ErrorCode.UNKNOWN_PROFILE,
      );
    }
    const key = JSON.stringify([gen.number, profile, filters ?? null]);
    if (!filters) {
      return { pipeline: built.pipeline, profile, key };
    }
    let pipeline = this.overrides.get(key);
    if (!pipeline) {
      try {
        pipeline = buildPipeline(
          gen.registry,
          {
            ...built.config,
            enabledFilters: filters,
            settingNames: { ...built.config.settingNames, enabledFilters: 'filters' },
          },
          { logger: this.logger },
        );
      } catch (err) {
        throw new BadRequestError(
          `Invalid filters for this request: ${(err as Error).message}`,
          ErrorCode.UNKNOWN_PLUGIN,
        );
      }
      if (this.overrides.size >= MAX_OVERRIDES) {
        this.overrides.clear();
      }
      this.overrides.set(key, pipeline);
    }
    return { pipeline, profile, key };
  }

  /**
   * Loads a new generation and swaps it in; the old one is disposed of. Requests already running
   * keep the pipelines they were handed.
   * @throws whatever `load` throws; the running generation is kept.
   */
  reload(): PipelineGeneration {
    const next: PipelineGeneration = {
      ...this.load(),
      number: this.gen.number + 1,
      loadedAt: new Date(),
    };
    const old = this.gen;
    this.gen = next;
    this.overrides = new Map();
    old.dispose?.();
    return next;
  }
}

/**
 * Drops the CommonJS modules loaded from under `dirs` from Node's module cache, so the next
 * `require` reads the operator's plugin files (and the helpers they require) from disk again.
 * ES modules (`.mjs`) stay cached by Node for the life of the process.
 */
export function forgetPluginModules(dirs: readonly string[]): void {
  const roots = dirs.flatMap((d) => {
    const abs = resolve(d);
    try {
      return [abs, realpathSync(abs)];
    } catch {
      return [abs];
    }
  });
  for (const file of Object.keys(require.cache)) {
    if (roots.some((root) => file.startsWith(root + sep))) {
      delete require.cache[file];
    }
  }
}
