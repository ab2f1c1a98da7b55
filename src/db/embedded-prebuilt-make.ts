// Makes the prebuilt embedded database (src/db/embedded-prebuilt.ts) again: a fresh PGlite
// (initdb) migrated with every migration, stopped, packed (src/db/embedded-archive.ts) into
// src/db/data/embedded-pgdata.tar.br beside its manifest. `npm run embedded:prebuild` runs this
// file after transpiling the sources; run it after adding or changing a migration or upgrading
// PGlite (test/db/embedded-prebuilt.test.ts says when).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrations as berthMigrations } from '../../migrations/index';
import { packDirectory } from './embedded-archive';
import {
  migrationEntries,
  PREBUILT_ARCHIVE,
  PREBUILT_MANIFEST,
  type PrebuiltManifest,
  prebuiltDir,
} from './embedded-prebuilt';
import { ensureTemplate, type MigrationClass, pgliteVersion } from './embedded-template';

/**
 * Writes the prebuilt database of `list` into `dir` (the archive, then its manifest, each written
 * beside and renamed into place).
 * @returns its manifest.
 * @throws when a migration fails.
 */
export async function makePrebuilt(
  dir: string = prebuiltDir(),
  list: readonly MigrationClass[] = berthMigrations,
): Promise<PrebuiltManifest> {
  const work = mkdtempSync(path.join(tmpdir(), 'berth-prebuild-'));
  try {
    // A template cache of its own, never the user's: this is an initdb and every migration.
    const { dir: pgdata } = await ensureTemplate(path.join(work, 'cache'), list);
    const archive = packDirectory(pgdata);
    const manifest: PrebuiltManifest = {
      pglite: pgliteVersion(),
      migrations: migrationEntries(list),
      archive: {
        sha256: createHash('sha256').update(archive).digest('hex'),
        bytes: archive.length,
      },
    };
    mkdirSync(dir, { recursive: true });
    const write = (name: string, data: string | Buffer) => {
      const partial = path.join(dir, `.${name}.${process.pid}`);
      writeFileSync(partial, data);
      renameSync(partial, path.join(dir, name));
    };
    write(PREBUILT_ARCHIVE, archive);
    write(PREBUILT_MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  makePrebuilt().then(
    (m) => {
      process.stdout.write(
        `prebuilt embedded database: ${path.join(prebuiltDir(), PREBUILT_ARCHIVE)} (${m.archive.bytes} bytes, PGlite ${m.pglite}, ${m.migrations.length} migrations)\n`,
      );
    },
    (err) => {
      process.stderr.write(`prebuilt embedded database: ${(err as Error).stack ?? err}\n`);
      process.exit(1);
    },
  );
}
