// The embedded database's thread, seen from the server: a worker thread that runs PGlite and its
// socket server (src/db/embedded-worker.ts) and answers with the URL to connect to. Started by
// startEmbeddedPg (src/db/embedded-pg.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ServeOptions, ServeTimings } from './embedded-pg';

/**
 * What the worker posts: the URL (and how long unpacking and opening took) once serving, `stopped`
 * after a stop, or why it failed.
 */
export type ThreadMessage =
  | { url: string; timings: ServeTimings }
  | { stopped: true }
  | { error: string };

/** The settings the worker is started with (its workerData). */
export interface ThreadSettings extends ServeOptions {
  readonly dir: string;
}

/**
 * The worker's code, when a worker thread can load it: dist's embedded-worker.js, or from source
 * the .ts when a require hook was preloaded (`node -r`, which worker threads inherit: the tests'
 * and `berth`'s runs from source). Undefined otherwise (e.g. jest's global setup, whose hook is
 * its own): the caller then serves PGlite in its own thread.
 */
export function threadEntry(): string | undefined {
  const js = path.join(__dirname, 'embedded-worker.js');
  if (existsSync(js)) {
    return js;
  }
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const preloaded = flags.some((f) => f === '-r' || f.startsWith('--require'));
  return preloaded && require.extensions?.['.ts']
    ? path.join(__dirname, 'embedded-worker.ts')
    : undefined;
}

/**
 * Starts the worker ({@link threadEntry}'s `entry`) serving PGlite on `dir`; `execArgv` (e.g. a
 * require hook for the .ts entry) replaces the flags the thread would inherit.
 * @returns its URL and how to stop it (PGlite closed: flushed to disk; then the thread ends).
 * @throws when PGlite cannot be opened or served (the thread has ended).
 */
export function serveInThread(
  entry: string,
  dir: string,
  opts: ServeOptions,
  execArgv?: readonly string[],
): Promise<{ url: string; timings: ServeTimings; stop(): Promise<void> }> {
  // Evaluated, not a file name: a worker's file must be .js; from source the .ts loads through
  // the preloaded require hook.
  const settings: ThreadSettings = { dir, ...opts };
  const worker = new Worker(`require(${JSON.stringify(entry)});`, {
    eval: true,
    workerData: settings,
    ...(execArgv ? { execArgv: [...execArgv] } : {}),
  });
  return new Promise((resolve, reject) => {
    const exited = (code: number) =>
      reject(new Error(`embedded PostgreSQL: its thread ended (${code}) before serving`));
    worker.once('error', reject);
    worker.once('exit', exited);
    worker.once('message', (m: ThreadMessage) => {
      worker.off('error', reject);
      worker.off('exit', exited);
      if ('error' in m) {
        void worker.terminate();
        reject(new Error(m.error));
      } else if ('url' in m) {
        resolve({ url: m.url, timings: m.timings, stop: () => stopThread(worker) });
      }
    });
  });
}

async function stopThread(worker: Worker): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('message', (m: ThreadMessage) =>
        'error' in m ? reject(new Error(m.error)) : resolve(),
      );
      worker.once('error', reject);
      worker.once('exit', () => resolve());
      worker.postMessage('stop');
    });
  } finally {
    await worker.terminate();
  }
}
