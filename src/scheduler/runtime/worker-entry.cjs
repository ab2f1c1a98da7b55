// Worker-thread side of out-of-process operator plugins (src/scheduler/runtime/worker-pool.ts).
// Plain CommonJS on purpose: a worker thread gets neither the jest transform nor ts-node, and
// `npm run build` does not compile it, so it must run as written from src/ and dist/ alike.
//
// workerData: { files, instances: [{ id, name, config }], syncPort?, signal? }
// - syncPort/signal: the control worker; it answers `load` and `create` synchronously (the main
//   thread blocks on `signal` with Atomics.wait) so that module shape and plugin settings are known
//   at start-up, exactly as with inline loading.
// - otherwise a pool worker: loads the files, creates the listed instances, then answers `run`
//   messages one at a time on parentPort.
'use strict';

const { parentPort, workerData } = require('node:worker_threads');

const MAX_MESSAGE = 500;

/** A readable, bounded message from anything thrown (mirrors src/lib/error-message.ts). */
function errorMessage(err) {
  let text;
  try {
    if (err instanceof Error) {
      text = String(err.message);
    } else if (typeof err === 'string') {
      text = err;
    } else if (typeof err === 'number') {
      text = String(err);
    } else {
      text = JSON.stringify(err, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(err);
    }
  } catch {
    text = 'a value that cannot be printed';
  }
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) {
      deepFreeze(v);
    }
  }
  return value;
}

function isPromiseLike(value) {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof value.then === 'function'
  );
}

/** NAME -> module exports (default export unwrapped as registry.ts does). */
const modules = new Map();
/** instance id -> plugin object. */
const instances = new Map();

function unwrap(exported) {
  if (
    exported !== null &&
    typeof exported === 'object' &&
    exported.NAME === undefined &&
    exported.default !== undefined
  ) {
    return unwrap(exported.default);
  }
  return exported;
}

/** Loads every file; returns what the main thread needs to check each module's shape. */
function loadAll(files) {
  return files.map((file) => {
    let mod;
    try {
      mod = unwrap(require(file));
    } catch (err) {
      return {
        file,
        ok: false,
        message: errorMessage(err),
        stack: err instanceof Error ? String(err.stack ?? '') : '',
      };
    }
    const isObject = mod !== null && typeof mod === 'object';
    let keys = isObject ? mod.CONFIG_KEYS : undefined;
    if (isObject && typeof mod.configSchema === 'function') {
      // The schema's keys are the configuration keys (as the registry reads them inline).
      try {
        keys = Object.keys(schemaOf(mod).shape);
      } catch (err) {
        return {
          file,
          ok: false,
          message: `plugin ${String(mod.NAME)}: ${errorMessage(err)}`,
          stack: '',
        };
      }
    }
    const primitive = (v) => (v === null || typeof v !== 'object' ? v : String(v));
    if (isObject && typeof mod.NAME === 'string') {
      modules.set(mod.NAME, mod);
    }
    return {
      file,
      ok: true,
      isObject,
      NAME: isObject && typeof mod.NAME !== 'function' ? primitive(mod.NAME) : undefined,
      kind: isObject ? primitive(mod.kind) : undefined,
      hasCreate: isObject && typeof mod.create === 'function',
      CONFIG_KEYS:
        keys === undefined || typeof keys === 'function'
          ? keys === undefined
            ? undefined
            : 'not a list'
          : Array.isArray(keys)
            ? keys.map((k) => (typeof k === 'string' ? k : 0))
            : primitive(keys),
    };
  });
}

function log(plugin, msg, fields) {
  const line = { op: 'log', plugin, msg: String(msg), fields: fields ?? {} };
  try {
    parentPort.postMessage(line);
  } catch {
    let safe;
    try {
      safe = JSON.parse(JSON.stringify(fields ?? {}));
    } catch {
      safe = { fields: errorMessage(fields) };
    }
    parentPort.postMessage({ ...line, fields: safe });
  }
}

/** A module's configuration schema, built with berth's zod (src/scheduler/plugin-config.ts). */
function schemaOf(mod) {
  const schema = mod.configSchema(require('zod').z);
  if (
    schema === null ||
    typeof schema !== 'object' ||
    typeof schema.safeParse !== 'function' ||
    !schema.shape
  ) {
    throw new Error('configSchema(z) must return z.object({...})');
  }
  return schema;
}

/** `config` checked against the module's schema, defaults filled in (as parsePluginConfig). */
function checkedConfig(mod, name, config) {
  if (typeof mod.configSchema !== 'function') {
    return config;
  }
  const result = schemaOf(mod).safeParse(config);
  if (result.success) {
    return result.data;
  }
  const issue = result.error.issues[0];
  const key = issue.path.map(String).join('.');
  throw new Error(
    key === '' ? `${name}: config ${issue.message}` : `${name}: config "${key}" ${issue.message}`,
  );
}

