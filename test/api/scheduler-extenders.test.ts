// HTTP scheduler extenders (BERTH_SCHEDULER_EXTENDERS) against a small extender server on
// 127.0.0.1: one call per request for all hosts, filter reasons in explainPlacement, prioritize
// scores in the ranking, and timeouts, HTTP errors, malformed and endless answers handled per
// `ignorable`.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const EXPLAIN = `query E($input: ScheduleInput!) { explainPlacement(input: $input) {
  filterSteps { filter before after rejections { host { name } reason } }
  ranking { host { name } weights { weigher raw multiplier } }
  pluginFailures { plugin phase cause policy message }
} }`;
const SCHEDULE = `mutation S($input: ScheduleInput!) {
  schedule(input: $input) { selections { host { name } reason } }
}`;

const input = (filters?: string[]) => ({
  input: {
    consumerUuids: [randomUUID()],
    projectId: 'p',
    userId: 'u',
    request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
    hints: [{ key: 'gpu', values: ['a100'] }],
    ...(filters ? { filters } : {}),
  },
});

interface Call {
  readonly path: string;
  readonly body: {
    spec: { hints: Record<string, string[]> };
    nodeNames: string[];
    nodes: { name: string; uuid: string }[];
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
  }
  return text;
}

/** Bytes an endless answer writes at most (a client that never stops reading ends it here). */
const ENDLESS_STOP = 64 * 1024 * 1024;

describe('HTTP scheduler extenders', () => {
  let server: Server;
  let t: TestApp;
  const calls: Call[] = [];
  let preferred = 'ext-2';
  /** Per endless answer: bytes written before the client went away. */
  const endless: Promise<number>[] = [];

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = JSON.parse(await readBody(req)) as Call['body'];
      calls.push({ path: req.url ?? '', body });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      switch (req.url) {
        case '/ext/filter':
          // K8s shape: kept names, failed names with reasons; ext-1 has no GPU.
          return json(200, {
            nodeNames: body.nodeNames.filter((n) => n !== 'ext-1'),
            failedNodes: body.nodeNames.includes('ext-1') ? { 'ext-1': 'no free a100' } : {},
            error: '',
          });
        case '/ext/prioritize':
          return json(
            200,
            body.nodeNames.map((host) => ({ host, score: host === preferred ? 10 : 2 })),
          );
        case '/ext/slow':
          setTimeout(() => json(200, { nodeNames: body.nodeNames }), 2000).unref();
          return;
        case '/ext/malformed':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('{"nodeNames": [');
        case '/ext/wrong-shape':
          return json(200, { nodeNames: 'ext-0' });
        case '/ext/endless': {
          // A JSON string that never ends, written as fast as the client reads it.
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"nodeNames": ["');
          const chunk = Buffer.alloc(64 * 1024, 'a');
          let sent = 0;
          const pump = () => {
            while (!res.destroyed && sent < ENDLESS_STOP) {
              sent += chunk.length;
              if (!res.write(chunk)) {
                return;
              }
            }
            res.end();
          };
          res.on('drain', pump);
          endless.push(new Promise((resolve) => res.on('close', () => resolve(sent))));
          return pump();
        }
        case '/ext/huge-declared':
          // Declares 1 GiB, sends a little, then waits: refused on the header alone.
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 ** 30 });
          res.write('{"nodeNames": [');
          endless.push(new Promise((resolve) => res.on('close', () => resolve(0))));
          return;
        default:
          return json(500, { error: 'boom' });
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ext`;
    const ext = (name: string, verb: string, ignorable: boolean, timeoutMs = 1000) => ({
      name,
      urlPrefix: base,
      filterVerb: verb,
      timeoutMs,
      ignorable,
    });
    t = await createTestApp({
      BERTH_SCHEDULER_EXTENDERS: JSON.stringify([
        {
          name: 'GpuExtender',
          urlPrefix: base,
          filterVerb: 'filter',
          prioritizeVerb: 'prioritize',
          weight: 5,
          timeoutMs: 1000,
          ignorable: false,
        },
        ext('SlowOpen', 'slow', true, 100),
        ext('SlowClosed', 'slow', false, 100),
        ext('Malformed', 'malformed', false),
        ext('WrongShape', 'wrong-shape', false),
        ext('Failing', 'fail', true),
        { ...ext('EndlessOpen', 'endless', true, 5000), maxResponseBytes: 256 * 1024 },
        ext('EndlessClosed', 'endless', false, 5000),
        ext('HugeDeclared', 'huge-declared', false, 5000),
      ]),
      BERTH_SCHEDULER_FILTERS: 'GpuExtender',
      BERTH_SCHEDULER_WEIGHERS: 'GpuExtenderWeigher',
      BERTH_EVALUATION_REUSE_MS: '0',
    });
    for (let i = 0; i < 4; i++) {
      await buildResourceProvider(t.app.services, {
        name: `ext-${i}`,
        inventories: [{ resourceClass: 'VCPU', total: 8 }],
      });
    }
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    calls.length = 0;
  });

  async function explain(filters?: string[]) {
    const r = await gql(t.app, EXPLAIN, input(filters));
    expect(r.errors).toBeUndefined();
    return r.data.explainPlacement;
  }

  it('registers each verb as a plugin', () => {
    const plugins = t.app.scheduling.plugins().filter((p) => p.source.startsWith('extender'));
    expect(plugins.map((p) => [p.name, p.kind])).toEqual([
      ['EndlessClosed', 'filter'],
      ['EndlessOpen', 'filter'],
      ['Failing', 'filter'],
      ['GpuExtender', 'filter'],
      ['HugeDeclared', 'filter'],
      ['Malformed', 'filter'],
      ['SlowClosed', 'filter'],
      ['SlowOpen', 'filter'],
      ['WrongShape', 'filter'],
      ['GpuExtenderWeigher', 'weigher'],
    ]);
  });

  it('filters out hosts with the reasons the extender gave, one call for all hosts', async () => {
    const e = await explain();
    expect(e.pluginFailures).toEqual([]);
    expect(e.filterSteps).toEqual([
      {
        filter: 'GpuExtender',
        before: 4,
        after: 3,
        rejections: [{ host: { name: 'ext-1' }, reason: 'no free a100' }],
      },
    ]);
    const filterCalls = calls.filter((c) => c.path === '/ext/filter');
    expect(filterCalls).toHaveLength(1);
    expect(filterCalls[0]!.body.nodeNames.sort()).toEqual(['ext-0', 'ext-1', 'ext-2', 'ext-3']);
    expect(filterCalls[0]!.body.nodes.map((n) => n.name).sort()).toEqual(
      filterCalls[0]!.body.nodeNames,
    );
    expect(filterCalls[0]!.body.spec.hints).toEqual({ gpu: ['a100'] });
    // prioritize sees only the survivors, once.
    const prioritizeCalls = calls.filter((c) => c.path === '/ext/prioritize');
    expect(prioritizeCalls.map((c) => c.body.nodeNames.sort())).toEqual([
      ['ext-0', 'ext-2', 'ext-3'],
    ]);
  });

  it('ranks by the prioritize scores times the weight', async () => {
    preferred = 'ext-2';
    const first = await explain();
    expect(first.ranking[0].host.name).toBe('ext-2');
    expect(first.ranking[0].weights).toEqual([
      { weigher: 'GpuExtenderWeigher', raw: 10, multiplier: 5 },
    ]);
    preferred = 'ext-3';
    const second = await explain();
    expect(second.ranking[0].host.name).toBe('ext-3');
    expect(
      second.ranking.slice(1).map((h: { weights: { raw: number }[] }) => h.weights[0]!.raw),
    ).toEqual([2, 2]);
  });

  it('skips an ignorable extender that times out: every host passes, the failure is reported', async () => {
    const e = await explain(['SlowOpen']);
    expect(e.filterSteps).toEqual([{ filter: 'SlowOpen', before: 4, after: 4, rejections: [] }]);
    expect(e.pluginFailures).toEqual([
      expect.objectContaining({ plugin: 'SlowOpen', cause: 'TIMEOUT', policy: 'OPEN' }),
    ]);
  });

  it('skips an ignorable extender that answers HTTP 500', async () => {
    const e = await explain(['Failing']);
    expect(e.filterSteps[0]).toMatchObject({ before: 4, after: 4 });
    expect(e.pluginFailures).toEqual([
      expect.objectContaining({ plugin: 'Failing', cause: 'ERROR', policy: 'OPEN' }),
    ]);
    expect(e.pluginFailures[0].message).toMatch(/extender .*\/ext\/fail answered HTTP 500/);
  });

  it('fails the request closed when a non-ignorable extender times out', async () => {
    const e = await explain(['SlowClosed']);
    expect(e.filterSteps[0]).toMatchObject({ filter: 'SlowClosed', before: 4, after: 0 });
    expect(e.filterSteps[0].rejections[0].reason).toMatch(/^SlowClosed failed closed \(timeout\)/);
    expect(e.pluginFailures).toEqual([
      expect.objectContaining({ plugin: 'SlowClosed', cause: 'TIMEOUT', policy: 'CLOSED' }),
    ]);
    const r = await gql(t.app, SCHEDULE, input(['SlowClosed']));
    expect(r.errors).toBeUndefined();
    const [selection] = r.data.schedule.selections;
    expect(selection.host).toBeNull();
    expect(selection.reason).toMatch(/SlowClosed/);
  });

  it.each([
    ['EndlessOpen', 256 * 1024, 'OPEN', 4],
    ['EndlessClosed', 8 * 1024 * 1024, 'CLOSED', 0],
    ['HugeDeclared', 8 * 1024 * 1024, 'CLOSED', 0],
  ])(
    'stops reading %s past %d bytes: aborted at once, failed %s',
    async (name, cap, policy, after) => {
      endless.length = 0;
      const started = performance.now();
      const e = await explain([name]);
      // Well inside the 5 s timeout: the cap, not the clock, ended the call.
      expect(performance.now() - started).toBeLessThan(2500);
      expect(e.filterSteps[0]).toMatchObject({ filter: name, before: 4, after });
      expect(e.pluginFailures).toEqual([
        expect.objectContaining({ plugin: name, cause: 'ERROR', policy }),
      ]);
      expect(e.pluginFailures[0].message).toMatch(
        new RegExp(`answered more than ${cap} bytes \\(maxResponseBytes\\); the call was aborted`),
      );
      // The extender saw its connection closed, having written little more than the cap.
      expect(endless).toHaveLength(1);
      const sent = await endless[0]!;
      expect(sent).toBeLessThan(cap + 8 * 1024 * 1024);
    },
  );

  it.each([
    ['malformed JSON', 'Malformed', /answered malformed JSON/],
    ['a wrong shape', 'WrongShape', /nodeNames must be a list of host names/],
  ])('fails closed on %s', async (_what, name, message) => {
    const e = await explain([name]);
    expect(e.filterSteps[0]).toMatchObject({ before: 4, after: 0 });
    expect(e.pluginFailures).toEqual([
      expect.objectContaining({ plugin: name, cause: 'ERROR', policy: 'CLOSED' }),
    ]);
    expect(e.pluginFailures[0].message).toMatch(message);
  });
});

