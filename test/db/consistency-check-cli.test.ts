// `berth check`: the audit's transaction (read-only, repeatable read), the command body (table, JSON, exit status per severity) in process on a test
// schema, and the real CLI process: on its own embedded data directory (unmigrated, then
// migrated), and, on real PostgreSQL, against a schema with a planted problem.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServices, type Services } from '../../src/app/services';
import { CHECK_EXIT, runCheck } from '../../src/cli/check-command';
import { ChangeBus } from '../../src/placement/change-bus';
import { CONSISTENCY_CHECKS } from '../../src/placement/consistency/checks';
import { runConsistencyChecks } from '../../src/placement/consistency/run-checks';
import { CLI_ARGS, cliEnv, QUICK_V8, root } from '../support/cli';
import { createTestDb, realPostgresIt, type TestDb, testDatabaseUrl } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';

jest.setTimeout(120_000);

const CHECKS = 1 + CONSISTENCY_CHECKS.length;

function sink() {
  const chunks: string[] = [];
  return { text: () => chunks.join(''), write: (c: string) => chunks.push(c) > 0 };
}

/** Runs the real `berth <args>` to completion with `env` added to a clean environment. */
function berth(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [...QUICK_V8, ...CLI_ARGS, ...args], {
    cwd: root,
    env: cliEnv(env),
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('berth check', () => {
  let db: TestDb;
  let s: Services;
  let consumer: string;
  let host: string;
  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`));
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    host = rp.uuid;
    const c = claim(rp.uuid, { VCPU: 2 });
    await s.allocations.set([c]);
    consumer = c.consumerUuid;
  });
  afterAll(async () => {
    await db.drop();
  });

  it('runs every check in one READ ONLY, REPEATABLE READ transaction', async () => {
    const probe = (name: string, sql: string) => ({
      name,
      severity: 'warning' as const,
      subject: 'setting',
      description: name,
      sql,
    });
    const report = await runConsistencyChecks(db.dataSource, {
      checks: [
        probe('isolation', "SELECT current_setting('transaction_isolation') AS subject"),
        probe('read-only', "SELECT current_setting('transaction_read_only') AS subject"),
      ],
    });
    expect(report.checks.slice(1).map((c) => c.examples)).toEqual([['repeatable read'], ['on']]);
    const writing = probe('writes', "SELECT nextval('consumers_id_seq')::text AS subject");
    await expect(runConsistencyChecks(db.dataSource, { checks: [writing] })).rejects.toThrow(
      /read-only transaction/,
    );
  });

  it('prints every check as ok and exits 0 on a consistent database', async () => {
    const out = sink();
    expect(await runCheck(db.dataSource, { examples: 5 }, out)).toBe(CHECK_EXIT.ok);
    const lines = out.text().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CHECK +STATUS +COUNT +EXAMPLES$/);
    expect(lines).toHaveLength(CHECKS + 2);
    expect(lines.slice(1, -1).every((l) => /^[a-z-]+ +ok +0$/.test(l))).toBe(true);
    expect(lines.at(-1)).toBe(`status: ok (${CHECKS} checks, 0 problem(s), 0 warning(s))`);
  });

  it('exits 1 for a warning and 2 for a problem, naming the uuid in the table and the JSON', async () => {
    await db.dataSource.query('UPDATE inventories SET allocation_ratio = 0.25');
    const warned = sink();
    expect(await runCheck(db.dataSource, { examples: 5 }, warned)).toBe(CHECK_EXIT.warning);
    expect(warned.text()).toMatch(
      new RegExp(`\\nusage-over-capacity +warning +1 +provider ${host}\\n`),
    );

    await db.dataSource.query('UPDATE consumers SET generation = -1 WHERE uuid = $1', [consumer]);
    const json = sink();
    expect(await runCheck(db.dataSource, { json: true, examples: 5 }, json)).toBe(
      CHECK_EXIT.problem,
    );
    const report = JSON.parse(json.text());
    expect(report.status).toBe('problem');
    expect(report.checks).toHaveLength(CHECKS);
    expect(report.checks.filter((c: { ok: boolean }) => !c.ok)).toEqual([
      {
        check: 'usage-over-capacity',
        severity: 'warning',
        ok: false,
        count: 1,
        examples: [host],
        subject: 'provider',
        description: expect.stringMatching(/^provider\/class pairs whose allocations exceed/),
      },
      {
        check: 'consumer-generation-invalid',
        severity: 'problem',
        ok: false,
        count: 1,
        examples: [consumer],
        subject: 'consumer',
        description: expect.any(String),
      },
    ]);
    await db.dataSource.query('UPDATE inventories SET allocation_ratio = 1');
    await db.dataSource.query('UPDATE consumers SET generation = 1');
  });

  it('as a real process: reports an unmigrated embedded database (exit 2), then a migrated one (exit 0)', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-check-'));
    try {
      // Without the template (which is migrated): the database PGlite creates.
      const env = { BERTH_DATA_DIR: dataDir, BERTH_TEMPLATE_CACHE: 'off' };
      const bare = berth(['check'], env);
      expect(bare.err).toBe('');
      expect(bare.code).toBe(2);
      expect(bare.out).toMatch(
        /^CHECK +STATUS +COUNT +EXAMPLES\nschema-migrated +problem +\d+ +migration InitialSchema/,
      );
      expect(bare.out).toContain('other checks skipped: the database schema is not migrated\n');
      expect(berth(['migrate'], env).code).toBe(0);
      const migrated = berth(['check', '--json'], env);
      expect(migrated.code).toBe(0);
      const report = JSON.parse(migrated.out);
      expect(report.status).toBe('ok');
      expect(report.checks).toHaveLength(CHECKS);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // The PGlite socket server ignores the `options` startup parameter, so the process cannot be
  // pointed at a test schema there; the embedded case above covers the process on PGlite.
  realPostgresIt(
    'as a real process on DATABASE_URL: exits 2 and names the planted uuid',
    async () => {
      const url = new URL(testDatabaseUrl());
      url.searchParams.set('options', `-c search_path=${db.schema}`);
      const [{ generation }] = await db.dataSource.query(
        'SELECT generation FROM resource_providers WHERE uuid = $1',
        [host],
      );
      await db.dataSource.query('UPDATE resource_providers SET generation = -1 WHERE uuid = $1', [
        host,
      ]);
      try {
        const run = berth(['check'], { DATABASE_URL: url.toString() });
        expect(run.err).toBe('');
        expect(run.code).toBe(2);
        expect(run.out).toMatch(
          new RegExp(`\\nprovider-generation-invalid +problem +1 +provider ${host}\\n`),
        );
        expect(run.out).toMatch(
          /\nstatus: problem \(\d+ checks, 1 problem\(s\), 0 warning\(s\)\)\n$/,
        );
        const json = berth(['check', '--json', '--examples', '1'], {
          DATABASE_URL: url.toString(),
        });
        expect(json.code).toBe(2);
        expect(
          JSON.parse(json.out).checks.find(
            (c: { check: string }) => c.check === 'provider-generation-invalid',
          ),
        ).toMatchObject({ ok: false, count: 1, examples: [host] });
      } finally {
        await db.dataSource.query('UPDATE resource_providers SET generation = $1 WHERE uuid = $2', [
          generation,
          host,
        ]);
      }
    },
  );
});
