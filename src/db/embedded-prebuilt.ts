// The prebuilt embedded database: a migrated PGlite data directory committed with the sources
// (src/db/data/embedded-pgdata.tar.br, packed by src/db/embedded-archive.ts) and its manifest
// (embedded-pgdata.json: PGlite's version, each migration's name and code hash, the archive's
// hash). A fresh data directory is unpacked from it in a few tenths of a second, where PGlite's
// initdb takes five seconds and berth's migrations one more on a 2-core machine: the first
// `npm start` after `npm install` runs no initdb.
//
// It is used only for what it was made with: the installed PGlite, and a list of migrations that
// begins with its own, unchanged (a migration added since is applied at start, as on any existing
// database). Otherwise, or when the archive is missing or damaged, or BERTH_EMBEDDED_PREBUILT is
// `off`, a fresh data directory comes from the template cache (src/db/embedded-template.ts), made
// by initdb and the migrations; BERTH_TEMPLATE_CACHE=off leaves it to PGlite (neither is used).
// test/db/embedded-prebuilt.test.ts fails while the manifest is not the current list's;
// `npm run embedded:prebuild` makes both files again (src/db/embedded-prebuilt-make.ts).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { migrations as berthMigrations } from '../../migrations/index';
import { type MigrationClass, migrationText, pgliteVersion } from './embedded-template';

/** The archive's and the manifest's file names, in {@link prebuiltDir}. */
export const PREBUILT_ARCHIVE = 'embedded-pgdata.tar.br';
export const PREBUILT_MANIFEST = 'embedded-pgdata.json';

/** What the prebuilt database was made with (embedded-pgdata.json). */
export interface PrebuiltManifest {
  /** PGlite's version (its initdb and on-disk format). */
  readonly pglite: string;
  /** The migrations applied, in order: class name and {@link migrationHash}. */
  readonly migrations: readonly { readonly name: string; readonly code: string }[];
  /** The archive's sha256 (hex) and size (bytes). */
  readonly archive: { readonly sha256: string; readonly bytes: number };
}

/** Whether the prebuilt database serves a fresh data directory, and why not. */
export type PrebuiltChoice =
  | {
      readonly archive: string;
      /** Migrations of the current list that it lacks (applied at start). */
      readonly pending: number;
    }
  | { readonly unusable: string };

/**
 * The source folder that holds the prebuilt database (src/db/data), from the sources or from the
 * compiled dist/src/db (the archive is not copied to dist).
 */
export function prebuiltDir(from: string = __dirname): string {
  const compiled = path.basename(path.resolve(from, '../..')) === 'dist';
  return compiled ? path.resolve(from, '../../../src/db/data') : path.join(from, 'data');
}

/** A migration's name and code (as the template key hashes them), hashed: 16 hex digits. */
export function migrationHash(m: MigrationClass): string {
  return createHash('sha256').update(migrationText(m)).digest('hex').slice(0, 16);
}

/** The manifest entries of `list`. */
export function migrationEntries(list: readonly MigrationClass[]): PrebuiltManifest['migrations'] {
  return list.map((m) => ({ name: m.name, code: migrationHash(m) }));
}

/**
 * Whether the prebuilt database in `dir` can be a fresh data directory for `list` (a few
 * milliseconds: reads the manifest, hashes the archive and the migrations' code).
 */
export function choosePrebuilt(
  list: readonly MigrationClass[] = berthMigrations,
  env: NodeJS.ProcessEnv = process.env,
  dir: string = prebuiltDir(),
): PrebuiltChoice {
  // BERTH_TEMPLATE_CACHE=off asks for PGlite's own new database (no migrated start at all).
  for (const name of ['BERTH_EMBEDDED_PREBUILT', 'BERTH_TEMPLATE_CACHE']) {
    if (env[name] === 'off') {
      return { unusable: `${name}=off` };
    }
  }
  const archive = path.join(dir, PREBUILT_ARCHIVE);
  const manifestFile = path.join(dir, PREBUILT_MANIFEST);
  if (!existsSync(archive) || !existsSync(manifestFile)) {
    return { unusable: `no ${PREBUILT_ARCHIVE} and ${PREBUILT_MANIFEST} in ${dir}` };
  }
  let manifest: PrebuiltManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as PrebuiltManifest;
  } catch (err) {
    return { unusable: `${manifestFile} is unreadable (${(err as Error).message})` };
  }
  const installed = pgliteVersion();
  if (manifest.pglite !== installed) {
    return { unusable: `it was made with PGlite ${manifest.pglite}; ${installed} is installed` };
  }
  const made = manifest.migrations ?? [];
  const current = migrationEntries(list);
  const differs = made.findIndex(
    (m, i) => m.name !== current[i]?.name || m.code !== current[i]?.code,
  );
  if (differs >= 0 || made.length > current.length) {
    const which = made[differs >= 0 ? differs : current.length];
    return { unusable: `its migration ${which?.name} is not this berth's` };
  }
  const sha256 = createHash('sha256').update(readFileSync(archive)).digest('hex');
  if (sha256 !== manifest.archive?.sha256) {
    return { unusable: `${archive} is not the archive its manifest names (damaged?)` };
  }
  return { archive, pending: current.length - made.length };
}
