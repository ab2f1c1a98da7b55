// The prebuilt embedded database (src/db/embedded-prebuilt.ts) that a fresh data directory is
// unpacked from: it was made with the installed PGlite and the current migrations (when this fails:
// `npm run embedded:prebuild`), it is the database that initdb and the migrations give (what that
// command makes again), and it is used for nothing else: another PGlite, a changed or unknown
// migration, a damaged archive or BERTH_EMBEDDED_PREBUILT=off leave a fresh data directory to the
// template cache (BERTH_TEMPLATE_CACHE=off: to PGlite). PGlite cannot start inside jest's vm, so
// the databases are opened in a child process.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrations } from '../../migrations/index';
import {
  choosePrebuilt,
  migrationEntries,
  PREBUILT_ARCHIVE,
  PREBUILT_MANIFEST,
  type PrebuiltManifest,
  prebuiltDir,
} from '../../src/db/embedded-prebuilt';
import { type MigrationClass, pgliteVersion } from '../../src/db/embedded-template';
import {
  berth,
  collect,
  freePort,
  jsonFromChild,
  QUICK_V8,
  terminate,
  waitFor,
} from '../support/cli';

const list = migrations as unknown as MigrationClass[];
const committed = (): PrebuiltManifest =>
  JSON.parse(readFileSync(path.join(prebuiltDir(), PREBUILT_MANIFEST), 'utf8'));

// Describes a database as its catalog sees it (ordered, so two descriptions compare as values).
const CHILD = `
const { startEmbeddedPg } = require('./src/db/embedded-pg');
const { createDataSource } = require('./src/db/data-source');
const { migrateDatabase } = require('./src/db/migrate');
const { seedStandard } = require('./src/db/seed');
const { templateFor } = require('./src/db/embedded-early');
const { choosePrebuilt } = require('./src/db/embedded-prebuilt');
const { makePrebuilt } = require('./src/db/embedded-prebuilt-make');
const [work] = process.argv.slice(1);
const CATALOG = {
  columns: "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default, character_maximum_length FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 3",
  constraints: "SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2",
  indexes: "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2",
  sequences: "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1",
  functions: "SELECT proname, pg_get_functiondef(oid) AS def FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1",
  triggers: "SELECT tgrelid::regclass::text AS tbl, tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1, 2",
  migrations: 'SELECT id, timestamp, name FROM berth_migrations ORDER BY id',
  classes: 'SELECT id, name FROM resource_classes ORDER BY id',
  traits: 'SELECT count(*)::int AS n, min(id) AS first, max(id) AS last FROM traits',
  databases: 'SELECT datname, encoding, datcollate, datctype FROM pg_database ORDER BY 1',
  settings: "SELECT name, setting FROM pg_settings WHERE name IN ('TimeZone', 'DateStyle', 'lc_messages', 'lc_monetary', 'lc_numeric', 'lc_time', 'default_text_search_config', 'server_encoding') ORDER BY 1",
};
const log = { warn: (o, m) => process.stderr.write(m + '\\n'), info: () => {} };
// Opens the data directory, applies what is pending (as the server does), seeds, describes.
async function openAndDescribe(dir, opts) {
  const pg = await startEmbeddedPg(dir, { maxConnections: 2, ...opts });
  const ds = createDataSource({ url: pg.url, poolSize: 1 });
  await ds.initialize();
  const applied = (await migrateDatabase(ds)).length;
  await seedStandard(ds.manager);
  const described = {};
  for (const [k, sql] of Object.entries(CATALOG)) described[k] = await ds.query(sql);
  await ds.destroy();
  await pg.stop();
  return { from: pg.boot.from, applied, described };
}
(async () => {
  const choice = choosePrebuilt();
  if (!choice.archive) throw new Error('the prebuilt database is not usable: ' + choice.unusable);
  // Side by side, each PGlite in a thread of its own: the committed archive as the server's
  // thread unpacks it, and one made again from initdb and the migrations (npm run embedded:prebuild).
  const [committed, [made, remade]] = await Promise.all([
    openAndDescribe(work + '/a', { prebuilt: () => choice.archive }),
    (async () => {
      const made = await makePrebuilt(work + '/made');
      const archive = work + '/made/${PREBUILT_ARCHIVE}';
      return [made, await openAndDescribe(work + '/b', { prebuilt: () => archive })];
    })(),
  ]);
  // The CLI's path (src/cli/database.ts): the same archive, unpacked on the calling thread.
  const viaHook = await openAndDescribe(work + '/c', { initialise: templateFor(log) });
  process.stdout.write(JSON.stringify({ committed, made, remade, viaHook }));
})().catch((err) => { console.error(err); process.exit(1); });
`;

interface Opened {
  from: string;
  applied: number;
  described: Record<string, unknown[]>;
}

interface Outcome {
  committed: Opened;
  made: PrebuiltManifest;
  remade: Opened;
  viaHook: Opened;
}

function runChild(work: string): Promise<Outcome> {
  return jsonFromChild<Outcome>(CHILD, [work], { BERTH_EMBEDDED_PREBUILT: '' });
}