/** Creates one plugin instance; returns the settings the main thread's proxy copies. */
function create(id, name, config) {
  const mod = modules.get(name);
  if (mod === undefined) {
    throw new Error(`no plugin module named ${name} in this worker`);
  }
  const frozen = deepFreeze(structuredClone(checkedConfig(mod, name, config)));
  const plugin = mod.create(frozen, {
    name,
    config: frozen,
    log: (msg, fields) => log(name, msg, fields),
  });
  instances.set(id, plugin);
  if (plugin === null || typeof plugin !== 'object') {
    return { isObject: false };
  }
  const num = (v) => (typeof v === 'number' ? v : v === undefined ? undefined : Number.NaN);
  const str = (v) => (typeof v === 'string' ? v : v === undefined ? undefined : String(v));
  return {
    isObject: true,
    name: str(plugin.name),
    kind: str(plugin.kind),
    onError: str(plugin.onError),
    timeBudgetMs: num(plugin.timeBudgetMs),
    multiplier: num(plugin.multiplier),
    multiplierMetadataKey: str(plugin.multiplierMetadataKey),
    negateMultiplier: plugin.negateMultiplier === true ? true : undefined,
    minval: num(plugin.minval),
    maxval: num(plugin.maxval),
    hooks: {
      amendRequest: typeof plugin.amendRequest === 'function',
      prepare: typeof plugin.prepare === 'function',
      filter: typeof plugin.filter === 'function',
      weigh: typeof plugin.weigh === 'function',
    },
  };
}

/**
 * A verdict as sent back: `true`, the rejection reason (no code), `{ reason, code }` (the code as
 * given, checked by the pipeline), or `{ invalid }` for anything else.
 */
function encodeVerdict(v) {
  try {
    if (v !== null && typeof v === 'object') {
      if (v.fits === true) {
        return true;
      }
      if (v.fits === false && typeof v.reason === 'string') {
        const reason = v.reason;
        const code = v.code;
        if (code === undefined) {
          return reason;
        }
        return typeof code === 'string'
          ? { reason, code }
          : { invalid: `reason code must be a string, got ${errorMessage(code)}` };
      }
    }
  } catch {
    // a throwing getter: not a verdict
  }
  return { invalid: errorMessage(v) };
}

function encodeWeight(v) {
  return typeof v === 'number' ? v : { invalid: errorMessage(v) };
}

async function runHook(msg) {
  const plugin = instances.get(msg.id);
  if (plugin === undefined) {
    throw new Error(`plugin instance ${msg.id} was not created in this worker`);
  }
  const spec = deepFreeze(msg.spec);
  if (msg.hook === 'amend') {
    return plugin.amendRequest(spec, deepFreeze(msg.ctx));
  }
  let state;
  if (typeof plugin.prepare === 'function') {
    try {
      state = plugin.prepare(spec);
      if (isPromiseLike(state)) {
        state = await state;
      }
    } catch (err) {
      throw new Error(`prepare: ${errorMessage(err)}`);
    }
  }
  const hosts = deepFreeze(msg.hosts);
  const out = new Array(hosts.length);
  const weigh = msg.hook === 'weigh';
  for (let i = 0; i < hosts.length; i++) {
    let v;
    try {
      v = weigh ? plugin.weigh(hosts[i], spec, state) : plugin.filter(hosts[i], spec, state);
      if (isPromiseLike(v)) {
        v = await v;
      }
    } catch (err) {
      throw new Error(`on host ${hosts[i].uuid}: ${errorMessage(err)}`);
    }
    out[i] = weigh ? encodeWeight(v) : encodeVerdict(v);
  }
  return out;
}

async function onRun(msg) {
  let result;
  try {
    result = await runHook(msg);
  } catch (err) {
    parentPort.postMessage({ op: 'failed', job: msg.job, message: errorMessage(err) });
    return;
  }
  try {
    parentPort.postMessage({ op: 'done', job: msg.job, result });
  } catch (err) {
    const message = `returned a value that cannot leave the worker: ${errorMessage(err)}`;
    parentPort.postMessage({ op: 'failed', job: msg.job, message });
  }
}

function handleSync(msg) {
  try {
    if (msg.op === 'load') {
      return { ok: true, value: loadAll(msg.files) };
    }
    return { ok: true, value: create(msg.id, msg.name, msg.config) };
  } catch (err) {
    return { ok: false, message: errorMessage(err) };
  }
}

const { syncPort, signal } = workerData;
if (syncPort !== undefined) {
  syncPort.on('message', (msg) => {
    syncPort.postMessage(handleSync(msg));
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  });
} else {
  let booted = false;
  try {
    const failed = loadAll(workerData.files).find((r) => !r.ok);
    if (failed !== undefined) {
      throw new Error(`${failed.file}: ${failed.message}`);
    }
    for (const i of workerData.instances) {
      create(i.id, i.name, i.config);
    }
    booted = true;
  } catch (err) {
    parentPort.postMessage({ op: 'fatal', message: errorMessage(err) });
  }
  if (booted) {
    parentPort.on('message', (msg) => {
      if (msg.op === 'create') {
        try {
          create(msg.id, msg.name, msg.config);
        } catch (err) {
          log(msg.name, 'plugin failed to start in a replacement worker', {
            err: errorMessage(err),
          });
        }
      } else if (msg.op === 'run') {
        void onRun(msg);
      }
    });
    parentPort.postMessage({ op: 'ready' });
  }
}
