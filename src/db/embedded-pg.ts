// Embedded PostgreSQL: PGlite (Postgres compiled to wasm) persisted in a directory and served on
// 127.0.0.1 over the Postgres wire protocol, so the ordinary `pg` driver and the same SQL work.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { lockDataDir } from './data-dir-lock';

/** A running embedded database. */
export interface EmbeddedPg {
  /** postgres:// URL to hand to the pg driver. */
  readonly url: string;
  /** Stops the socket server and closes PGlite (flushes to disk). */
  stop(): Promise<void>;
}

/**
 * Starts PGlite in `dataDir` (created if missing; `memory://` for a throwaway database) and
 * serves it on 127.0.0.1:`port` (0 = any free port). The directory is locked while it runs.
 * @param maxConnections must be >= the pg pool size (the server's default is 1).
 */
export async function startEmbeddedPg(
  dataDir: string,
  opts: { port?: number; maxConnections?: number } = {},
): Promise<EmbeddedPg> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  let dir = dataDir;
  let unlock = () => {};
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(path.resolve(dataDir), { recursive: true });
    // @throws DataDirLockedError: a second process on the same folder would lose writes.
    unlock = lockDataDir(path.resolve(dataDir));
    dir = path.resolve(dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
  }
  try {
    const db = await PGlite.create(dir);
    const server = new PGLiteSocketServer({
      db,
      host: '127.0.0.1',
      port: opts.port ?? 0,
      maxConnections: opts.maxConnections ?? 20,
    });
    await server.start();
    const conn = server.getServerConn();
    return {
      url: `postgres://postgres@${conn}/postgres`,
      async stop() {
        try {
          await server.stop();
          await db.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}
