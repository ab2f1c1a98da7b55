// A rolling upgrade's middle: the previous release (v0.1.0: its git tag, or the commit it names)
// still serving while the current code has migrated the database and serves beside it. The
// release is materialised with `git archive`, given the current node_modules (a superset of its
// dependencies) and run from its sources (test/support/swc-register.cjs) in
// os.tmpdir()/berth-release-<tag>-<commit>-src (kept between runs, keyed by the commit). Then: the
// current `berth migrate` on a fresh database, the old release's `berth serve` on it (it must
// start, report ready, and leave the migrations table as it found it), the current `berth serve` beside it, and Placement REST
// writes and reads through each seen by the other, with a claim made on the old one (candidates,
// then PUT /allocations) and a GraphQL `schedule` on it too.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { root, TS_REGISTER } from '../support/cli';
import {
  call,
  freePort,
  freshDatabase,
  gql,
  migrateWithCurrentCode,
  NEEDS_POSTGRES,
  type Replica,
  replicaEnv,
  replicaOf,
  startReplica,
  waitFor,
} from './support';

const TAG = 'v0.1.0';
/**
 * The release's commit, as CHANGELOG.md records it: git tags do not travel with every clone (CI's
 * clone of a submitted branch has none), the commit does.
 */
const RELEASE_COMMIT = '210a5fe4392aa16660883ed94979967b40bd8570';

/** The tag's commit (or the recorded one), or why neither can be used (a shallow clone). */
function tagCommit(): { commit?: string; problem?: string } {
  for (const ref of [TAG, RELEASE_COMMIT]) {
    const r = spawnSync('git', ['-C', root, 'rev-parse', '--verify', '-q', `${ref}^{commit}`], {
      encoding: 'utf8',
    });
    if (r.status === 0) {
      return { commit: r.stdout.trim() };
    }
  }
  return {
    problem: `skipped: neither git tag ${TAG} nor its commit ${RELEASE_COMMIT.slice(0, 12)} is in this clone (shallow? git fetch --unshallow)`,
  };
}

const tag = tagCommit();
const problem = NEEDS_POSTGRES ?? tag.problem;

/**
 * The old release's sources: os.tmpdir()/berth-release-<tag>-<commit>, run as they are through the
 * swc require hook the CLI tests use (no compile step). Extracted into a temporary directory and
 * renamed into place, so a half-extracted tree is never reused.
 */
