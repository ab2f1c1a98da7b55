// The pool of worker threads that runs operator plugins out of process (no Nova counterpart; the
// shape of a Kubernetes out-of-tree plugin without the network). Each worker loads every operator
// plugin file and creates the enabled instances; a request's hook runs on one idle worker, one job
// per worker at a time. A job that outlives its deadline (a synchronous infinite loop, a promise
// that never settles) gets its worker terminated and replaced; a worker whose heap passes its
// limit (`heapMb`, V8's resourceLimits) is stopped by Node, and the job it was running fails with
// a message saying so; either way other workers keep serving and a fresh worker takes the slot.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { SchedulerLogger } from './pipeline';

/**
 * The worker script: plain `.cjs` next to this module in src/, or (after `npm run build`, which
 * does not copy it) in src/ under the package root.
 */
export function workerEntryPath(): string {
  const candidates = [
    join(__dirname, 'worker-entry.cjs'),
    join(__dirname, '..', '..', '..', '..', 'src', 'scheduler', 'runtime', 'worker-entry.cjs'),
  ];
  const found = candidates.find((p) => existsSync(p));
  if (found === undefined) {
    throw new Error(`worker-entry.cjs not found (looked in ${candidates.join(', ')})`);
  }
  return found;
}

/** A plugin log line posted by a worker. */
interface LogLine {
  readonly op: 'log';
  readonly plugin: string;
  readonly msg: string;
  readonly fields: Record<string, unknown>;
}

/** Routes a worker's log lines to the main logger, as inline plugins' `handle.log` does. */
function forwardLogs(worker: Worker, logger: SchedulerLogger): void {
  worker.on('message', (m: { op?: string }) => {
    if (m.op === 'log') {
      const line = m as LogLine;
      logger.info({ ...line.fields, plugin: line.plugin }, line.msg);
    }
  });
}

/**
 * The control worker: answers `load` and `create` synchronously (the main thread blocks on a
 * shared flag) so plugin modules and settings are known at start-up without loading plugin code
 * in the main thread. It never runs request hooks, so it is never busy when asked.
 */
export class ControlWorker {
  private readonly worker: Worker;
  private readonly port;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));

  /** @param heapMb the thread's heap limit, MiB (module top-level code runs here). */
  constructor(entry: string, logger: SchedulerLogger, heapMb: number = DEFAULT_WORKER_HEAP_MB) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(entry, {
      workerData: { files: [], instances: [], syncPort: port2, signal: this.signal },
      transferList: [port2],
      resourceLimits: resourceLimits(heapMb),
    });
    this.worker.unref();
    forwardLogs(this.worker, logger);
    // A crash surfaces as a timed-out call; nothing to do here but not crash the process.
    this.worker.on('error', () => {});
  }

  /**
   * Sends one request and waits (blocking) for the answer.
   * @throws Error when the worker does not answer within `timeoutMs` or answers with an error.
   */
  call<T>(message: object, timeoutMs: number, what: string): T {
    Atomics.store(this.signal, 0, 0);
    this.port.postMessage(message);
    const waited = Atomics.wait(this.signal, 0, 0, timeoutMs);
    const reply = receiveMessageOnPort(this.port)?.message as
      | { ok: true; value: T }
      | { ok: false; message: string }
      | undefined;
    if (waited === 'timed-out' || reply === undefined) {
      throw new Error(`${what} did not finish within ${timeoutMs} ms in the plugin worker`);
    }
    if (!reply.ok) {
      throw new Error(reply.message);
    }
    return reply.value;
  }

  /** Stops the thread. */
  async close(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }
}

/** A plugin instance every pool worker creates. */
export interface PoolInstance {
  readonly id: number;
  readonly name: string;
  readonly config: Readonly<Record<string, unknown>>;
}

/** A hook call for a worker. */
export interface PoolJob {
  readonly id: number;
  readonly hook: 'filter' | 'weigh' | 'amend';
  readonly spec: unknown;
  readonly hosts?: unknown;
  readonly ctx?: unknown;
}

interface Pending {
  readonly message: PoolJob & { job: number; op: 'run' };
  readonly resolve: (value: unknown) => void;
  readonly reject: (err: Error) => void;
  timer?: NodeJS.Timeout;
  slot?: Slot;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Pending | null;
}

/** Pool settings. */
export interface WorkerPoolOptions {
  readonly entry: string;
  /** Operator plugin files every worker loads. */
  readonly files: readonly string[];
  /** Number of worker threads. */
  readonly size: number;
  /** Each thread's heap limit (V8 old generation), MiB; default {@link DEFAULT_WORKER_HEAP_MB}. */
  readonly heapMb?: number;
  readonly logger: SchedulerLogger;
}

/** Default heap limit of a plugin worker thread, MiB (BERTH_PLUGIN_WORKER_HEAP_MB). */
export const DEFAULT_WORKER_HEAP_MB = 256;

/**
 * A worker's resourceLimits: its old generation (where a leak accumulates) capped at `heapMb`.
 * Memory outside the JS heap (Buffers, ArrayBuffers) is not counted by V8's limit.
 */
function resourceLimits(heapMb: number): { maxOldGenerationSizeMb: number } {
  return { maxOldGenerationSizeMb: heapMb };
}

/** How long a pool worker that failed to boot waits before the next attempt. */
const RESPAWN_DELAY_MS = 1000;

