// BERTH_PLUGIN_ISOLATION=worker: operator plugins run in a pool of worker threads. A filter stuck
// in a synchronous loop is cut off at its time budget (its onError outcome, the worker replaced),
// a filter that leaks memory is stopped at the worker's heap limit (BERTH_PLUGIN_WORKER_HEAP_MB:
// that plugin's failure, the worker replaced), concurrent and later requests are served, weighers
// and handle.log work across the thread boundary, and a plugin that fails to load stops start-up
// with the same file:line as inline.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger';
import { outOfProcessPlugins } from '../../src/scheduler/runtime/out-of-process';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

/** Loops forever (synchronously) when the request carries the hint `loop`. */
const LOOP_FILTER = `
exports.NAME = 'LoopFilter';
exports.kind = 'filter';
exports.create = (config, handle) => ({
  name: 'LoopFilter',
  kind: 'filter',
  onError: 'closed',
  timeBudgetMs: 300,
  filter(host, req) {
    if (req.hints.loop) {
      while (true) {}
    }
    handle.log('looked at a host', { host: host.name, thread: require('node:worker_threads').threadId });
    return host.name.endsWith('-3') ? { fits: false, reason: 'ends in 3' } : { fits: true };
  },
});
`;

/** Prefers the host whose name is in the hint `prefer`. */
const PREFER_WEIGHER = `
exports.NAME = 'PreferWeigher';
exports.kind = 'weigher';
exports.create = () => ({
  name: 'PreferWeigher',
  kind: 'weigher',
  multiplier: 1,
  weigh(host, req) {
    return (req.hints.prefer ?? []).includes(host.name) ? 1 : 0;
  },
});
`;

/**
 * With the hint `leak`, keeps allocating into a module-level list (what a leaking plugin does
 * over many requests, at once), up to 384 MiB; its budget is long enough for that to finish.
 */
const LEAK_FILTER = `
const kept = [];
exports.NAME = 'LeakFilter';
exports.kind = 'filter';
exports.create = () => ({
  name: 'LeakFilter',
  kind: 'filter',
  onError: 'closed',
  timeBudgetMs: 20000,
  filter(host, req) {
    if (req.hints.leak) {
      for (let mb = 0; mb < 384; mb++) {
        kept.push(Array.from({ length: 1024 * 128 }, (_, i) => i + mb));
      }
    }
    return { fits: true };
  },
});
`;

const EXPLAIN = `query E($input: ScheduleInput!) { explainPlacement(input: $input) {
  filterSteps { filter before after rejections { host { name } reason } }
  ranking { host { name } weights { weigher raw } }
  pluginFailures { plugin cause policy message }
} }`;

const input = (hints: { key: string; values: string[] }[] = []) => ({
  input: {
    consumerUuids: [randomUUID()],
    projectId: 'p',
    userId: 'u',
    request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
    hints,
  },
});

