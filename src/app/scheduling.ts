// Composition of the scheduler: built-in plugins plus operator plugin directories, a pipeline per
// profile (and per admin filter override), the candidate cache and the service. Everything the
// configuration builds is built by one loader, run at start-up (a bad profile or plugin stops it,
// naming the variable) and again by reload() (SIGHUP, reloadScheduler), which swaps the result in
// or keeps the running pipelines when the new configuration does not build.
import { builtinPlugins } from '../../filters/registry';
import type { Cache } from '../cache/cache';
import { type Config, pluginConfigOrThrow } from '../config/config';
import type { Logger } from '../observability/logger';
import type { StageObserver } from '../observability/stage';
import { ClaimService } from '../placement/claims';
import { hostsOfConsumers } from '../placement/consumer';
import { BadRequestError, ErrorCode } from '../placement/errors';
import { AggregateMetadataCache } from '../placement/host-rows';
import type { PlanningDeps } from '../planning/planning-view';
import type { ClaimWriter } from '../scheduler/claiming/claim-batcher';
import { errorMessage } from '../scheduler/runtime/isolation';
import { type OperatorPlugins, outOfProcessPlugins } from '../scheduler/runtime/out-of-process';
import {
  forgetPluginModules,
  type LoadedPipelines,
  type PipelineGeneration,
  PipelineSet,
} from '../scheduler/runtime/pipeline-set';
import {
  buildProfilesOrThrow,
  DEFAULT_PROFILE,
  parseProfilesOrThrow,
  profileConfigs,
} from '../scheduler/runtime/profiles';
import {
  createRegistry,
  listPlugins,
  type PluginInfo,
  type SchedulerConfig,
} from '../scheduler/runtime/registry';
import { SchedulingService } from '../scheduler/scheduling-service';
import { CandidateCache } from '../scheduler/state/candidate-cache';
import { EvaluationMemo } from '../scheduler/state/evaluation-memo';
import { HostViewCache } from '../scheduler/state/host-view-cache';
import type { Services } from './services';

/** One profile as `schedulerProfiles` shows it. */
export interface ProfileInfo {
  readonly name: string;
  readonly filters: readonly string[];
  readonly weighers: readonly string[];
  readonly hostSubsetSize: number;
  /** Per-plugin configuration, BERTH_SCHEDULER_CONFIG's merged with the profile's. */
  readonly plugins: Readonly<Record<string, unknown>>;
}

/** The scheduler as the adapters see it. */
export interface Scheduling {
  readonly service: SchedulingService;
  /** Moves started by `schedule` (confirmMove / revertMove). */
  readonly moves: ClaimService;
  /** The pipelines running now, one per profile (planning builds candidate ones beside them). */
  readonly pipelines: PipelineSet;
  /** What capacity planning reads from this replica (src/planning/planning-view.ts). */
  readonly planning: PlanningDeps;
  readonly cache: CandidateCache;
  /** The default profile's configuration, as of the current generation. */
  readonly config: SchedulerConfig;
  /** The pipeline generation running now (1 at start-up, +1 per reload). */
  readonly generation: number;
  /** Every registered plugin with its position in the default profile. */
  plugins(): PluginInfo[];
  /** The profiles running now, `default` first. */
  profiles(): ProfileInfo[];
  /**
   * Re-reads BERTH_SCHEDULER_CONFIG / BERTH_SCHEDULER_PROFILES files and BERTH_PLUGIN_DIRS,
   * rebuilds every pipeline and swaps them in. Logs the outcome.
   * @throws BadRequestError SCHEDULER_RELOAD_FAILED when the new configuration does not build
   *   (the running pipelines are kept).
   */
  reload(): PipelineGeneration;
  /** Stops the plugin worker threads, if any (the app's close()). */
  close(): Promise<void>;
}

/** How the scheduler is observed (src/observability/app-metrics.ts); bare calls when absent. */
export interface SchedulingObservation {
  readonly stages: StageObserver;
  claimWriter(writer: ClaimWriter): ClaimWriter;
}

/**
 * Builds the scheduler.
 * @throws SchedulerConfigError for unknown, duplicate or misconfigured plugins or profiles.
 */