function oldRelease(commit: string): string {
  const dir = path.join(tmpdir(), `berth-release-${TAG}-${commit.slice(0, 12)}-src`);
  if (existsSync(path.join(dir, 'src/cli/main.ts'))) {
    // The cached tree runs on this checkout's node_modules (the one it was made with may be gone).
    rmSync(path.join(dir, 'node_modules'), { force: true });
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    return dir;
  }
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const archive = execFileSync('git', ['-C', root, 'archive', commit], {
    maxBuffer: 512 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', building], { input: archive });
  symlinkSync(path.join(root, 'node_modules'), path.join(building, 'node_modules'), 'dir');
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return dir;
}

const describeUpgrade = problem ? describe.skip : describe;

describeUpgrade(
  `the previous release (${TAG}) serving beside the current code on a database the current code migrated${problem ? ` (${problem})` : ''}`,
  () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let old: Replica | undefined;
    let current: Replica | undefined;
    let migrationsAfterCurrent: string[] = [];

    const migrationsTable = async (): Promise<string[]> => {
      const c = new Client({ connectionString: db.url });
      await c.connect();
      try {
        const r = await c.query('SELECT name FROM berth_migrations ORDER BY id');
        return r.rows.map((row) => row.name as string);
      } finally {
        await c.end();
      }
    };

    beforeAll(async () => {
      const release = oldRelease(tag.commit!);
      db = await freshDatabase('upgrade');
      await migrateWithCurrentCode(db.url);
      migrationsAfterCurrent = await migrationsTable();
      const oldPort = await freePort();
      const clean = { ...process.env };
      delete clean.DATABASE_URL;
      delete clean.REDIS_URL;
      delete clean.BERTH_WORKERS;
      old = await replicaOf(
        spawn(process.execPath, [...TS_REGISTER, 'src/cli/main.ts', 'serve', '--workers', '1'], {
          cwd: release,
          env: { ...clean, NODE_ENV: 'production', ...replicaEnv(db.url, oldPort) },
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
        oldPort,
      );
      current = await startReplica(db.url, await freePort());
    }, 180_000);

    afterAll(async () => {
      await old?.stop();
      await current?.stop();
      await db?.drop();
    });

    it('starts the old release: ready, its banner says 0.1.0, the migrations table untouched', async () => {
      expect(old!.out()).toContain('berth 0.1.0 listening on');
      // The current code's migrations are a superset of the release's; none was reverted or re-run.
      expect(await migrationsTable()).toEqual(migrationsAfterCurrent);
      for (const r of [old!, current!]) {
        const ready = await call(r.url, 'GET', '/readyz');
        expect({ status: ready.status, database: ready.json?.checks?.database }).toEqual({
          status: 200,
          database: 'ok',
        });
      }
    });

    it('shares providers, inventories, allocations and usages between the releases', async () => {
      const o = old!.url;
      const n = current!.url;
      // A provider created through the old release, its inventory set through the current one.
      const created = await call(o, 'POST', '/placement/resource_providers', {
        body: { name: 'upgrade-host-1' },
      });
      expect(created.status).toBe(200);
      const rp = created.json.uuid as string;
      const seen = await call(n, 'GET', `/placement/resource_providers/${rp}`);
      expect({ status: seen.status, name: seen.json?.name }).toEqual({
        status: 200,
        name: 'upgrade-host-1',
      });
      const inventory = await call(n, 'PUT', `/placement/resource_providers/${rp}/inventories`, {
        body: {
          resource_provider_generation: seen.json.generation,
          inventories: {
            VCPU: { total: 8 },
            MEMORY_MB: { total: 16384 },
            DISK_GB: { total: 100 },
          },
        },
      });
      expect(inventory.status).toBe(200);
      const oldInventory = await call(o, 'GET', `/placement/resource_providers/${rp}/inventories`);
      expect(oldInventory.json?.inventories?.VCPU?.total).toBe(8);

      // A claim on the old release: its candidates (its index hears the current one's write),
      // then PUT /allocations with what it proposed.
      const query = '/placement/allocation_candidates?resources=VCPU:2,MEMORY_MB:2048';
      let candidates: any;
      await waitFor(async () => {
        candidates = (await call(o, 'GET', query)).json;
        return (candidates?.allocation_requests?.length ?? 0) > 0;
      }, 15_000);
      const consumerOld = '0d1e7c2e-1f9a-4b8e-9a51-000000000001';
      const claimOld = await call(o, 'PUT', `/placement/allocations/${consumerOld}`, {
        body: {
          allocations: candidates.allocation_requests[0].allocations,
          project_id: 'p-upgrade',
          user_id: 'u-upgrade',
          consumer_generation: null,
          consumer_type: 'INSTANCE',
        },
      });
      expect({ status: claimOld.status, text: claimOld.text }).toEqual({ status: 204, text: '' });

      // A claim on the current release, then usages read through each.
      const consumerNew = '0d1e7c2e-1f9a-4b8e-9a51-000000000002';
      const claimNew = await call(n, 'PUT', `/placement/allocations/${consumerNew}`, {
        body: {
          allocations: { [rp]: { resources: { VCPU: 1, MEMORY_MB: 1024 } } },
          project_id: 'p-upgrade',
          user_id: 'u-upgrade',
          consumer_generation: null,
          consumer_type: 'INSTANCE',
        },
      });
      expect({ status: claimNew.status, text: claimNew.text }).toEqual({ status: 204, text: '' });
      const expected = { VCPU: 3, MEMORY_MB: 3072 };
      for (const base of [o, n]) {
        const usages = await call(base, 'GET', `/placement/resource_providers/${rp}/usages`);
        expect(usages.json?.usages).toEqual({ ...expected, DISK_GB: 0 });
        const project = await call(base, 'GET', '/placement/usages?project_id=p-upgrade');
        // Grouped by consumer type from microversion 1.38.
        expect(project.json?.usages).toEqual({ INSTANCE: { ...expected, consumer_count: 2 } });
      }
      const mine = await call(n, 'GET', `/placement/allocations/${consumerOld}`);
      expect(mine.json?.allocations?.[rp]?.resources).toEqual({ VCPU: 2, MEMORY_MB: 2048 });

      // GraphQL `schedule` on the old release places a consumer; the current one reads it.
      const consumerSched = '0d1e7c2e-1f9a-4b8e-9a51-000000000003';
      const scheduled = await gql(
        o,
        `mutation S($input: ScheduleInput!) {
          schedule(input: $input) { selections { consumerUuid host { uuid } reason } }
        }`,
        {
          input: {
            consumerUuids: [consumerSched],
            projectId: 'p-upgrade',
            userId: 'u-upgrade',
            request: {
              groups: [
                {
                  resources: [
                    { resourceClass: 'VCPU', amount: 1 },
                    { resourceClass: 'MEMORY_MB', amount: 512 },
                  ],
                },
              ],
            },
          },
        },
      );
      expect(scheduled).toEqual({
        data: {
          schedule: {
            selections: [{ consumerUuid: consumerSched, host: { uuid: rp }, reason: null }],
          },
        },
      });
      const placed = await call(n, 'GET', `/placement/allocations/${consumerSched}`);
      expect(placed.json?.allocations?.[rp]?.resources).toEqual({ VCPU: 1, MEMORY_MB: 512 });
      const total = await call(n, 'GET', `/placement/resource_providers/${rp}/usages`);
      expect(total.json?.usages).toEqual({ VCPU: 4, MEMORY_MB: 3584, DISK_GB: 0 });
    });
  },
);
