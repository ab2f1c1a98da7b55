// Operator plugins run in worker threads (BERTH_PLUGIN_ISOLATION=worker): the same files
// `loadPluginDirs` would load inline, loaded in the control worker to learn their shape, and a
// proxy module per file whose plugins forward each request's hook to the pool in one message.
import type {
  AmendContext,
  HostView,
  PluginFactory,
  PluginHandle,
  PluginModule,
  RequestSpec,
  SchedulerPlugin,
} from '../plugin-api';
import { loadErrorLocation, loadErrorSource } from './load-error';
import type { SchedulerLogger } from './pipeline';
import { type RegisteredPlugin, SchedulerConfigError, toPluginModuleOrThrow } from './registry';
import { ControlWorker, type PluginWorkerPool, type PoolJob, workerEntryPath } from './worker-pool';

/** What the control worker reports per file. */
type Loaded =
  | { file: string; ok: false; message: string; stack: string }
  | {
      file: string;
      ok: true;
      isObject: boolean;
      NAME: unknown;
      kind: unknown;
      hasCreate: boolean;
      CONFIG_KEYS: unknown;
    };

/** The plugin settings the control worker reports after `create`. */
interface Created {
  isObject: boolean;
  name?: string;
  kind?: string;
  onError?: string;
  timeBudgetMs?: number;
  multiplier?: number;
  multiplierMetadataKey?: string;
  negateMultiplier?: boolean;
  minval?: number;
  maxval?: number;
  hooks?: { amendRequest: boolean; prepare: boolean; filter: boolean; weigh: boolean };
}

/** Longest a module load or a `create` may take in the control worker. */
const START_TIMEOUT_MS = 30_000;
/**
 * The pool stops a job this long after the plugin's budget ran out: the pipeline's own race has
 * answered by then (cause `timeout`, the plugin's onError outcome); the stuck worker is then replaced.
 */
const KILL_GRACE_MS = 20;
/** The pipeline's default per-plugin budget (pipeline.ts), the deadline of amend calls. */
const DEFAULT_BUDGET_MS = 1000;

/** Rebuilds the load error the worker saw, so the location reads as with inline loading. */
function loadFailure(l: Extract<Loaded, { ok: false }>): SchedulerConfigError {
  const err = new Error(l.message);
  err.stack = l.stack;
  const source = loadErrorSource(err, l.file);
  return new SchedulerConfigError(
    `${loadErrorLocation(err, l.file)}: cannot load scheduler plugin: ${l.message}${source ? ` (at: ${source})` : ''}`,
  );
}

/** A plugin object mirroring the worker's instance; its hooks post to the pool. */
function proxyPlugin(id: number, c: Created, pool: PluginWorkerPool): SchedulerPlugin {
  const budget = c.timeBudgetMs ?? DEFAULT_BUDGET_MS;
  const run = (job: Omit<PoolJob, 'id'>, deadlineMs: number) =>
    pool.run({ ...job, id }, Math.max(deadlineMs, 1) + KILL_GRACE_MS);
  const decodeVerdict = (v: unknown) => {
    if (v === true) {
      return { fits: true };
    }
    if (typeof v === 'string') {
      return { fits: false, reason: v };
    }
    // `{ reason, code }`: the pipeline checks the code; `{ invalid }` stays as it is (not a verdict).
    const coded =
      typeof v === 'object' && v !== null ? (v as { reason?: unknown; code?: unknown }) : {};
    return typeof coded.reason === 'string'
      ? { fits: false, reason: coded.reason, code: coded.code }
      : v;
  };
  const decodeWeight = (v: unknown) =>
    typeof v === 'number' ? v : (v as { invalid?: string }).invalid;
  const filterBatch = async (hosts: readonly HostView[], spec: RequestSpec, ms: number) =>
    ((await run({ hook: 'filter', spec, hosts }, ms)) as unknown[]).map(decodeVerdict);
  const weighBatch = async (hosts: readonly HostView[], spec: RequestSpec, ms: number) =>
    ((await run({ hook: 'weigh', spec, hosts }, ms)) as unknown[]).map(decodeWeight);
  const settings = Object.fromEntries(
    Object.entries({
      name: c.name,
      kind: c.kind,
      onError: c.onError,
      timeBudgetMs: c.timeBudgetMs,
      multiplier: c.multiplier,
      multiplierMetadataKey: c.multiplierMetadataKey,
      negateMultiplier: c.negateMultiplier,
      minval: c.minval,
      maxval: c.maxval,
    }).filter(([, v]) => v !== undefined),
  );
  const hooks = c.hooks;
  return {
    ...settings,
    ...(hooks?.amendRequest
      ? {
          amendRequest: (spec: RequestSpec, ctx: AmendContext) =>
            run({ hook: 'amend', spec, ctx }, budget),
        }
      : {}),
    ...(hooks?.filter
      ? {
          filter: async (host: HostView, spec: RequestSpec) =>
            (await filterBatch([host], spec, budget))[0],
          filterBatch,
        }
      : {}),
    ...(hooks?.weigh
      ? {
          weigh: async (host: HostView, spec: RequestSpec) =>
            (await weighBatch([host], spec, budget))[0],
          weighBatch,
        }
      : {}),
  } as unknown as SchedulerPlugin;
}

/**
 * Loads the operator plugin files in the control worker and returns one proxy module per file;
 * `create` creates the instance in the control worker (settings, configuration errors) and in
 * every pool worker. Instances are shared per NAME and configuration.
 * @throws SchedulerConfigError with the file:line of a module that fails to load, or a bad shape.
 */
export function workerPluginModules(
  files: readonly string[],
  control: ControlWorker,
  pool: PluginWorkerPool,
): RegisteredPlugin[] {
  const loaded = control.call<Loaded[]>({ op: 'load', files }, START_TIMEOUT_MS, 'loading plugins');
  let nextId = 1;
  return loaded.map((l) => {
    if (!l.ok) {
      throw loadFailure(l);
    }
    const created = new Map<string, SchedulerPlugin>();
    const create: PluginFactory = (config, _handle: PluginHandle) => {
      const key = JSON.stringify(config);
      let plugin = created.get(key);
      if (plugin === undefined) {
        const id = nextId++;
        const name = l.NAME as string;
        const c = control.call<Created>(
          { op: 'create', id, name, config },
          START_TIMEOUT_MS,
          `${name}: create()`,
        );
        if (!c.isObject) {
          throw new Error('create() must return a plugin object');
        }
        pool.addInstance({ id, name, config });
        plugin = proxyPlugin(id, c, pool);
        created.set(key, plugin);
      }
      return plugin;
    };
    const shape = l.isObject
      ? {
          NAME: l.NAME,
          kind: l.kind,
          ...(l.hasCreate ? { create } : {}),
          ...(l.CONFIG_KEYS === undefined ? {} : { CONFIG_KEYS: l.CONFIG_KEYS }),
        }
      : null;
    const module: PluginModule = toPluginModuleOrThrow(shape, l.file);
    return { module, source: l.file };
  });
}

/** Starts the control worker for `workerPluginModules`, its heap limited to `heapMb` MiB. */
export function startControlWorker(logger: SchedulerLogger, heapMb?: number): ControlWorker {
  return new ControlWorker(workerEntryPath(), logger, heapMb);
}
