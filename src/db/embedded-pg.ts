// Embedded PostgreSQL: PGlite (Postgres compiled to wasm) persisted in a directory and served on
// 127.0.0.1 over the Postgres wire protocol, so the ordinary `pg` driver and the same SQL work.
// PGlite is ONE database session, however many sockets pglite-socket accepts: its connections
// take turns through src/db/embedded-session-queue.ts.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { lockDataDir } from './data-dir-lock';
import { unpackArchive } from './embedded-archive';
import { installSessionQueue } from './embedded-session-queue';
import { serveInThread, threadEntry } from './embedded-thread';

/** A running embedded database. */
export interface EmbeddedPg {
  /** postgres:// URL to hand to the pg driver. */
  readonly url: string;
  /** How it started (set by {@link startEmbeddedPg}). */
  readonly boot?: EmbeddedBoot;
  /** Stops the socket server and closes PGlite (flushes to disk). */
  stop(): Promise<void>;
}

/** Where an embedded database came from, and how long its thread took (milliseconds). */
export interface EmbeddedBoot {
  /**
   * `existing`: the data directory held a database; `prebuilt`: unpacked from the prebuilt
   * database; `initialised`: filled by the `initialise` hook (the template); `initdb`: PGlite made
   * it; `memory`: a throwaway one.
   */
  readonly from: 'existing' | 'prebuilt' | 'initialised' | 'initdb' | 'memory';
  /** Unpacking the prebuilt database (0 when not). */
  readonly unpackMs: number;
  /** PGlite's start (wasm, and initdb for a new database) and its socket server's. */
  readonly openMs: number;
}

/** The timings a serving thread reports. */
export type ServeTimings = Pick<EmbeddedBoot, 'unpackMs' | 'openMs'>;

/**
 * Starts PGlite in `dataDir` (created if missing; `memory://` for a throwaway database) and
 * serves it on 127.0.0.1:`port` (0 = any free port), in a thread of its own where one can load
 * (src/db/embedded-thread.ts): PostgreSQL's start (about half a second of wasm) then overlaps the
 * server's, and its queries run beside the server's event loop. The directory is locked while it
 * runs.
 * @param maxConnections must be >= the pg pool size (the server's default is 1).
 * @param prebuilt called, under the lock, when the PostgreSQL data directory holds no database
 *   yet: an archive (src/db/embedded-archive.ts) that the database's thread unpacks into it before
 *   opening it (the server's: src/db/embedded-prebuilt.ts), or undefined. Synchronous, so that
 *   the thread starts before this function first yields: the caller's module loading overlaps it.
 * @param initialise called, under the lock, with the PostgreSQL data directory when it holds no
 *   database and `prebuilt` gave no archive, before PGlite opens it (the server fills it from a
 *   template: src/db/embedded-template.ts); PGlite creates a database in it when it is still empty.
 */
export async function startEmbeddedPg(
  dataDir: string,
  opts: {
    port?: number;
    maxConnections?: number;
    prebuilt?: () => string | undefined;
    initialise?: (pgdata: string) => Promise<void>;
  } = {},
): Promise<EmbeddedPg> {
  let dir = dataDir;
  let unlock = () => {};
  const persisted = !dataDir.startsWith('memory://');
  if (persisted) {
    mkdirSync(path.resolve(dataDir), { recursive: true });
    // @throws DataDirLockedError: a second process on the same folder would lose writes.
    unlock = lockDataDir(path.resolve(dataDir));
    dir = path.resolve(dataDir, 'pgdata');
  }
  try {
    let from: EmbeddedBoot['from'] = persisted ? 'existing' : 'memory';
    let unpack: string | undefined;
    if (persisted) {
      if (!existsSync(dir) || readdirSync(dir).length === 0) {
        unpack = opts.prebuilt?.();
        from = unpack ? 'prebuilt' : 'initdb';
        if (!unpack && opts.initialise) {
          await opts.initialise(dir);
          from = existsSync(dir) && readdirSync(dir).length > 0 ? 'initialised' : 'initdb';
        }
      }
      mkdirSync(dir, { recursive: true });
    }
    const settings: ServeOptions = {
      port: opts.port ?? 0,
      maxConnections: opts.maxConnections ?? 20,
      ...(unpack ? { unpack } : {}),
    };
    const entry = threadEntry();
    const served = entry
      ? await serveInThread(entry, dir, settings)
      : await servePglite(dir, settings);
    let stopped: Promise<void> | undefined;
    return {
      url: served.url,
      boot: { from, unpackMs: served.timings?.unpackMs ?? 0, openMs: served.timings?.openMs ?? 0 },
      stop() {
        stopped ??= served.stop().finally(unlock);
        return stopped;
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** How {@link servePglite} serves. */
export interface ServeOptions {
  readonly port: number;
  readonly maxConnections: number;
  /**
   * A data directory dumped by PGlite's dumpDataDir (a tar file) to start from, instead of
   * PGlite's initdb, when `dir` is `memory://` (the tests' throwaway databases).
   */
  readonly loadDataDir?: string;
  /** An archive (src/db/embedded-archive.ts) to unpack into the empty `dir` before opening it. */
  readonly unpack?: string;
}

/** What {@link servePglite} serves. */
export interface ServedPglite extends EmbeddedPg {
  readonly timings: ServeTimings;
}

/**
 * Opens PGlite on `dir` (unpacking `opts.unpack` into it first) and serves it on 127.0.0.1 (in
 * the calling thread: the embedded database's thread, src/db/embedded-worker.ts, runs this).
 */
export async function servePglite(dir: string, opts: ServeOptions): Promise<ServedPglite> {
  const started = performance.now();
  if (opts.unpack) {
    unpackArchive(opts.unpack, dir);
  }
  const unpacked = performance.now();
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create(
    dir,
    opts.loadDataDir ? { loadDataDir: new Blob([readFileSync(opts.loadDataDir)]) } : {},
  );
  try {
    const server = new PGLiteSocketServer({
      db,
      host: '127.0.0.1',
      port: opts.port,
      maxConnections: opts.maxConnections,
    });
    installSessionQueue(server, db);
    await server.start();
    return {
      url: `postgres://postgres@${server.getServerConn()}/postgres`,
      timings: {
        unpackMs: Math.round(unpacked - started),
        openMs: Math.round(performance.now() - unpacked),
      },
      async stop() {
        await server.stop();
        await db.close();
      },
    };
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
}
