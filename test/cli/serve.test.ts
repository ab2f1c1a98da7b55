// The real CLI process: boots on the embedded default from a clean data dir, answers /readyz and
// GraphQL, stops on SIGTERM; a bad DATABASE_URL gives one clear line and a non-zero exit. The
// servers run with QUICK_V8 (a start is mostly PGlite's wasm).
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  berth,
  collect,
  freePort,
  QUICK_V8,
  serveStorage,
  terminate,
  waitFor,
} from '../support/cli';

describe('berth serve', () => {
  it('serves on after a plugin’s unhandled rejection; exits naming a plugin that freezes the loop', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-watchdog-'));
    const plugins = path.join(dataDir, 'plugins');
    mkdirSync(plugins);
    writeFileSync(
      path.join(plugins, 'stray-filter.js'),
      `exports.NAME = 'StrayFilter'; exports.kind = 'filter';
       exports.create = () => ({ name: 'StrayFilter', kind: 'filter', onError: 'open',
         filter: () => { Promise.reject(new Error('stray rejection')); return { fits: true }; } });`,
    );
    writeFileSync(
      path.join(plugins, 'loop-filter.js'),
      `exports.NAME = 'LoopFilter'; exports.kind = 'filter';
       exports.create = () => ({ name: 'LoopFilter', kind: 'filter', onError: 'open',
         filter: (host, spec) => { while (spec.extraSpecs.loop === 'yes') {} return { fits: true }; } });`,
    );
    const storage = await serveStorage(dataDir);
    const port = String(await freePort());
    const child = berth(
      ['serve'],
      {
        ...storage.env,
        PORT: port,
        BERTH_PLUGIN_DIRS: plugins,
        BERTH_SCHEDULER_FILTERS: 'StrayFilter,LoopFilter',
        BERTH_WATCHDOG_MS: '2000',
      },
      QUICK_V8,
    );
    const io = collect(child);
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (_c, sig) => resolve(sig === null ? _c : -1)),
    );
    const gql = async (query: string, variables: object = {}) => {
      const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return (await r.json()) as { data?: any; errors?: unknown[] };
    };
    const schedule = (loop: string) =>
      gql(`mutation($i: ScheduleInput!) { schedule(input: $i) { selections { consumerUuid } } }`, {
        i: {
          consumerUuids: [crypto.randomUUID()],
          projectId: 'p',
          userId: 'u',
          request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
          extraSpecs: [{ key: 'loop', value: loop }],
        },
      });
    try {
      await waitFor(() => io.out().includes('listening on'), 110000);
      const rp = await gql(
        'mutation { createResourceProvider(input: {name: "h1"}) { uuid generation } }',
      );
      const { uuid, generation } = rp.data.createResourceProvider;
      await gql(
        `mutation($u: ID!, $g: Int!) { setInventories(input: {providerUuid: $u, generation: $g,
          inventories: [{resourceClass: "VCPU", total: 8}]}) { uuid } }`,
        { u: uuid, g: generation },
      );
      expect((await schedule('no')).errors).toBeUndefined();
      await waitFor(
        () => io.err().includes('stray rejection') || io.out().includes('stray rejection'),
        5000,
      );
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

      void schedule('yes').catch(() => undefined);
      expect(await exited).toBe(-1); // SIGKILLed by the watchdog
      expect(io.err()).toMatch(
        /^berth: event loop blocked for \d+ ms while running scheduler plugin LoopFilter; exiting/m,
      );
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      await storage.drop();
    }
  }, 150000);

  // One data directory's life: its first server is the clean boot, the third stops on SIGTERM.
  it('boots on the embedded default from a clean data dir and answers GraphQL and /readyz; refuses a second server on the same data folder; after SIGKILL a new start keeps every acknowledged write, and stops on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-lock-'));
    const port = async () => String(await freePort());
    const p1 = await port();
    const first = berth(['serve'], { BERTH_DATA_DIR: dataDir, PORT: p1 }, QUICK_V8);
    const io1 = collect(first);
    let third: ChildProcess | undefined;
    try {
      await waitFor(() => io1.out().includes('listening on'), 110000);
      expect(io1.out()).toMatch(/embedded PostgreSQL/);
      expect(io1.out()).toMatch(/auth: GraphQL OFF .*; REST OFF/);
      const ready = await fetch(`http://127.0.0.1:${p1}/readyz`);
      expect(ready.status).toBe(200);
      const classes = await fetch(`http://127.0.0.1:${p1}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ resourceClasses { name } }' }),
      });
      const listed = (await classes.json()) as { data: { resourceClasses: unknown[] } };
      expect(listed.data.resourceClasses).toHaveLength(21);

      const names = ['acked-1', 'acked-2', 'acked-3'];
      for (const name of names) {
        const r = await fetch(`http://127.0.0.1:${p1}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            query: `mutation { createResourceProvider(input: {name: "${name}"}) { name } }`,
          }),
        });
        expect(((await r.json()) as { errors?: unknown }).errors).toBeUndefined();
      }

      const second = berth(['serve'], { BERTH_DATA_DIR: dataDir, PORT: await port() }, QUICK_V8);
      const io2 = collect(second);
      const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
      expect(code).toBe(1);
      const lines = io2.err().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^berth: the data directory .* is in use by berth process ${first.pid} `),
      );

      const killed = new Promise((resolve) => first.on('exit', resolve));
      first.kill('SIGKILL');
      await killed;
      const p3 = await port();
      third = berth(['serve'], { BERTH_DATA_DIR: dataDir, PORT: p3 }, QUICK_V8);
      const io3 = collect(third);
      await waitFor(() => io3.out().includes('listening on'), 110000);
      const r = await fetch(`http://127.0.0.1:${p3}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: '{ resourceProviders(first: 10) { edges { node { name } } } }',
        }),
      });
      const body = (await r.json()) as {
        data: { resourceProviders: { edges: { node: { name: string } }[] } };
      };
      expect(body.data.resourceProviders.edges.map((e) => e.node.name).sort()).toEqual(names);
      expect(await terminate(third)).toBe(0);
    } finally {
      first.kill('SIGKILL');
      third?.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300000);

  it('exits non-zero with one clear line when DATABASE_URL is unreachable', async () => {
    const child = berth(['serve'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      PORT: '0',
    });
    const io = collect(child);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).not.toBe(0);
    const lines = io.err().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^berth: cannot connect to the database at 127\.0\.0\.1:1/);
  }, 30000);

  it('exits non-zero naming the variable when configuration is invalid', async () => {
    const child = berth(['serve'], { DATABASE_URL: 'mysql://x', PORT: '0' });
    const io = collect(child);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(io.err().trim()).toBe(
      'berth: invalid DATABASE_URL: must be a postgres:// or postgresql:// URL',
    );
  }, 30000);
});
