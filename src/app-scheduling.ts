// Composition of the scheduler: built-in plugins plus operator plugin directories, the pipeline
// for the configured order (and per-request overrides), the candidate cache and the service.
// Fails at start-up, naming the plugin, when the configuration enables something unknown.
import { builtinPlugins } from '../filters/registry';
import type { Cache } from './cache/cache';
import type { Config } from './config';
import type { Logger } from './logger';
import { ClaimService } from './placement/claims';
import { hostsOfConsumers } from './placement/consumer';
import { BadRequestError, ErrorCode } from './placement/errors';
import { AggregateMetadataCache } from './placement/host-rows';
import { ClaimBatcher } from './scheduler/claiming/claim-batcher';
import type { Pipeline } from './scheduler/runtime/pipeline';
import {
  buildPipeline,
  createRegistry,
  listPlugins,
  loadPluginDirs,
  type PluginInfo,
  type SchedulerConfig,
} from './scheduler/runtime/registry';
import { SchedulingService } from './scheduler/scheduling-service';
import { CandidateCache } from './scheduler/state/candidate-cache';
import { EvaluationMemo } from './scheduler/state/evaluation-memo';
import { HostViewCache } from './scheduler/state/host-view-cache';
import type { Services } from './services';

/** The scheduler as the adapters see it. */
export interface Scheduling {
  readonly service: SchedulingService;
  /** Moves started by `schedule` (confirmMove / revertMove). */
  readonly moves: ClaimService;
  readonly cache: CandidateCache;
  readonly config: SchedulerConfig;
  /** Every registered plugin with its enabled position. */
  plugins(): PluginInfo[];
}

/**
 * Builds the scheduler.
 * @throws SchedulerConfigError for unknown, duplicate or misconfigured plugins.
 */
export function createScheduling(
  config: Config,
  services: Services,
  cache: Cache,
  log: Logger,
): Scheduling {
  const registry = createRegistry(builtinPlugins, loadPluginDirs(config.pluginDirs));
  const schedulerConfig: SchedulerConfig = {
    enabledFilters: config.scheduler.filters,
    enabledWeighers: config.scheduler.weighers,
    plugins: config.scheduler.plugins,
    hostSubsetSize: config.scheduler.hostSubsetSize,
    settingNames: {
      enabledFilters: 'BERTH_SCHEDULER_FILTERS',
      enabledWeighers: 'BERTH_SCHEDULER_WEIGHERS',
      plugins: 'BERTH_SCHEDULER_CONFIG',
    },
  };
  const logger = log.child({ component: 'scheduler' });
  const main = buildPipeline(registry, schedulerConfig, { logger });
  const overrides = new Map<string, Pipeline>();
  const pipelineFor = (filters?: readonly string[]): Pipeline => {
    if (!filters) {
      return main;
    }
    const key = filters.join(',');
    let p = overrides.get(key);
    if (!p) {
      try {
        p = buildPipeline(
          registry,
          {
            ...schedulerConfig,
            enabledFilters: filters,
            settingNames: { ...schedulerConfig.settingNames, enabledFilters: 'filters' },
          },
          { logger },
        );
      } catch (err) {
        throw new BadRequestError(
          `Invalid filters for this request: ${(err as Error).message}`,
          ErrorCode.UNKNOWN_PLUGIN,
        );
      }
      if (overrides.size > 100) {
        overrides.clear();
      }
      overrides.set(key, p);
    }
    return p;
  };
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
  const service = new SchedulingService({
    candidates: services.candidates,
    pipelineFor,
    candidateCache,
    hostViews: new HostViewCache(),
    aggregates: new AggregateMetadataCache(services.dataSource, services.changes),
    evaluations: new EvaluationMemo(config.scheduler.evaluationReuseMs),
    claims: new ClaimBatcher(moves, config.scheduler.claimBatch),
    claimWriter: moves,
    log,
    instanceHosts: (uuids) => hostsOfConsumers(services.dataSource, uuids),
    maxClaimAttempts: config.scheduler.maxClaimAttempts,
  });
  return {
    service,
    moves,
    cache: candidateCache,
    config: schedulerConfig,
    plugins: () => listPlugins(registry, schedulerConfig),
  };
}
