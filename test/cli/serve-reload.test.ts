// SIGHUP to a real `berth serve`: the scheduler configuration files and the plugin directory are
// read again (a plugin file changed in place included: Node's module cache is bypassed) and the
// new pipelines answer; a broken file is refused, the process serves on with the old pipelines.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { berth, collect, waitFor } from '../support/cli';

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
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const child = berth(['serve'], {
      BERTH_DATA_DIR: dataDir,
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
      await waitFor(() => io.out().includes('listening on'), 50000);
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
      await waitFor(() => logs().includes('scheduler configuration reloaded'), 10000);
      expect(await filtersRun()).toEqual(['HouseV2Filter']);

      writeFileSync(profiles, '{"house": ');
      child.kill('SIGHUP');
      await waitFor(() => logs().includes('scheduler configuration not reloaded'), 10000);
      expect(logs()).toMatch(/BERTH_SCHEDULER_PROFILES: .*profiles\.json is not JSON/);
      expect(await filtersRun()).toEqual(['HouseV2Filter']);
      expect(child.exitCode).toBeNull();

      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60000);
});
