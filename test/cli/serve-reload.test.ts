// SIGHUP to a real `berth serve`: the scheduler configuration files and the plugin directory are
// read again (a plugin file changed in place included: Node's module cache is bypassed) and the
// new pipelines answer; a broken file is refused, the process serves on with the old pipelines.
// Under --workers N the primary passes SIGHUP on, and every worker answers with the new ones.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { berth, collect, freePort, serveStorage, terminate, waitFor } from '../support/cli';
import { realPostgresIt, testDatabaseUrl } from '../support/db';

/** A filter passing every host, whose NAME is `name` (the file is rewritten under berth). */
const filter = (name: string) => `exports.NAME = '${name}'; exports.kind = 'filter';
exports.create = () => ({ name: '${name}', kind: 'filter', onError: 'closed', filter: () => ({ fits: true }) });`;

describe('berth serve SIGHUP', () => {
  it('reloads the scheduler configuration, and refuses a broken one while serving on', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-sighup-'));
    const plugins = path.join(dataDir, 'plugins');
    mkdirSync(plugins);
    const profiles = path.join(dataDir, 'profiles.json');
    writeFileSync(path.join(plugins, 'house-filter.js'), filter('HouseV1Filter'));
    writeFileSync(profiles, JSON.stringify({ house: { filters: ['HouseV1Filter'] } }));
    const storage = await serveStorage(dataDir);
    const port = String(await freePort());
    const child = berth(['serve'], {
      ...storage.env,
      PORT: port,
      BERTH_PLUGIN_DIRS: plugins,
      BERTH_SCHEDULER_PROFILES: `@${profiles}`,
      LOG_LEVEL: 'info',
    });
    const io = collect(child);
    const logs = () => io.out() + io.err();
    const gql = async (query: string, variables: object = {}) => {
      const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return (await r.json()) as { data?: any; errors?: { message: string }[] };
    };
    const filtersRun = async () => {
      const r = await gql(
        `query($i: ScheduleInput!) { explainPlacement(input: $i) { profile filterSteps { filter } } }`,
        {
          i: {
            consumerUuids: [crypto.randomUUID()],
            projectId: 'p',
            userId: 'u',
            request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
            profile: 'house',
          },
        },
      );
      expect(r.errors).toBeUndefined();
      expect(r.data.explainPlacement.profile).toBe('house');
      return r.data.explainPlacement.filterSteps.map((s: { filter: string }) => s.filter);
    };
    try {
      await waitFor(() => io.out().includes('listening on'), 110000);
      const rp = await gql('mutation { createResourceProvider(input: { name: "h1" }) { uuid } }');
      const uuid = rp.data.createResourceProvider.uuid;
      const inv = await gql(
        `mutation($u: ID!) { setInventories(input: { providerUuid: $u, generation: 0,
          inventories: [{ resourceClass: "VCPU", total: 8 }] }) { uuid } }`,
        { u: uuid },
      );
      expect(inv.errors).toBeUndefined();
      expect(await filtersRun()).toEqual(['HouseV1Filter']);

      // The same file, changed in place: a stale module cache would still say HouseV1Filter.
      writeFileSync(path.join(plugins, 'house-filter.js'), filter('HouseV2Filter'));
      writeFileSync(profiles, JSON.stringify({ house: { filters: ['HouseV2Filter'] } }));
      child.kill('SIGHUP');
      await waitFor(() => logs().includes('scheduler configuration reloaded'), 20_000);
      expect(await filtersRun()).toEqual(['HouseV2Filter']);

      writeFileSync(profiles, '{"house": ');
      child.kill('SIGHUP');
      await waitFor(() => logs().includes('scheduler configuration not reloaded'), 20_000);
      expect(logs()).toMatch(/BERTH_SCHEDULER_PROFILES: .*profiles\.json is not JSON/);
      expect(await filtersRun()).toEqual(['HouseV2Filter']);
      expect(child.exitCode).toBeNull();

      expect(await terminate(child)).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      await storage.drop();
    }
  }, 150000);

  realPostgresIt(
    'under --workers 2, the primary passes SIGHUP on to every worker',
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-sighup-workers-'));
      const plugins = path.join(dataDir, 'plugins');
      mkdirSync(plugins);
      const profiles = path.join(dataDir, 'profiles.json');
      writeFileSync(path.join(plugins, 'house-filter.js'), filter('HouseV1Filter'));
      writeFileSync(profiles, JSON.stringify({ house: { filters: ['HouseV1Filter'] } }));
      const base = new URL(testDatabaseUrl());
      const dbName = `berth_sighup_${process.pid}`;
      const admin = new Client({ connectionString: base.toString() });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName}`);
      await admin.query(`CREATE DATABASE ${dbName}`);
      base.pathname = `/${dbName}`;
      const port = await freePort();
      const child = berth(['serve', '--workers', '2'], {
        DATABASE_URL: base.toString(),
        PORT: String(port),
        BERTH_AUTH: 'off',
        BERTH_PLUGIN_DIRS: plugins,
        BERTH_SCHEDULER_PROFILES: `@${profiles}`,
        LOG_LEVEL: 'info',
      });
      const io = collect(child);
      const logs = () => io.out() + io.err();
      /** The filters of profile `house`, and the worker that answered (a new connection each). */
      const filtersRun = () =>
        new Promise<{ worker: string; filters: string[] }>((resolve, reject) => {
          const body = JSON.stringify({
            query: `query($i: ScheduleInput!) { explainPlacement(input: $i) { filterSteps { filter } } }`,
            variables: {
              i: {
                consumerUuids: [crypto.randomUUID()],
                projectId: 'p',
                userId: 'u',
                request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
                profile: 'house',
              },
            },
          });
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              path: '/graphql',
              method: 'POST',
              agent: false,
              headers: { 'content-type': 'application/json' },
            },
            (res) => {
              let text = '';
              res.on('data', (d) => {
                text += String(d);
              });
              res.on('end', () => {
                const steps = JSON.parse(text).data?.explainPlacement?.filterSteps ?? [];
                resolve({
                  worker: res.headers['x-berth-worker'] as string,
                  filters: steps.map((st: { filter: string }) => st.filter),
                });
              });
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      /** What each worker runs, asking over new connections until both answered. */
      const perWorker = async () => {
        const seen = new Map<string, string[]>();
        for (let i = 0; i < 20 && seen.size < 2; i++) {
          const r = await filtersRun();
          seen.set(r.worker, r.filters);
        }
        return [...seen.values()];
      };
      try {
        await waitFor(() => io.out().includes('listening on'), 90000);
        // A host with room, so that the filters run.
        const write = async (query: string) => {
          const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query }),
          });
          return ((await r.json()) as { data: any }).data;
        };
        const { uuid } = (
          await write('mutation { createResourceProvider(input: { name: "h1" }) { uuid } }')
        ).createResourceProvider;
        await write(`mutation { setInventories(input: { providerUuid: "${uuid}", generation: 0,
          inventories: [{ resourceClass: "VCPU", total: 8 }] }) { uuid } }`);
        await waitFor(async () => (await perWorker()).every((f) => f.length === 1), 20_000);
        expect(await perWorker()).toEqual([['HouseV1Filter'], ['HouseV1Filter']]);
        writeFileSync(path.join(plugins, 'house-filter.js'), filter('HouseV2Filter'));
        writeFileSync(profiles, JSON.stringify({ house: { filters: ['HouseV2Filter'] } }));
        child.kill('SIGHUP');
        await waitFor(
          () => (logs().match(/scheduler configuration reloaded/g) ?? []).length >= 2,
          15000,
        );
        expect(await perWorker()).toEqual([['HouseV2Filter'], ['HouseV2Filter']]);
        expect(await terminate(child)).toBe(0);
      } finally {
        child.kill('SIGKILL');
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    120000,
  );
});
