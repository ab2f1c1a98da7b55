// `berth import compute-nodes`: the command body (summary table, JSON, exit status, source
// errors) in process, and the real CLI process once against a scratch berth schema.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import {
  type ComputeNodesCommandOptions,
  EXIT_ROWS_FAILED,
  runComputeNodesImport,
} from '../../src/cli/import-command';
import type { ImportSummary } from '../../src/import/import-service';
import { createTestDb, realPostgresIt, type TestDb, testDatabaseUrl } from '../support/db';
import {
  insertNode,
  itFor,
  type LegacyDb,
  openMariadbLegacy,
  openPostgresLegacy,
} from './legacy-import-fixtures';

const root = path.resolve(__dirname, '../..');

function sink() {
  const chunks: string[] = [];
  return { chunks, write: (c: string) => chunks.push(c) > 0, isTTY: false };
}

const options = (from: string, table: string, o: Partial<ComputeNodesCommandOptions> = {}) => ({
  from,
  table,
  writeBack: true,
  batchSize: 500,
  ...o,
});

async function twoNodes(db: LegacyDb, prefix: string) {
  const t = await db.createTables();
  await insertNode(db, t.table, {
    hypervisor_hostname: `${prefix}-ok`,
    vcpus: 4,
    memory_mb: 4096,
    local_gb: 40,
  });
  await insertNode(db, t.table, {
    hypervisor_hostname: `${prefix}-broken`,
    vcpus: 4,
    memory_mb: 4096,
    local_gb: 40,
    numa_topology: 'not json',
  });
  return t;
}

describe.each([
  { kind: 'postgres', open: openPostgresLegacy },
  { kind: 'mariadb', open: openMariadbLegacy },
])('berth import compute-nodes ($kind)', ({ kind, open }) => {
  let berth: TestDb;
  let legacy: LegacyDb | string;
  beforeAll(async () => {
    berth = await createTestDb();
    legacy = await open();
  });
  afterAll(async () => {
    if (typeof legacy !== 'string') {
      await legacy.close();
    }
    await berth.drop();
  });

  /** The legacy database (its tests are skipped when it cannot be reached). */
  function legacyOrSkip(): LegacyDb {
    if (typeof legacy === 'string') {
      throw new Error(`${kind} legacy database unavailable: ${legacy}`);
    }
    return legacy;
  }

  itFor(kind)('prints the summary table and exits 2 when a row failed', async () => {
    const db = legacyOrSkip();
    const prefix = `t${randomUUID().slice(0, 6)}`;
    const t = await twoNodes(db, prefix);
    const out = sink();
    const run = await runComputeNodesImport(
      berth.dataSource,
      options(db.url, t.table),
      out,
      sink(),
    );
    const text = out.chunks.join('');
    expect(run.exitCode).toBe(EXIT_ROWS_FAILED);
    expect(text).toMatch(new RegExp(`^compute nodes from .*${t.table.split('.').pop()}`));
    expect(text).toMatch(new RegExp(`\\n1 +${prefix}-ok +[0-9a-f-]{36} +created\\n`));
    expect(text).toMatch(/\n +\+VCPU total=4 .*ratio=16\n/);
    expect(text).toMatch(/\n +note: uuid written back to the source\n/);
    expect(text).toMatch(
      new RegExp(
        `\\n2 +${prefix}-broken +- +failed\\n +reason: numa_topology is not valid JSON\\n`,
      ),
    );
    expect(text).toMatch(/2 row\(s\): 1 created, 0 updated, 0 unchanged, 0 skipped, 1 failed\n$/);
    expect(out.chunks.join('')).not.toContain('\r');
  });

  itFor(kind)('prints JSON with --json, and a dry run exits 0 when every row maps', async () => {
    const db = legacyOrSkip();
    const prefix = `j${randomUUID().slice(0, 6)}`;
    const t = await db.createTables();
    await insertNode(db, t.table, {
      hypervisor_hostname: `${prefix}-a`,
      vcpus: 2,
      memory_mb: 512,
      local_gb: 5,
    });
    const out = sink();
    const run = await runComputeNodesImport(
      berth.dataSource,
      options(db.url, t.table, { json: true, dryRun: true }),
      out,
      sink(),
    );
    const parsed = JSON.parse(out.chunks.join('')) as ImportSummary;
    expect(run.exitCode).toBe(0);
    expect(parsed).toMatchObject({ dryRun: true, counts: { created: 1, failed: 0 } });
    expect(parsed.nodes[0]).toMatchObject({ name: `${prefix}-a`, action: 'created' });
  });

  itFor(kind)('fails with a clear message for a missing table', async () => {
    const db = legacyOrSkip();
    await expect(
      runComputeNodesImport(berth.dataSource, options(db.url, 'no_such_table'), sink(), sink()),
    ).rejects.toThrow(/^cannot read .*: table .*no_such_table.* not found/);
  });
});

