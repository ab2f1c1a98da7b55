// `berth check` on a hostile shape and under interruption: a 50,000-deep parent chain (planted
// with SQL) is walked in linear time, a cycle or a wrong root at its far end is still found, a
// statement past --statement-timeout stops the run with an error naming the flag, and a check
// killed with SIGTERM, SIGINT or SIGKILL leaves no statement of it running on the server.
import type { ChildProcess } from 'node:child_process';
import type { QueryRunner } from 'typeorm';
import { runConsistencyChecks } from '../../src/placement/consistency/run-checks';
import { berth, collect, waitFor } from '../support/cli';
import { createTestDb, realPostgresIt, schemaUrl, type TestDb } from '../support/db';

jest.setTimeout(120_000);

const DEPTH = 50_000;

describe('berth check limits', () => {
  let db: TestDb;
  let top: number;
  let bottom: number;
  const q = (sql: string, params: unknown[] = []) => db.dataSource.query(sql, params);

  beforeAll(async () => {
    db = await createTestDb();
    // One chain: top (a root) <- 1 <- 2 <- ... <- bottom, every root_provider_id the top.
    const [{ base }] = await q(`SELECT nextval('resource_providers_id_seq')::int AS base`);
    await q(`SELECT setval('resource_providers_id_seq', $1::int + $2::int)`, [base, DEPTH]);
    await q(
      `INSERT INTO resource_providers (id, uuid, name, root_provider_id, parent_provider_id)
       SELECT $1::int + g, gen_random_uuid(), 'deep-' || g, $1::int,
         CASE WHEN g = 0 THEN NULL ELSE $1::int + g - 1 END
       FROM generate_series(0, $2::int - 1) g`,
      [base, DEPTH],
    );
    top = base;
    bottom = base + DEPTH - 1;
  });
  afterAll(async () => {
    await db.drop();
  });

  const uuidOf = async (id: number) =>
    (await q('SELECT uuid::text AS u FROM resource_providers WHERE id = $1', [id]))[0].u as string;
  const tree = async () => {
    const report = await runConsistencyChecks(db.dataSource, { statementTimeoutMs: 30_000 });
    const pick = (name: string) => report.checks.find((c) => c.check === name)!;
    return { cycle: pick('provider-cycle'), mismatch: pick('provider-root-mismatch') };
  };

  it('walks a 50,000-deep chain in linear time, and finds what is wrong at its far end', async () => {
    const started = performance.now();
    const clean = await tree();
    expect(performance.now() - started).toBeLessThan(20_000);
    expect([clean.cycle.count, clean.mismatch.count]).toEqual([0, 0]);

    await q('UPDATE resource_providers SET root_provider_id = id WHERE id = $1', [bottom]);
    const wrongRoot = await tree();
    expect(wrongRoot.mismatch).toMatchObject({ count: 1, examples: [await uuidOf(bottom)] });
    await q('UPDATE resource_providers SET root_provider_id = $1 WHERE id = $2', [top, bottom]);

    // The top becomes the child of the bottom: the whole chain is one cycle.
    await q('UPDATE resource_providers SET parent_provider_id = $1 WHERE id = $2', [bottom, top]);
    const looped = await tree();
    expect(looped.cycle.count).toBe(DEPTH);
    expect(looped.mismatch.count).toBe(0);
    await q('UPDATE resource_providers SET parent_provider_id = NULL WHERE id = $1', [top]);
  });

  /** `berth check <args>` as a real process on the test schema. */
  const check = (args: string[]): ChildProcess =>
    berth(['check', ...args], { DATABASE_URL: schemaUrl(db.schema) });
  const exitOf = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  realPostgresIt(
    'stops at --statement-timeout with an error naming the flag (exit 255)',
    async () => {
      const child = check(['--statement-timeout', '1ms']);
      const output = collect(child);
      expect(await exitOf(child)).toBe(255);
      expect(output.out()).toBe('');
      expect(output.err()).toMatch(
        /^berth: check could not run: [a-z-]+ took longer than --statement-timeout 1ms; raise it \(e\.g\. --statement-timeout 5m, 0 = none\)/,
      );
    },
  );

  describe('killed while a statement runs', () => {
    let locker: QueryRunner;
    let lockerPid: number;
    // Statements of other sessions waiting for the test's lock: the check's, while it runs.
    const blocked = async (): Promise<number> =>
      (
        await q(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))',
          [lockerPid],
        )
      )[0].n;

    beforeEach(async () => {
      // The check's first statement after the schema check reads allocations: hold it there.
      locker = db.dataSource.createQueryRunner();
      await locker.connect();
      lockerPid = (await locker.query('SELECT pg_backend_pid() AS pid'))[0].pid;
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE allocations IN ACCESS EXCLUSIVE MODE');
    });
    afterEach(async () => {
      await locker.query('ROLLBACK');
      await locker.release();
    });

    realPostgresIt.each([
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const)('%s: cancels its statement on the server, then exits %d', async (signal, code) => {
      const child = check([]);
      const output = collect(child);
      await waitFor(async () => (await blocked()) === 1, 60_000);
      const exited = exitOf(child);
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(output.err()).toBe(`berth: check interrupted (${signal}); its query was cancelled\n`);
      expect(await blocked()).toBe(0);
    });

    realPostgresIt('SIGKILL: the server notices the dead client within seconds', async () => {
      const child = check([]);
      await waitFor(async () => (await blocked()) === 1, 60_000);
      const exited = exitOf(child);
      child.kill('SIGKILL');
      await exited;
      await waitFor(async () => (await blocked()) === 0, 20_000);
    });
  });
});
