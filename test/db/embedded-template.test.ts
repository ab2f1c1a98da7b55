// A fresh embedded data directory made from the migrated template (src/db/embedded-template.ts) is
// the database that migrating it directly gives: same tables, columns, constraints, indexes,
// sequences and migration rows. A template made with another migration list (an older berth) is
// never used. PGlite cannot start inside jest's vm, so the databases are made in a child process
// (with QUICK_V8: its three initdbs are most of this file's CPU).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrations } from '../../migrations/index';
import { type MigrationClass, templateKey } from '../../src/db/embedded-template';
import { jsonFromChild } from '../support/cli';

// Describes a database as its catalog sees it (ordered, so two dumps compare as values).
const CHILD = `
const { startEmbeddedPg } = require('./src/db/embedded-pg');
const { createDataSource } = require('./src/db/data-source');
const { migrateDatabase } = require('./src/db/migrate');
const { seedStandard } = require('./src/db/seed');
const { ensureTemplate, initialiseFromTemplate } = require('./src/db/embedded-template');
const { migrations } = require('./migrations/index');
const [cache, work] = process.argv.slice(1);
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
};
async function open(dir, initialise) {
  const pg = await startEmbeddedPg(dir, { maxConnections: 2, initialise });
  const ds = createDataSource({ url: pg.url, poolSize: 1 });
  await ds.initialize();
  return { ds, async close() { await ds.destroy(); await pg.stop(); } };
}
async function describe(ds) {
  const out = {};
  for (const [k, sql] of Object.entries(CATALOG)) out[k] = await ds.query(sql);
  return out;
}
(async () => {
  // Two chains, each PGlite in a thread of its own: the templates (the current one made while the
  // older berth's is there) beside the database migrated directly.
  const [[older, current], [appliedDirectly, direct]] = await Promise.all([
    (async () => {
      const older = await ensureTemplate(cache, migrations.slice(0, -1));
      return [older, await ensureTemplate(cache, migrations)];
    })(),
    (async () => {
      const b = await open(work + '/b');
      const applied = (await migrateDatabase(b.ds)).length;
      await seedStandard(b.ds.manager);
      const described = await describe(b.ds);
      await b.close();
      return [applied, described];
    })(),
  ]);
  const again = await ensureTemplate(cache, migrations);
  const errors = [];
  const fromTemplate = initialiseFromTemplate(cache, (e) => errors.push(String(e)));
  const [[appliedOnTemplate, viaTemplate, kept], olderMigrations] = await Promise.all([
    (async () => {
      const a = await open(work + '/a', fromTemplate);
      const applied = (await migrateDatabase(a.ds)).length;
      await seedStandard(a.ds.manager);
      const described = await describe(a.ds);
      await a.ds.query("INSERT INTO traits (name) VALUES ('CUSTOM_KEPT')");
      await a.close();
      const reopened = await open(work + '/a', fromTemplate);
      const n = (await reopened.ds.query("SELECT count(*)::int AS n FROM traits WHERE name = 'CUSTOM_KEPT'"))[0].n;
      await reopened.close();
      return [applied, described, n];
    })(),
    (async () => {
      const o = await open(work + '/older', async (pgdata) => require('./src/db/embedded-template').copyTemplate(older.dir, pgdata));
      const n = (await o.ds.query('SELECT count(*)::int AS n FROM berth_migrations'))[0].n;
      await o.close();
      return n;
    })(),
  ]);
  process.stdout.write(JSON.stringify({ older, current, again, errors, appliedOnTemplate, appliedDirectly, viaTemplate, direct, kept, olderMigrations }));
})().catch((err) => { console.error(err); process.exit(1); });
`;

interface Outcome {
  older: { dir: string; built: boolean };
  current: { dir: string; built: boolean };
  again: { dir: string; built: boolean };
  errors: string[];
  appliedOnTemplate: number;
  appliedDirectly: number;
  viaTemplate: Record<string, unknown[]>;
  direct: Record<string, unknown[]>;
  kept: number;
  olderMigrations: number;
}

function runChild(cache: string, work: string): Promise<Outcome> {
  return jsonFromChild<Outcome>(CHILD, [cache, work]);
}

describe('embedded template', () => {
  it('is keyed by PGlite and every migration: another list or changed code is another template', () => {
    const list = migrations as unknown as MigrationClass[];
    expect(templateKey(list)).toBe(templateKey([...list]));
    expect(templateKey(list.slice(0, -1))).not.toBe(templateKey(list));
    const last = list[list.length - 1];
    // Same class name, other code: what editing a migration in place does.
    const edited = {
      [last.name]: class extends last {
        override async up(): Promise<void> {}
      },
    }[last.name];
    expect(edited.name).toBe(last.name);
    expect(templateKey([...list.slice(0, -1), edited])).not.toBe(templateKey(list));
  });

  it('gives a fresh data directory the database migrating it directly gives, once per migration list', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'berth-template-'));
    try {
      const r = await runChild(path.join(work, 'cache'), work);
      expect(r.errors).toEqual([]);
      // The older berth's template is not the current one, and has one migration fewer.
      expect(r.older.built).toBe(true);
      expect(r.current.built).toBe(true);
      expect(r.current.dir).not.toBe(r.older.dir);
      expect(r.olderMigrations).toBe(migrations.length - 1);
      expect(r.again).toEqual({ dir: r.current.dir, built: false });
      // The copy was fully migrated; the direct database needed every migration.
      expect(r.appliedOnTemplate).toBe(0);
      expect(r.appliedDirectly).toBe(migrations.length);
      expect(r.viaTemplate.migrations).toHaveLength(migrations.length);
      expect(r.viaTemplate.columns.length).toBeGreaterThan(50);
      expect(r.viaTemplate.classes).toHaveLength(21);
      expect(r.viaTemplate).toEqual(r.direct);
      // An existing data directory is opened, never replaced by the template.
      expect(r.kept).toBe(1);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);
});