describe('berth import compute-nodes (errors)', () => {
  let berth: TestDb;
  beforeAll(async () => {
    berth = await createTestDb();
  });
  afterAll(async () => {
    await berth.drop();
  });

  it.each([
    { from: 'sqlite:///nova.db', msg: /must be a postgres:\/\/.*mariadb:\/\/ URL/ },
    {
      from: 'mysql://root:secret@127.0.0.1:1/nova',
      msg: /^cannot read mysql:\/\/root:\*\*\*@127\.0\.0\.1:1\/nova: .*ECONNREFUSED/,
    },
    {
      from: 'postgres://u@127.0.0.1:1/nova',
      msg: /^cannot read postgres:\/\/u@127\.0\.0\.1:1\/nova: .*ECONNREFUSED/,
    },
  ])('refuses $from', async ({ from, msg }) => {
    await expect(
      runComputeNodesImport(berth.dataSource, options(from, 'compute_nodes'), sink(), sink()),
    ).rejects.toThrow(msg);
  });
});

describe('berth import compute-nodes (real process)', () => {
  realPostgresIt(
    'imports through the CLI with --no-write-back and --pci-max-unit (real PostgreSQL)',
    async () => {
      const legacy = await openPostgresLegacy();
      const schema = `cli_${process.pid}_${randomUUID().slice(0, 8)}`;
      const admin = new Client({ connectionString: testDatabaseUrl() });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      try {
        const t = await legacy.createTables();
        const id = await insertNode(legacy, t.table, {
          hypervisor_hostname: `${schema}-cmp`,
          vcpus: 8,
          memory_mb: 8192,
          local_gb: 80,
          pci_stats: JSON.stringify([{ count: 16, dev_type: 'type-VF' }]),
        });
        await legacy.query(`DROP TABLE ${t.pciTable}`);
        const url = new URL(testDatabaseUrl());
        url.searchParams.set('options', `-c search_path=${schema}`);
        const res = spawnSync(
          process.execPath,
          [
            '-r',
            path.join(root, 'test/support/swc-register.cjs'),
            'src/cli/main.ts',
            'import',
            'compute-nodes',
            '--from',
            legacy.url,
            '--table',
            t.table,
            '--no-write-back',
            '--pci-max-unit',
            'SRIOV_NET_VF=4',
          ],
          {
            cwd: root,
            encoding: 'utf8',
            env: { ...process.env, DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' },
          },
        );
        expect(res.stderr).toBe('');
        expect(res.status).toBe(0);
        expect(res.stdout).toContain('+SRIOV_NET_VF total=16 reserved=0 min_unit=1 max_unit=4');
        expect(res.stdout).toContain('note: uuid not written back to the source');
        const inv = await admin.query(
          `SELECT rc.name, i.total, i.max_unit FROM ${schema}.inventories i
         JOIN ${schema}.resource_classes rc ON rc.id = i.resource_class_id ORDER BY rc.name`,
        );
        expect(inv.rows.map((r) => [r.name, r.total, r.max_unit])).toEqual([
          ['DISK_GB', 80, 80],
          ['MEMORY_MB', 8192, 8192],
          ['SRIOV_NET_VF', 16, 4],
          ['VCPU', 8, 8],
        ]);
        expect(
          (await legacy.query(`SELECT uuid FROM ${t.table} WHERE id = ?`, [id]))[0]?.uuid,
        ).toBeNull();
      } finally {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
        await legacy.close();
      }
    },
    60_000,
  );
});
