// Event-loop watchdog. Plugins run in-process; a synchronous infinite loop in one freezes the
// replica, and nothing on the frozen thread can notice. A worker thread can: the main thread
// bumps a heartbeat in shared memory, and marks which scheduler plugin is running; when the
// heartbeat stops for longer than the limit, the worker prints one line naming the plugin and
// kills the process (SIGKILL: the frozen thread cannot run a graceful shutdown) so the supervisor
// restarts it. A frozen replica answers nothing, /readyz included, so it is out of rotation
// for the whole time it is frozen.
import { Worker } from 'node:worker_threads';

/** Slots of the shared array: heartbeat counter, id of the running plugin (0 = none). */
const BEAT = 0;
const RUNNING = 1;

let shared: Int32Array | undefined;
let worker: Worker | undefined;
const ids = new Map<string, number>();

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const shared = new Int32Array(workerData.buffer);
const names = [''];
parentPort.on('message', (m) => { names[m.id] = m.name; });
let last = Atomics.load(shared, 0);
let since = Date.now();
setInterval(() => {
  const beat = Atomics.load(shared, 0);
  if (beat !== last) { last = beat; since = Date.now(); return; }
  const blocked = Date.now() - since;
  if (blocked < workerData.limitMs) return;
  const id = Atomics.load(shared, 1);
  const culprit = id > 0 ? 'scheduler plugin ' + (names[id] || '#' + id) : 'no scheduler plugin (berth itself)';
  // fs.writeSync: a worker's process.stderr goes through the (frozen) main thread.
  require('node:fs').writeSync(2, 'berth: event loop blocked for ' + blocked + ' ms while running ' + culprit +
    '; exiting so the supervisor restarts this replica (BERTH_WATCHDOG_MS=' + workerData.limitMs + ')\\n');
  process.kill(process.pid, 'SIGKILL');
}, Math.max(50, Math.floor(workerData.limitMs / 10)));
`;

/** Starts the watchdog (once per process); `limitMs` 0 = off. Returns a stop function. */
export function startWatchdog(limitMs: number): () => void {
  if (limitMs <= 0 || worker) {
    return () => {};
  }
  const buffer = new SharedArrayBuffer(8);
  shared = new Int32Array(buffer);
  worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { buffer, limitMs } });
  worker.unref();
  for (const [name, id] of ids) {
    worker.postMessage({ id, name });
  }
  const beat = setInterval(
    () => Atomics.add(shared!, BEAT, 1),
    Math.max(10, Math.floor(limitMs / 20)),
  );
  beat.unref();
  return () => {
    clearInterval(beat);
    void worker?.terminate();
    worker = undefined;
    shared = undefined;
  };
}

/**
 * Marks `plugin` as running on the main thread (null: none) and returns what was marked before,
 * to restore afterwards. Costs one atomic store when the watchdog runs, nothing otherwise.
 */
export function markRunning(plugin: string | null): number {
  if (!shared) {
    return 0;
  }
  let id = 0;
  if (plugin !== null) {
    id = ids.get(plugin) ?? 0;
    if (id === 0) {
      id = ids.size + 1;
      ids.set(plugin, id);
      worker?.postMessage({ id, name: plugin });
    }
  }
  return Atomics.exchange(shared, RUNNING, id);
}

/** Restores the mark {@link markRunning} returned. */
export function restoreRunning(previous: number): void {
  if (shared) {
    Atomics.store(shared, RUNNING, previous);
  }
}