/** Worker threads running operator plugin hooks, with per-job deadlines. */
export class PluginWorkerPool {
  private readonly instances: PoolInstance[] = [];
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextJob = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    for (let i = 0; i < options.size; i++) {
      const slot: Slot = { worker: undefined as unknown as Worker, ready: false, job: null };
      this.slots.push(slot);
      this.spawn(slot);
    }
  }

  /** Workers replaced so far (stuck or crashed); for tests and metrics. */
  replacements = 0;

  private spawn(slot: Slot): void {
    const worker = new Worker(this.options.entry, {
      workerData: { files: this.options.files, instances: this.instances },
      resourceLimits: resourceLimits(this.heapMb),
    });
    let outOfMemory = false;
    worker.unref();
    slot.worker = worker;
    slot.ready = false;
    forwardLogs(worker, this.options.logger);
    worker.on('message', (m: { op: string; job?: number; result?: unknown; message?: string }) => {
      if (slot.worker !== worker) {
        return;
      }
      if (m.op === 'ready') {
        slot.ready = true;
        this.dispatch();
      } else if (m.op === 'fatal') {
        this.options.logger.warn({ err: m.message }, 'scheduler plugin worker failed to start');
      } else if (m.op === 'done' || m.op === 'failed') {
        const job = slot.job;
        if (job === null || job.message.job !== m.job) {
          return; // answered after its deadline: already rejected
        }
        slot.job = null;
        clearTimeout(job.timer);
        if (m.op === 'done') {
          job.resolve(m.result);
        } else {
          job.reject(new Error(m.message));
        }
        this.dispatch();
      }
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (slot.worker !== worker) {
        return;
      }
      outOfMemory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.options.logger.warn(
        { err: err.message, plugin: this.pluginOf(slot.job), heapMb: this.heapMb },
        outOfMemory
          ? 'scheduler plugin worker ran out of memory; replacing it'
          : 'scheduler plugin worker crashed',
      );
    });
    worker.on('exit', () => {
      if (slot.worker !== worker || this.closed) {
        return;
      }
      const job = slot.job;
      slot.job = null;
      if (job) {
        clearTimeout(job.timer);
        job.reject(
          new Error(
            outOfMemory
              ? `ran out of memory: its worker passed the heap limit of ${this.heapMb} MiB (BERTH_PLUGIN_WORKER_HEAP_MB) and was replaced`
              : 'the plugin worker running it crashed',
          ),
        );
      }
      this.replacements += 1;
      const delay = slot.ready ? 0 : RESPAWN_DELAY_MS;
      slot.ready = false;
      setTimeout(() => {
        if (!this.closed) {
          this.spawn(slot);
        }
      }, delay).unref();
    });
  }

  private get heapMb(): number {
    return this.options.heapMb ?? DEFAULT_WORKER_HEAP_MB;
  }

  /** The plugin a job runs (for the log), or undefined. */
  private pluginOf(job: Pending | null): string | undefined {
    return job ? this.instances.find((i) => i.id === job.message.id)?.name : undefined;
  }

  /** Creates a plugin instance in every worker (current and future). */
  addInstance(instance: PoolInstance): void {
    this.instances.push(instance);
    for (const slot of this.slots) {
      slot.worker.postMessage({ op: 'create', ...instance });
    }
  }

  /**
   * Runs a hook on an idle worker. Rejects when `deadlineMs` passes first (the worker running it is
   * terminated and replaced), when the plugin throws, or when the worker crashes.
   */
  run(job: PoolJob, deadlineMs: number): Promise<unknown> {
    if (this.closed) {
      return Promise.reject(new Error('the plugin worker pool is closed'));
    }
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        message: { ...job, job: this.nextJob++, op: 'run' },
        resolve,
        reject,
      };
      pending.timer = setTimeout(() => this.expire(pending, deadlineMs), deadlineMs);
      this.queue.push(pending);
      this.dispatch();
    });
  }

  private expire(pending: Pending, deadlineMs: number): void {
    const slot = pending.slot;
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
    }
    pending.reject(new Error(`did not answer within ${deadlineMs} ms; its worker was replaced`));
    if (slot !== undefined && slot.job === pending) {
      slot.job = null;
      this.replace(slot);
    }
  }

  /** Terminates a stuck worker and starts a fresh one in its slot. */
  private replace(slot: Slot): void {
    const stuck = slot.worker;
    this.replacements += 1;
    this.options.logger.warn(
      { threadId: stuck.threadId },
      'scheduler plugin worker overran its deadline; terminating and replacing it',
    );
    this.spawn(slot);
    void stuck.terminate();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.ready && s.job === null);
      if (slot === undefined) {
        return;
      }
      const pending = this.queue.shift()!;
      pending.slot = slot;
      slot.job = pending;
      try {
        slot.worker.postMessage(pending.message);
      } catch (err) {
        slot.job = null;
        clearTimeout(pending.timer);
        pending.reject(new Error(`cannot be sent to the plugin worker: ${(err as Error).message}`));
      }
    }
  }

  /** Rejects what is pending and terminates every worker. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of [...this.queue, ...this.slots.flatMap((s) => (s.job ? [s.job] : []))]) {
      clearTimeout(pending.timer);
      pending.reject(new Error('the plugin worker pool is closed'));
    }
    this.queue.length = 0;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
