// Fresh embedded data directories from a template, when the prebuilt database
// (src/db/embedded-prebuilt.ts) does not fit this berth (another PGlite, a changed migration). A
// new PGlite directory costs an initdb (five seconds on a 2-core machine; berth's migrations take
// about one more) and opening an existing one about half a second. So the first fresh directory
// is migrated once into a template in a cache directory, and every later fresh directory is a
// copy of it, then opened, migrated (a no-op) and seeded as usual.
//
// A template is only ever used for the migrations it was made with: its folder is named by
// {@link templateKey}, a hash of PGlite's version and of every migration's name and code, so a
// berth with another migration list (or another PGlite) makes and uses its own. A template is
// complete or absent: it is made in a scratch folder and renamed into place.
import { createHash, randomUUID } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import path from 'node:path';
import type { MigrationInterface } from 'typeorm';
import { migrations as berthMigrations } from '../../migrations/index';
import { startEmbeddedPg } from './embedded-pg';

/** A migration class as migrations/index.ts lists them. */
export type MigrationClass = new () => MigrationInterface;

/** How many templates the cache keeps (the most recently used). */
const KEEP = 3;
const SCRATCH = '.building-';

function pgliteDir(): string {
  // The package exports no ./package.json: its CommonJS entry is dist/index.cjs.
  return path.resolve(path.dirname(require.resolve('@electric-sql/pglite')), '..');
}

/**
 * A migration method's code as every compiler of berth's (tsc, swc, ts-node) prints it: without
 * comments, whitespace and trailing commas, which they print differently.
 */
function codeOf(fn: unknown): string {
  return String(fn)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/[^\n]*/g, '')
    .replace(/\s+/g, '')
    .replace(/,(?=[\])}])/g, '');
}

/** A migration as templates and the prebuilt database's manifest identify it: name and code. */
export function migrationText(m: MigrationClass): string {
  return `${m.name}\n${codeOf(m.prototype.up)}\n${codeOf(m.prototype.down)}\n`;
}

/** The installed PGlite's version. */
export function pgliteVersion(): string {
  const pkg = path.join(pgliteDir(), 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** node_modules/.cache/berth beside the installed PGlite (so `rm -rf node_modules` clears it). */
export function berthCacheDir(): string {
  return path.resolve(pgliteDir(), '../../.cache/berth');
}

/** What a template made with `list` is named: PGlite's version and each migration's name and code. */
export function templateKey(list: readonly MigrationClass[] = berthMigrations): string {
  const h = createHash('sha256').update(`pglite ${pgliteVersion()}\n`);
  for (const m of list) {
    h.update(migrationText(m));
  }
  return h.digest('hex').slice(0, 24);
}

/**
 * Where templates are kept: BERTH_TEMPLATE_CACHE, else node_modules/.cache/berth/embedded beside
 * the installed PGlite (so `rm -rf node_modules` clears it); undefined when BERTH_TEMPLATE_CACHE
 * is `off`.
 */
export function templateCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const set = env.BERTH_TEMPLATE_CACHE;
  if (set === 'off') {
    return undefined;
  }
  return set ? path.resolve(set) : path.join(berthCacheDir(), 'embedded');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes all but the {@link KEEP} most recently used templates, and dead builders' scratch. */
function prune(cacheDir: string): void {
  const templates: { dir: string; used: number }[] = [];
  for (const name of readdirSync(cacheDir)) {
    const dir = path.join(cacheDir, name);
    if (name.startsWith(SCRATCH)) {
      const pid = Number(name.slice(SCRATCH.length).split('-')[0]);
      if (!alive(pid)) {
        rmSync(dir, { recursive: true, force: true });
      }
    } else if (existsSync(path.join(dir, 'PG_VERSION'))) {
      templates.push({ dir, used: statSync(dir).mtimeMs });
    }
  }
  templates.sort((a, b) => b.used - a.used);
  for (const t of templates.slice(KEEP)) {
    rmSync(t.dir, { recursive: true, force: true });
  }
}

/**
 * The template for `list` in `cacheDir`, made first when it is missing: PGlite started in a
 * scratch folder, migrated, stopped, and its data directory renamed into place (another process
 * that finished first wins; its template is the same).
 * @returns the template's data directory, and whether this call made it.
 * @throws when the template cannot be made (a migration fails, the cache is not writable).
 */
export async function ensureTemplate(
  cacheDir: string,
  list: readonly MigrationClass[] = berthMigrations,
): Promise<{ dir: string; built: boolean }> {
  const dir = path.join(cacheDir, templateKey(list));
  if (existsSync(path.join(dir, 'PG_VERSION'))) {
    const now = new Date();
    utimesSync(dir, now, now);
    return { dir, built: false };
  }
  mkdirSync(cacheDir, { recursive: true });
  const scratch = path.join(cacheDir, `${SCRATCH}${process.pid}-${randomUUID()}`);
  try {
    // Required here: TypeORM is a quarter of a second to load, which a start from the prebuilt
    // database (src/db/embedded-prebuilt.ts) or an existing one does not need before its server does.
    const { createDataSource }: typeof import('./data-source') = require('./data-source');
    const { migrateDatabase }: typeof import('./migrate') = require('./migrate');
    const pg = await startEmbeddedPg(scratch, { maxConnections: 2 });
    try {
      const ds = createDataSource({ url: pg.url, poolSize: 1, migrations: list });
      await ds.initialize();
      try {
        await migrateDatabase(ds);
      } finally {
        await ds.destroy();
      }
    } finally {
      await pg.stop();
    }
    try {
      renameSync(path.join(scratch, 'pgdata'), dir);
    } catch (err) {
      if (!existsSync(path.join(dir, 'PG_VERSION'))) {
        throw err;
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  prune(cacheDir);
  return { dir, built: true };
}

/**
 * Makes the empty `pgdata` a copy of `template` (copied beside it, then renamed, so an interrupted
 * copy never leaves a half database behind).
 */
export function copyTemplate(template: string, pgdata: string): void {
  const partial = `${pgdata}.copying`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(template, partial, { recursive: true });
  rmSync(pgdata, { recursive: true, force: true });
  renameSync(partial, pgdata);
}

/**
 * The `initialise` hook of startEmbeddedPg for a server: fills a fresh data directory from the
 * template in `cacheDir` (made first if missing). A template that cannot be made or copied is
 * reported to `onError` and skipped: PGlite then creates the database and the server migrates it.
 */
export function initialiseFromTemplate(
  cacheDir: string,
  onError: (err: unknown) => void,
  list: readonly MigrationClass[] = berthMigrations,
): (pgdata: string) => Promise<void> {
  return async (pgdata) => {
    try {
      const { dir } = await ensureTemplate(cacheDir, list);
      copyTemplate(dir, pgdata);
    } catch (err) {
      rmSync(`${pgdata}.copying`, { recursive: true, force: true });
      onError(err);
    }
  };
}
