// Scheduler profiles and reload without a restart, through GraphQL: a request names a profile
// (BERTH_SCHEDULER_PROFILES, from a file), explainPlacement says which ran, an unknown one is a
// coded error; reloadScheduler (admin only) re-reads the files and the plugin directory, and a
// configuration that does not build is refused while the running pipelines keep answering.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';

/** An operator filter passing hosts whose name starts with its `prefix` configuration. */
const PREFIX_FILTER = `exports.NAME = 'PrefixFilter'; exports.kind = 'filter'; exports.CONFIG_KEYS = ['prefix'];
exports.create = (config) => ({ name: 'PrefixFilter', kind: 'filter', onError: 'closed',
  filter: (host) => host.name.startsWith(config.prefix) ? { fits: true } : { fits: false, reason: 'wrong prefix' } });`;
/** A filter added to the plugin directory while berth runs. */
const LATE_FILTER = `exports.NAME = 'LateFilter'; exports.kind = 'filter';
exports.create = () => ({ name: 'LateFilter', kind: 'filter', onError: 'closed', filter: () => ({ fits: true }) });`;
const FAILING_FILTER = `exports.NAME = 'FailingFilter'; exports.kind = 'filter';
exports.create = () => { throw new Error('cannot reach the licence server'); };`;

const EXPLAIN = `query E($i: ScheduleInput!) {
  explainPlacement(input: $i) { profile filterSteps { filter after } selections { host { name } } }
}`;
const PROFILES = '{ schedulerProfiles { name filters weighers hostSubsetSize config } }';
const RELOAD = `mutation { reloadScheduler {
  generation profiles { name filters config } plugins { name source }
} }`;