describe('docs/out-of-process-plugins.md, as written', () => {
  const repo = join(__dirname, '../..');
  let server: Server;
  let t: TestApp;

  /** The variables of the page's extender block (the sh block setting BERTH_SCHEDULER_EXTENDERS). */
  function pageVariables(port: number): Record<string, string> {
    const page = readFileSync(join(repo, 'docs/out-of-process-plugins.md'), 'utf8');
    const block = [...page.matchAll(/```sh\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((b) => b.includes('BERTH_SCHEDULER_EXTENDERS='))!;
    const vars: Record<string, string> = {};
    for (const line of block.split('\n').filter((l) => /^[A-Z_]+=/.test(l))) {
      const at = line.indexOf('=');
      vars[line.slice(0, at)] = line
        .slice(at + 1)
        .replace(/^'(.*)'$/, '$1')
        .replace('127.0.0.1:8888', `127.0.0.1:${port}`); // only the port differs
    }
    return vars;
  }

  beforeAll(async () => {
    const { createExtender } = require('../../docs/examples/gpu-extender.cjs') as {
      createExtender: () => Server;
    };
    server = createExtender();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    t = await createTestApp({
      ...pageVariables((server.address() as AddressInfo).port),
      BERTH_EVALUATION_REUSE_MS: '0',
    });
    for (const name of ['cpu-1', 'gpu-1', 'gpu-2']) {
      await buildResourceProvider(t.app.services, {
        name,
        inventories: [
          { resourceClass: 'VCPU', total: 8 },
          { resourceClass: 'MEMORY_MB', total: 8192 },
        ],
      });
    }
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => server.close(r));
  });

  it('refuses the CPU host with the example reason and prefers GPU hosts', async () => {
    const r = await gql(t.app, EXPLAIN, input());
    expect(r.errors).toBeUndefined();
    const e = r.data.explainPlacement;
    expect(e.pluginFailures).toEqual([]);
    const step = e.filterSteps.find((s: { filter: string }) => s.filter === 'GpuExtender');
    expect(step).toEqual({
      filter: 'GpuExtender',
      before: 3,
      after: 2,
      rejections: [{ host: { name: 'cpu-1' }, reason: 'no GPU on this host' }],
    });
    expect(e.ranking.map((h: { host: { name: string } }) => h.host.name).sort()).toEqual([
      'gpu-1',
      'gpu-2',
    ]);
    expect(e.ranking[0].weights).toContainEqual({
      weigher: 'GpuExtenderWeigher',
      raw: 10,
      multiplier: 2,
    });
  });
});
