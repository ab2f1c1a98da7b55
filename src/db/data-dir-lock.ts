// One process per embedded data directory. PGlite keeps a single-user PostgreSQL in the folder;
// two processes opening it each keep their own view and overwrite each other's files, losing
// acknowledged writes. A lock file created exclusively (O_EXCL) names the owner; a lock whose
// process is gone (SIGKILL, power loss) is stale and taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/** The data directory is held by another live process. */
export class DataDirLockedError extends Error {}

interface Owner {
  readonly pid: number;
  readonly host: string;
  readonly started: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

function readOwner(file: string): Owner | undefined {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as Partial<Owner>;
    return typeof o.pid === 'number' && typeof o.host === 'string'
      ? { pid: o.pid, host: o.host, started: String(o.started ?? '?') }
      : undefined;
  } catch {
    return undefined; // unreadable or half-written: treated as stale
  }
}

/**
 * Locks `dir` for this process until the returned function is called.
 * @throws DataDirLockedError naming the owner when another live process holds it.
 */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'berth.lock');
  const me: Owner = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw err;
      }
      const owner = readOwner(file);
      if (owner && (owner.host !== me.host || alive(owner.pid))) {
        throw new DataDirLockedError(
          `the data directory ${dir} is in use by berth process ${owner.pid} on ${owner.host} (since ${owner.started}); stop it first, or give this one its own BERTH_DATA_DIR`,
        );
      }
      unlinkSync(file); // stale: its process is gone
      continue;
    }
    writeSync(fd, JSON.stringify(me));
    closeSync(fd);
    return () => {
      if (readOwner(file)?.pid === me.pid) {
        unlinkSync(file);
      }
    };
  }
  throw new DataDirLockedError(`could not lock the data directory ${dir}: ${file} keeps changing`);
}
