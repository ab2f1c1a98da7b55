// The operator's plugins for the registry: BERTH_PLUGIN_DIRS modules (inline, or in worker threads
// with BERTH_PLUGIN_ISOLATION=worker) plus BERTH_SCHEDULER_EXTENDERS, and the disposer that stops
// the workers. The composition root makes one call and passes `plugins` to `createRegistry`.
import { extenderPlugins } from './extender';
import type { ExtenderConfig } from './extender-config';
import type { SchedulerLogger } from './pipeline';
import { loadPluginDirs, pluginFilesOf } from './plugin-dirs';
import type { RegisteredPlugin } from './registry';
import { startControlWorker, workerPluginModules } from './worker-plugins';
import { PluginWorkerPool, workerEntryPath } from './worker-pool';

/** The settings read here (a slice of src/config/config.ts `Config`). */
export interface OutOfProcessConfig {
  readonly pluginDirs: readonly string[];
  readonly scheduler: {
    readonly pluginIsolation: 'inline' | 'worker';
    readonly pluginWorkers: number;
    /** Heap limit of each worker thread, MiB (default 256). */
    readonly pluginWorkerHeapMb?: number;
    readonly extenders: readonly ExtenderConfig[];
  };
}

/** Operator plugins ready for `createRegistry`, and what stops their workers. */
export interface OperatorPlugins {
  readonly plugins: readonly RegisteredPlugin[];
  /** Terminates the worker threads (none inline); idempotent. */
  close(): Promise<void>;
}

/**
 * Loads the operator's plugins. With `pluginIsolation: 'worker'` no plugin file runs in this
 * thread: a control worker learns each module's shape and settings, a pool of `pluginWorkers`
 * threads runs the hooks, one message per plugin per request.
 * @throws SchedulerConfigError as `loadPluginDirs` (same file:line for a module that fails to load)
 */
export function outOfProcessPlugins(
  config: OutOfProcessConfig,
  logger: SchedulerLogger,
): OperatorPlugins {
  const extenders = extenderPlugins(config.scheduler.extenders);
  if (config.scheduler.pluginIsolation === 'inline') {
    return { plugins: [...loadPluginDirs(config.pluginDirs), ...extenders], close: async () => {} };
  }
  const files = pluginFilesOf(config.pluginDirs);
  if (files.length === 0) {
    return { plugins: extenders, close: async () => {} };
  }
  const heapMb = config.scheduler.pluginWorkerHeapMb;
  const control = startControlWorker(logger, heapMb);
  const pool = new PluginWorkerPool({
    entry: workerEntryPath(),
    files,
    size: config.scheduler.pluginWorkers,
    heapMb,
    logger,
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= Promise.all([control.close(), pool.close()]).then(() => undefined);
    return closing;
  };
  try {
    return { plugins: [...workerPluginModules(files, control, pool), ...extenders], close };
  } catch (err) {
    void close();
    throw err;
  }
}