describe('scheduler profiles and reload', () => {
  let t: TestApp;
  let dir: string;
  let plugins: string;
  const tokens: Record<string, string> = {};
  const prefix = `p${randomUUID().slice(0, 6)}`;

  const writeFiles = (config: object, profiles: object | string) => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    writeFileSync(
      join(dir, 'profiles.json'),
      typeof profiles === 'string' ? profiles : JSON.stringify(profiles),
    );
  };
  const goodProfiles = { picky: { filters: ['ComputeFilter', 'PrefixFilter'] } };

  async function post(query: string, variables: object = {}, role = 'admin') {
    const res = await t.app.graphql.fetch('http://berth.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[role]}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as {
      data?: Record<string, any> | null;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
  }
  const explain = (extra: object, role = 'admin') =>
    post(
      EXPLAIN,
      {
        i: {
          consumerUuids: [randomUUID()],
          projectId: 'p',
          userId: 'u',
          request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
          ...extra,
        },
      },
      role,
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-profiles-'));
    plugins = join(dir, 'plugins');
    mkdirSync(plugins);
    writeFileSync(join(plugins, 'prefix-filter.js'), PREFIX_FILTER);
    writeFiles({ PrefixFilter: { prefix: `${prefix}-a` } }, goodProfiles);
    t = await createTestApp({
      BERTH_AUTH: 'on',
      BERTH_PLUGIN_DIRS: plugins,
      BERTH_SCHEDULER_CONFIG: `@${join(dir, 'config.json')}`,
      BERTH_SCHEDULER_PROFILES: `@${join(dir, 'profiles.json')}`,
      BERTH_SCHEDULER_FILTERS: 'ComputeFilter',
      BERTH_SCHEDULER_WEIGHERS: 'RAMWeigher,CPUWeigher',
    });
    for (const role of ['admin', 'scheduler']) {
      tokens[role] = (await t.app.tokens.create({ role, name: `profiles-${role}` })).token;
    }
    for (const name of [`${prefix}-a`, `${prefix}-b`]) {
      await buildResourceProvider(t.app.services, {
        name,
        inventories: [{ resourceClass: 'VCPU', total: 8 }],
      });
    }
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the profiles, default first, with merged plugin configuration', async () => {
    const r = await post(PROFILES);
    expect(r.errors).toBeUndefined();
    expect(r.data!.schedulerProfiles).toEqual([
      {
        name: 'default',
        filters: ['ComputeFilter'],
        weighers: ['RAMWeigher', 'CPUWeigher'],
        hostSubsetSize: 1,
        config: { PrefixFilter: { prefix: `${prefix}-a` } },
      },
      {
        name: 'picky',
        filters: ['ComputeFilter', 'PrefixFilter'],
        weighers: ['RAMWeigher', 'CPUWeigher'],
        hostSubsetSize: 1,
        config: { PrefixFilter: { prefix: `${prefix}-a` } },
      },
    ]);
  });

  it('runs the profile a scheduler token names, and says which ran', async () => {
    const picky = await explain({ profile: 'picky' }, 'scheduler');
    expect(picky.errors).toBeUndefined();
    expect(picky.data!.explainPlacement.profile).toBe('picky');
    expect(picky.data!.explainPlacement.filterSteps).toEqual([
      { filter: 'ComputeFilter', after: 2 },
      { filter: 'PrefixFilter', after: 1 },
    ]);
    expect(picky.data!.explainPlacement.selections[0].host.name).toBe(`${prefix}-a`);
    const plain = await explain({}, 'scheduler');
    expect(plain.data!.explainPlacement.profile).toBe('default');
    expect(plain.data!.explainPlacement.filterSteps).toEqual([
      { filter: 'ComputeFilter', after: 2 },
    ]);
  });

  it('applies the admin filter override on top of the named profile', async () => {
    const r = await explain({ profile: 'picky', filters: ['PrefixFilter'] });
    expect(r.errors).toBeUndefined();
    expect(r.data!.explainPlacement.profile).toBe('picky');
    expect(r.data!.explainPlacement.filterSteps).toEqual([{ filter: 'PrefixFilter', after: 1 }]);
  });

  it('refuses an unknown profile with a coded error naming the known ones', async () => {
    const r = await explain({ profile: 'gpu' }, 'scheduler');
    expect(r.errors?.[0]?.extensions?.code).toBe('berth.scheduler.unknown_profile');
    expect(r.errors?.[0]?.message).toBe(
      'Unknown scheduler profile "gpu"; known profiles: default, picky',
    );
  });

  it('lets only admin reload', async () => {
    const r = await post(RELOAD, {}, 'scheduler');
    expect(r.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
  });

  it('reloads changed files and a new plugin file without a restart', async () => {
    const before = await explain({ profile: 'picky' });
    expect(before.data!.explainPlacement.selections[0].host.name).toBe(`${prefix}-a`);
    writeFileSync(join(plugins, 'late-filter.js'), LATE_FILTER);
    writeFiles(
      { PrefixFilter: { prefix: `${prefix}-b` } },
      { picky: { filters: ['ComputeFilter', 'PrefixFilter', 'LateFilter'] } },
    );
    const r = await post(RELOAD);
    expect(r.errors).toBeUndefined();
    expect(r.data!.reloadScheduler.generation).toBe(2);
    expect(r.data!.reloadScheduler.profiles[1]).toEqual({
      name: 'picky',
      filters: ['ComputeFilter', 'PrefixFilter', 'LateFilter'],
      config: { PrefixFilter: { prefix: `${prefix}-b` } },
    });
    expect(r.data!.reloadScheduler.plugins).toContainEqual({
      name: 'LateFilter',
      source: join(plugins, 'late-filter.js'),
    });
    // The same request straight after: the evaluation shared before the reload is not reused.
    const after = await explain({ profile: 'picky' });
    expect(after.data!.explainPlacement.filterSteps).toEqual([
      { filter: 'ComputeFilter', after: 2 },
      { filter: 'PrefixFilter', after: 1 },
      { filter: 'LateFilter', after: 1 },
    ]);
    expect(after.data!.explainPlacement.selections[0].host.name).toBe(`${prefix}-b`);
  });

  it.each([
    ['bad JSON', () => writeFiles({}, '{"picky": '), /profiles\.json is not JSON/],
    [
      'an unknown plugin',
      () => writeFiles({}, { picky: { filters: ['RamFiltre'] } }),
      /BERTH_SCHEDULER_PROFILES: profile "picky": filters: unknown scheduler filter "RamFiltre"/,
    ],
    [
      'a plugin that throws in create',
      () => {
        writeFileSync(join(plugins, 'failing-filter.js'), FAILING_FILTER);
        writeFiles({}, { picky: { filters: ['FailingFilter'] } });
      },
      /profile "picky": scheduler plugin FailingFilter .* failed to start: cannot reach the licence server/,
    ],
    [
      'a plugin file with a syntax error',
      () => writeFileSync(join(plugins, 'broken-filter.js'), 'exports.create = () => ({ oops: });'),
      /broken-filter\.js:1: cannot load scheduler plugin: .*Unexpected token/,
    ],
    [
      'bad BERTH_SCHEDULER_CONFIG JSON',
      () => writeFileSync(join(dir, 'config.json'), '{'),
      /invalid BERTH_SCHEDULER_CONFIG: .*config\.json is not JSON/,
    ],
  ])('refuses %s and keeps the running pipelines', async (_what, breakIt, message) => {
    breakIt();
    try {
      const r = await post(RELOAD);
      expect(r.errors?.[0]?.extensions?.code).toBe('berth.scheduler.reload_failed');
      expect(r.errors?.[0]?.message).toMatch(
        /^Scheduler configuration not reloaded \(generation 2/,
      );
      expect(r.errors?.[0]?.message).toMatch(message);
      expect(t.app.scheduling.generation).toBe(2);
      const still = await explain({ profile: 'picky' });
      expect(
        still.data!.explainPlacement.filterSteps.map((s: { filter: string }) => s.filter),
      ).toEqual(['ComputeFilter', 'PrefixFilter', 'LateFilter']);
      expect(still.data!.explainPlacement.selections[0].host.name).toBe(`${prefix}-b`);
    } finally {
      rmSync(join(plugins, 'failing-filter.js'), { force: true });
      rmSync(join(plugins, 'broken-filter.js'), { force: true });
      writeFiles(
        { PrefixFilter: { prefix: `${prefix}-b` } },
        { picky: { filters: ['ComputeFilter', 'PrefixFilter', 'LateFilter'] } },
      );
    }
  });
});
