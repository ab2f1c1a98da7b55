// `berth import placement` as a real process: killed (SIGKILL) once its first batches have
// committed, then re-run to the same end state as the source; a third run reports nothing to
// change; a conflict exits 1 naming the uuid. Needs real PostgreSQL (several connections).
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { readPlacement } from '../../src/import/placement/read-placement';
import { openPlacementSource } from '../../src/import/placement/source';
import { berth, collect, waitFor } from '../support/cli';
import { createTestDb, realPostgresIt, type TestDb, testDatabaseUrl } from '../support/db';
import { createPostgresPlacementSource, type PlacementSourceDb } from '../support/placement-source';
import { differencesFrom, scaleFixture } from './placement-import-fixture';

jest.setTimeout(180_000);

function exitOf(child: ReturnType<typeof berth>): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('berth import placement (real process)', () => {
  let target: TestDb;
  let src: PlacementSourceDb;
  let env: Record<string, string>;
  let admin: Client;
  beforeAll(async () => {
    target = await createTestDb();
    src = await createPostgresPlacementSource();
    await src.fill(scaleFixture(`k${randomUUID().slice(0, 6)}`, 200, 3000));
    const url = new URL(testDatabaseUrl());
    url.searchParams.set('options', `-c search_path=${target.schema}`);
    env = { DATABASE_URL: url.toString() };
    admin = new Client({ connectionString: url.toString() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await src?.drop();
    await target?.drop();
  });

  const count = async (table: string) =>
    (await admin.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;

  realPostgresIt(
    'survives a SIGKILL mid-import: a re-run completes to the source state',
    async () => {
      const child = berth(['import', 'placement', '--from', src.url, '--batch', '4'], env);
      const io = collect(child);
      const exited = exitOf(child);
      await waitFor(async () => (await count('resource_providers')) > 0, 60_000);
      child.kill('SIGKILL');
      await exited;
      const providers = await count('resource_providers');
      const consumers = await count('consumers');
      // Killed part-way: some batches committed, not all (else this test proves nothing).
      expect(providers + consumers).toBeGreaterThan(0);
      expect(providers < 800 || consumers < 3000).toBe(true);
      expect(io.out()).toBe('');

      const rerun = berth(['import', 'placement', '--from', src.url, '--batch', '50'], env);
      const out = collect(rerun);
      expect(await exitOf(rerun)).toBe(0);
      expect(out.out()).toMatch(/^Placement database postgresql:\/\/.*\nKIND +CREATED/);
      expect(out.out()).toMatch(/\nproviders +\d+ +0 +\d+ +- +0\n/);
      const source = await openPlacementSource(src.url);
      const snap = await readPlacement(source).finally(() => source.close());
      expect(await differencesFrom(target.dataSource, snap)).toEqual([]);
      expect(await count('resource_providers')).toBe(800);
      expect(await count('allocations')).toBe(6000);

      const third = berth(['import', 'placement', '--from', src.url], env);
      const out3 = collect(third);
      expect(await exitOf(third)).toBe(0);
      expect(out3.out()).toMatch(/\nproviders +0 +0 +800 +- +0\n/);
      expect(out3.out()).toMatch(/nothing to change: berth already holds this Placement data\n$/);
    },
  );

  realPostgresIt(
    'exits 1 naming each invalid source row, writing nothing; --skip-invalid imports the rest and exits 2',
    async () => {
      const bad = await createPostgresPlacementSource();
      try {
        const [ok, nan] = [randomUUID(), randomUUID()];
        await bad.fill({
          providers: [
            { uuid: ok, name: `ok-${ok}`, inventories: { VCPU: { total: 4 } } },
            { uuid: nan, name: `nan-${nan}`, inventories: { VCPU: { total: 4 } } },
          ],
        });
        await bad.query(
          "UPDATE inventories SET allocation_ratio = 'NaN' WHERE resource_provider_id = (SELECT id FROM resource_providers WHERE uuid = ?)",
          [nan],
        );
        // A second spelling of a provider's uuid (capitals): two objects berth would merge.
        await bad.query(
          'INSERT INTO resource_providers (uuid, name, generation) VALUES (?, ?, 0)',
          [ok.toUpperCase(), 'shadow'],
        );
        // A uuid that tries to forge a line of its own and clear the screen.
        await bad.query(
          'INSERT INTO resource_providers (uuid, name, generation) VALUES (?, ?, 0)',
          ['x\n  provider ok\u001b[2J', 'forger'],
        );
        const providers = await count('resource_providers');
        const refused = berth(['import', 'placement', '--from', bad.url], env);
        const io = collect(refused);
        expect(await exitOf(refused)).toBe(1);
        expect(io.err()).toMatch(/^berth: import failed: the Placement database holds 4 row\(s\)/);
        // One line per row; the forged uuid stays inside its own, escaped.
        expect(
          io
            .err()
            .split('\n')
            .filter((l) => l.startsWith('  ')),
        ).toHaveLength(4);
        expect(io.err()).toContain('uuid "x\\n  provider ok\\x1b[2J": invalid-uuid: ');
        expect(io.err()).not.toContain('\u001b');
        expect(io.err()).toContain('inventory id ');
        expect(io.err()).toContain(': invalid-inventory: Bad inventory VCPU: allocation_ratio');
        expect(io.err()).toContain(`provider id 1, uuid "${ok}": duplicate-uuid: `);
        expect(io.err()).toContain(`uuid "${ok.toUpperCase()}": duplicate-uuid: `);
        expect(await count('resource_providers')).toBe(providers);

        const skipping = berth(['import', 'placement', '--from', bad.url, '--skip-invalid'], env);
        const out = collect(skipping);
        expect(await exitOf(skipping)).toBe(2);
        expect(out.out()).toMatch(/\nproviders +0 +0 +0 +- +4\n/);
        expect(out.out()).toContain(
          'skipped (--skip-invalid): 4 source row(s) breaking a rule, 1 provider(s) and consumer(s) depending on them:',
        );
        expect(out.out()).not.toContain('\u001b');
        expect(out.out()).toContain(
          `provider id 2, uuid "${nan}": depends-on-skipped: its inventory id`,
        );
        expect(await count('resource_providers')).toBe(providers);
      } finally {
        await bad.drop();
      }
    },
  );

  realPostgresIt(
    'exits 1 naming the first conflicting uuid; --dry-run writes nothing',
    async () => {
      const { rows } = await admin.query(
        'UPDATE resource_providers SET name = name || $1 WHERE id = (SELECT min(id) FROM resource_providers) RETURNING uuid::text AS uuid',
        ['-renamed'],
      );
      const uuid = rows[0].uuid as string;
      const refused = berth(['import', 'placement', '--from', src.url], env);
      const io = collect(refused);
      expect(await exitOf(refused)).toBe(1);
      expect(io.err()).toContain(
        `berth already holds provider ${uuid} with different content: name `,
      );
      const dry = berth(['import', 'placement', '--from', src.url, '--dry-run', '--replace'], env);
      const dryIo = collect(dry);
      expect(await exitOf(dry)).toBe(0);
      expect(dryIo.out()).toMatch(/^DRY RUN \(nothing written\)/);
      expect(dryIo.out()).toMatch(/\nproviders +0 +1 +799 +- +0\n/);
      expect(
        (await admin.query('SELECT name FROM resource_providers WHERE uuid = $1', [uuid])).rows[0]
          .name,
      ).toMatch(/-renamed$/);
    },
  );
});