describe('prebuilt embedded database', () => {
  it('was made with the installed PGlite and the current migrations (else run `npm run embedded:prebuild`)', () => {
    const manifest = committed();
    expect({ pglite: manifest.pglite, migrations: manifest.migrations }).toEqual({
      pglite: pgliteVersion(),
      migrations: migrationEntries(list),
    });
    expect(choosePrebuilt(list, {})).toEqual({
      archive: path.join(prebuiltDir(), PREBUILT_ARCHIVE),
      pending: 0,
    });
  });

  describe('is used only for what it was made with', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'berth-prebuilt-'));
      for (const f of [PREBUILT_ARCHIVE, PREBUILT_MANIFEST]) {
        cpSync(path.join(prebuiltDir(), f), path.join(dir, f));
      }
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const manifest = (change: (m: PrebuiltManifest) => PrebuiltManifest) =>
      writeFileSync(path.join(dir, PREBUILT_MANIFEST), JSON.stringify(change(committed())));
    const last = list[list.length - 1];
    // Same class name, other code: what editing a migration in place does.
    const edited = {
      [last.name]: class extends last {
        override async up(): Promise<void> {}
      },
    }[last.name];
    class AddedLater1999999999999 {
      async up(): Promise<void> {}
      async down(): Promise<void> {}
    }

    it('is used, with the migrations added since pending, for a longer list', () => {
      expect(choosePrebuilt([...list, AddedLater1999999999999], {}, dir)).toEqual({
        archive: path.join(dir, PREBUILT_ARCHIVE),
        pending: 1,
      });
    });

    it.each([
      { name: 'BERTH_EMBEDDED_PREBUILT=off', env: { BERTH_EMBEDDED_PREBUILT: 'off' } },
      { name: 'BERTH_TEMPLATE_CACHE=off', env: { BERTH_TEMPLATE_CACHE: 'off' } },
      { name: 'an edited migration', list: [...list.slice(0, -1), edited] },
      { name: 'a list without its last migration (an older berth)', list: list.slice(0, -1) },
      {
        name: 'another PGlite',
        change: (m: PrebuiltManifest) => ({ ...m, pglite: '0.0.1' }),
      },
      {
        name: 'an archive that is not the one its manifest names',
        change: (m: PrebuiltManifest) => ({
          ...m,
          archive: { ...m.archive, sha256: '0'.repeat(64) },
        }),
      },
      { name: 'no archive', remove: PREBUILT_ARCHIVE },
      { name: 'an unreadable manifest', write: '{' },
    ])('is not used with $name', (c) => {
      if (c.change) {
        manifest(c.change);
      }
      if (c.remove) {
        rmSync(path.join(dir, c.remove));
      }
      if (c.write) {
        writeFileSync(path.join(dir, PREBUILT_MANIFEST), c.write);
      }
      const choice = choosePrebuilt(c.list ?? list, c.env ?? {}, dir);
      expect(choice).toEqual({ unusable: expect.any(String) });
    });
  });

  it('gives a fresh data directory the database that initdb and the migrations give', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'berth-prebuilt-'));
    try {
      const r = await runChild(work);
      // Made again, it names the same PGlite and migrations as the committed one.
      expect({ pglite: r.made.pglite, migrations: r.made.migrations }).toEqual({
        pglite: committed().pglite,
        migrations: committed().migrations,
      });
      for (const opened of [r.committed, r.remade, r.viaHook]) {
        expect(opened.from).toBe(opened === r.viaHook ? 'initialised' : 'prebuilt');
        expect(opened.applied).toBe(0);
      }
      expect(r.committed.described.migrations).toHaveLength(migrations.length);
      expect(r.committed.described.columns.length).toBeGreaterThan(50);
      expect(r.committed.described.classes).toHaveLength(21);
      expect(r.committed.described).toEqual(r.remade.described);
      expect(r.viaHook.described).toEqual(r.committed.described);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);

  it('serves a fresh data directory of `berth serve` from its thread, with no template made', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'berth-prebuilt-serve-'));
    const port = String(await freePort());
    const cache = path.join(work, 'cache');
    const child = berth(
      ['serve'],
      {
        BERTH_DATA_DIR: path.join(work, 'data'),
        BERTH_TEMPLATE_CACHE: cache,
        LOG_LEVEL: 'info',
        PORT: port,
      },
      QUICK_V8,
    );
    const io = collect(child);
    try {
      await waitFor(() => io.out().includes('listening on'), 110_000);
      const r = await fetch(`http://127.0.0.1:${port}/placement/resource_providers`);
      expect([r.status, await r.json()]).toEqual([200, { resource_providers: [] }]);
      expect(await terminate(child)).toBe(0);
      const serving = io
        .out()
        .split('\n')
        .find((l) => l.includes('"embedded PostgreSQL (PGlite) serving"'));
      expect(JSON.parse(serving ?? '{}')).toMatchObject({
        from: 'prebuilt',
        msg: expect.any(String),
      });
      expect(io.out()).not.toMatch(/prebuilt database/);
      expect(existsSync(cache)).toBe(false);
      expect(existsSync(path.join(work, 'data', 'pgdata', 'PG_VERSION'))).toBe(true);
      expect(existsSync(path.join(work, 'data', 'pgdata.unpacking'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});