/** A berth app running `files` (plugin sources by file name) in worker threads over `hosts`. */
async function workerApp(
  prefix: string,
  files: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string>>,
  hosts: number,
) {
  const dir = mkdtempSync(join(tmpdir(), `berth-${prefix}-`));
  for (const [name, source] of Object.entries(files)) {
    writeFileSync(join(dir, name), source);
  }
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) {
        lines.push(JSON.parse(l));
      }
      done();
    },
  });
  const t = await createTestApp(
    {
      BERTH_PLUGIN_DIRS: dir,
      BERTH_PLUGIN_ISOLATION: 'worker',
      BERTH_EVALUATION_REUSE_MS: '0',
      ...env,
    },
    { logger: createLogger('info', sink) },
  );
  for (let i = 0; i < hosts; i++) {
    await buildResourceProvider(t.app.services, {
      name: `${prefix}-${i}`,
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
  }
  return {
    t,
    /** Every line the app logged, parsed. */
    lines,
    async explain(hints: { key: string; values: string[] }[] = []) {
      const r = await gql(t.app, EXPLAIN, input(hints));
      expect(r.errors).toBeUndefined();
      return r.data.explainPlacement;
    },
    async close() {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('operator plugins in worker threads', () => {
  let w: Awaited<ReturnType<typeof workerApp>>;
  let t: TestApp;
  const explain = (hints?: { key: string; values: string[] }[]) => w.explain(hints);

  beforeAll(async () => {
    w = await workerApp(
      'wk',
      { 'loop-filter.js': LOOP_FILTER, 'prefer-weigher.js': PREFER_WEIGHER },
      {
        BERTH_PLUGIN_WORKERS: '2',
        BERTH_SCHEDULER_FILTERS: 'LoopFilter',
        BERTH_SCHEDULER_WEIGHERS: 'PreferWeigher',
      },
      4,
    );
    t = w.t;
  });
  afterAll(() => w.close());

  it('filters and weighs in the workers, and the plugin log reaches the main logger', async () => {
    const e = await explain([{ key: 'prefer', values: ['wk-2'] }]);
    expect(e.pluginFailures).toEqual([]);
    expect(e.filterSteps).toEqual([
      {
        filter: 'LoopFilter',
        before: 4,
        after: 3,
        rejections: [{ host: { name: 'wk-3' }, reason: 'ends in 3' }],
      },
    ]);
    expect(e.ranking[0].host.name).toBe('wk-2');
    expect(e.ranking[0].weights).toEqual([{ weigher: 'PreferWeigher', raw: 1 }]);
    const logged = w.lines.filter((l) => l.plugin === 'LoopFilter' && l.msg === 'looked at a host');
    expect(logged.map((l) => l.host)).toEqual(expect.arrayContaining(['wk-0', 'wk-1', 'wk-2']));
    expect(logged.every((l) => typeof l.thread === 'number' && l.thread > 0)).toBe(true);
  });

  it('cuts a synchronous infinite loop off at its budget; other requests are unaffected', async () => {
    await explain(); // warm caches: what is timed below is the plugin, not the first query
    const started = performance.now();
    const [stuck, concurrent] = await Promise.all([
      explain([{ key: 'loop', values: ['1'] }]),
      explain(),
    ]);
    const elapsed = performance.now() - started;
    // onError 'closed': every host rejected, the failure says why.
    expect(stuck.filterSteps[0]).toMatchObject({ filter: 'LoopFilter', before: 4, after: 0 });
    expect(stuck.ranking).toEqual([]);
    expect(stuck.pluginFailures).toEqual([
      expect.objectContaining({ plugin: 'LoopFilter', cause: 'TIMEOUT', policy: 'CLOSED' }),
    ]);
    expect(elapsed).toBeLessThan(300 + 100);
    // The concurrent request ran on the other worker, untouched.
    expect(concurrent.pluginFailures).toEqual([]);
    expect(concurrent.filterSteps[0]).toMatchObject({ before: 4, after: 3 });
    // Right after: the replica still serves, on a fresh worker.
    const after = await explain();
    expect(after.pluginFailures).toEqual([]);
    expect(after.filterSteps[0]).toMatchObject({ before: 4, after: 3 });
    // The stuck worker is terminated and replaced (just after the answer): both workers serve again.
    const replaced = () =>
      w.lines.some((l) =>
        String(l.msg).includes('overran its deadline; terminating and replacing'),
      );
    for (let i = 0; i < 100 && !replaced(); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(replaced()).toBe(true);
    const both = await Promise.all([explain(), explain()]);
    expect(both.map((e) => [e.pluginFailures, e.filterSteps[0].after])).toEqual([
      [[], 3],
      [[], 3],
    ]);
  });

  it('starts a new pool on reload and keeps serving', async () => {
    const before = t.app.scheduling.generation;
    t.app.scheduling.reload();
    expect(t.app.scheduling.generation).toBe(before + 1);
    const e = await explain();
    expect(e.pluginFailures).toEqual([]);
    expect(e.filterSteps[0]).toMatchObject({ before: 4, after: 3 });
  });
});

describe('a leaking plugin in worker threads', () => {
  let w: Awaited<ReturnType<typeof workerApp>>;
  const explain = (hints?: { key: string; values: string[] }[]) => w.explain(hints);

  beforeAll(async () => {
    w = await workerApp(
      'leak',
      { 'leak-filter.js': LEAK_FILTER },
      {
        BERTH_PLUGIN_WORKERS: '1',
        BERTH_PLUGIN_WORKER_HEAP_MB: '64',
        BERTH_SCHEDULER_FILTERS: 'LeakFilter',
        BERTH_SCHEDULER_WEIGHERS: 'none',
      },
      2,
    );
  });
  afterAll(() => w.close());

  it('stops it at the heap limit as that plugin’s failure, replaces the worker and serves on', async () => {
    expect((await explain()).pluginFailures).toEqual([]);
    const rssBefore = process.memoryUsage().rss;
    const leaked = await explain([{ key: 'leak', values: ['1'] }]);
    // onError 'closed': no host passes, and the failure says why.
    expect(leaked.filterSteps[0]).toMatchObject({ filter: 'LeakFilter', before: 2, after: 0 });
    expect(leaked.pluginFailures).toEqual([
      expect.objectContaining({ plugin: 'LeakFilter', cause: 'ERROR', policy: 'CLOSED' }),
    ]);
    expect(leaked.pluginFailures[0].message).toMatch(
      /ran out of memory: its worker passed the heap limit of 64 MiB \(BERTH_PLUGIN_WORKER_HEAP_MB\) and was replaced/,
    );
    expect(w.lines).toContainEqual(
      expect.objectContaining({
        plugin: 'LeakFilter',
        msg: 'scheduler plugin worker ran out of memory; replacing it',
      }),
    );
    // The leak died with its worker: the process holds nothing like the 384 MiB it asked for.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
    // A fresh worker serves the next requests.
    for (let i = 0; i < 2; i++) {
      const next = await explain();
      expect(next.pluginFailures).toEqual([]);
      expect(next.filterSteps[0]).toMatchObject({ before: 2, after: 2 });
    }
  });
});

describe('loading plugins in the workers', () => {
  const logger = { info: () => {}, warn: () => {} };
  const load = (dir: string, isolation: 'inline' | 'worker') => {
    try {
      const loaded = outOfProcessPlugins(
        {
          pluginDirs: [dir],
          scheduler: { pluginIsolation: isolation, pluginWorkers: 1, extenders: [] },
        },
        logger,
      );
      void loaded.close();
      return loaded.plugins.map((p) => p.module.NAME);
    } catch (err) {
      return (err as Error).message;
    }
  };
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-worker-load-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [
      'throws while loading',
      "exports.NAME = 'BrokenFilter';\nthrow new Error('no config');\n",
      ':2',
    ],
    ['has a syntax error', "exports.NAME = 'BrokenFilter';\nexports.kind = ;\n", ':2'],
  ])('a plugin that %s stops start-up with the same file:line as inline', (_what, source, line) => {
    writeFileSync(join(dir, 'broken-filter.js'), source);
    const inline = load(dir, 'inline');
    expect(inline).toContain(`${join(dir, 'broken-filter.js')}${line}`);
    expect(inline).toContain('cannot load scheduler plugin');
    // Same location and message; outside jest inline loading also quotes a syntax error's line
    // (` (at: …)`), which jest's module loader drops and the worker keeps.
    const worker = load(dir, 'worker') as string;
    expect(worker.startsWith(inline as string)).toBe(true);
  });

  it('never loads the plugin file in the main thread', () => {
    writeFileSync(
      join(dir, 'threaded-filter.js'),
      `if (require('node:worker_threads').isMainThread) throw new Error('loaded in the main thread');
exports.NAME = 'ThreadedFilter'; exports.kind = 'filter';
exports.create = () => ({ name: 'ThreadedFilter', kind: 'filter', onError: 'open', filter: () => ({ fits: true }) });`,
    );
    expect(load(dir, 'inline')).toMatch(
      /threaded-filter\.js:1:\d+: cannot load .*loaded in the main thread/,
    );
    expect(load(dir, 'worker')).toEqual(['ThreadedFilter']);
  });
});