export function createScheduling(
  config: Config,
  services: Services,
  cache: Cache,
  log: Logger,
  observed?: SchedulingObservation,
): Scheduling {
  const logger = log.child({ component: 'scheduler' });
  let loads = 0;
  const load = (): LoadedPipelines => {
    // Start-up uses the configuration as parsed; a reload reads the @file values again.
    const plugins =
      loads++ === 0
        ? config.scheduler.plugins
        : pluginConfigOrThrow(config.scheduler.sources.config);
    forgetPluginModules(config.pluginDirs);
    // BERTH_PLUGIN_DIRS (inline or BERTH_PLUGIN_ISOLATION=worker) + BERTH_SCHEDULER_EXTENDERS.
    const extra = outOfProcessPlugins(config, logger);
    try {
      const registry = createRegistry(builtinPlugins, extra.plugins);
      const configs = profileConfigs(
        {
          filters: config.scheduler.filters,
          weighers: config.scheduler.weighers,
          plugins,
          hostSubsetSize: config.scheduler.hostSubsetSize,
        },
        parseProfilesOrThrow(config.scheduler.sources.profiles),
      );
      const loaded = { registry, profiles: buildProfilesOrThrow(registry, configs, logger) };
      // The new generation's workers replace the old one's (whose in-flight calls then fail per onError).
      void operator?.close();
      operator = extra;
      return loaded;
    } catch (err) {
      void extra.close();
      throw err;
    }
  };
  let operator: OperatorPlugins | undefined;
  const pipelines = new PipelineSet(load, logger);
  const defaultConfig = () => pipelines.current.profiles.get(DEFAULT_PROFILE)!.config;
  const candidateCache = new CandidateCache(
    cache,
    services.changes,
    config.scheduler.cacheTtlMs,
    config.scheduler.sharedCandidateCache,
  );
  const moves = new ClaimService(
    services.dataSource,
    services.changes,
    services.allocations,
    services.providers,
  );
  const hostViews = new HostViewCache();
  const aggregates = new AggregateMetadataCache(services.dataSource, services.changes);
  const instanceHosts = (uuids: readonly string[]) => hostsOfConsumers(services.dataSource, uuids);
  const serverGroups = (uuid: string, placing: readonly string[]) =>
    services.serverGroups.placement(uuid, placing);
  const service = new SchedulingService({
    candidates: services.candidates,
    pipelineFor: (profile, filters) => pipelines.pipelineFor(profile, filters),
    candidateCache,
    hostViews,
    aggregates,
    evaluations: new EvaluationMemo(config.scheduler.evaluationReuseMs),
    claimService: moves,
    claimBatch: config.scheduler.claimBatch,
    ...(observed ? { observeClaims: (writer: ClaimWriter) => observed.claimWriter(writer) } : {}),
    log,
    instanceHosts,
    serverGroups,
    maxClaimAttempts: config.scheduler.maxClaimAttempts,
    ...(observed ? { stages: observed.stages } : {}),
  });
  return {
    service,
    moves,
    pipelines,
    planning: {
      candidates: services.candidates,
      aggregates,
      hostViews,
      instanceHosts,
      serverGroups,
      bounds: config.limits.candidates,
      flavors: config.planning.flavors,
    },
    cache: candidateCache,
    get config() {
      return defaultConfig();
    },
    get generation() {
      return pipelines.current.number;
    },
    plugins: () => listPlugins(pipelines.current.registry, defaultConfig()),
    profiles: () => [...pipelines.current.profiles.values()].map(profileInfo),
    close: async () => operator?.close(),
    reload: () => {
      try {
        const gen = pipelines.reload();
        logger.info(
          { generation: gen.number, profiles: [...gen.profiles.keys()] },
          'scheduler configuration reloaded',
        );
        return gen;
      } catch (err) {
        const generation = pipelines.current.number;
        logger.error(
          { err: errorMessage(err), generation },
          'scheduler configuration not reloaded: the running pipelines are kept',
        );
        throw new BadRequestError(
          `Scheduler configuration not reloaded (generation ${generation} keeps running): ${errorMessage(err)}`,
          ErrorCode.SCHEDULER_RELOAD_FAILED,
        );
      }
    },
  };
}

function profileInfo(p: { name: string; config: SchedulerConfig }): ProfileInfo {
  return {
    name: p.name,
    filters: p.config.enabledFilters,
    weighers: p.config.enabledWeighers,
    hostSubsetSize: p.config.hostSubsetSize ?? 1,
    plugins: p.config.plugins ?? {},
  };
}
