// Worker-thread plugins through the real pipeline, without a database: one message per plugin per
// request (prepare runs once in the worker, not once per host), verdicts, reasons and weights
// crossing the thread boundary intact, deep-frozen host views in the worker, invalid results and
// throws reported as for inline plugins, and a closed pool refusing work.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostView } from '../../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../../src/scheduler/plugin-testing';
import {
  type OperatorPlugins,
  outOfProcessPlugins,
} from '../../../src/scheduler/runtime/out-of-process';
import type { Pipeline } from '../../../src/scheduler/runtime/pipeline';
import { buildPipeline, createRegistry } from '../../../src/scheduler/runtime/registry';
import { deepFreeze } from '../../../src/scheduler/state/deep-freeze';

const ODD_FILTER = `'use strict';
exports.NAME = 'OddFilter'; exports.kind = 'filter'; exports.CONFIG_KEYS = ['mode'];
exports.create = (config, handle) => ({
  name: 'OddFilter', kind: 'filter', onError: 'open',
  prepare(req) { handle.log('prepared', { hosts: 'all' }); return { mode: config.mode ?? 'odd' }; },
  filter(host, req, state) {
    if (state.mode === 'throw' && host.name === 'n-3') throw new Error('cannot judge ' + host.name);
    if (state.mode === 'invalid') return { fits: 'maybe' };
    if (state.mode === 'mutate') { host.name = 'x'; }
    const n = Number(host.name.slice(2));
    if (n % 2 === 0) return { fits: true };
    if (state.mode === 'coded') return { fits: false, reason: 'odd ' + n, code: 'parity.odd' };
    if (state.mode === 'badcode') return { fits: false, reason: 'odd', code: 'Parity Odd' };
    if (state.mode === 'numcode') return { fits: false, reason: 'odd', code: 7 };
    return { fits: false, reason: 'odd ' + n };
  },
});`;

const SIZE_WEIGHER = `
exports.NAME = 'SizeWeigher'; exports.kind = 'weigher';
exports.create = () => ({
  name: 'SizeWeigher', kind: 'weigher', multiplier: 2,
  weigh: async (host) => Number(host.name.slice(2)),
});`;

const hosts = (n: number): HostView[] =>
  Array.from({ length: n }, (_, i) =>
    deepFreeze(
      buildHostView({
        providers: [
          {
            uuid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
            name: `n-${i}`,
            inventories: { VCPU: 8, MEMORY_MB: 4096 },
          },
        ],
      }),
    ),
  );

describe('worker-thread plugins in the pipeline', () => {
  let dir: string;
  const logs: { fields: Record<string, unknown>; msg: string }[] = [];
  const logger = {
    info: (fields: object, msg: string) => logs.push({ fields: fields as never, msg }),
    warn: () => {},
  };
  const opened: OperatorPlugins[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-worker-unit-'));
    writeFileSync(join(dir, 'odd-filter.js'), ODD_FILTER);
    writeFileSync(join(dir, 'size-weigher.js'), SIZE_WEIGHER);
  });
  afterAll(async () => {
    await Promise.all(opened.map((o) => o.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    logs.length = 0;
  });

  function pipeline(mode?: string): Pipeline {
    const operator = outOfProcessPlugins(
      {
        pluginDirs: [dir],
        scheduler: { pluginIsolation: 'worker', pluginWorkers: 1, extenders: [] },
      },
      logger,
    );
    opened.push(operator);
    const registry = createRegistry([], operator.plugins);
    return buildPipeline(registry, {
      enabledFilters: ['OddFilter'],
      enabledWeighers: ['SizeWeigher'],
      ...(mode ? { plugins: { OddFilter: { mode } } } : {}),
    });
  }
  const evaluate = (p: Pipeline, list: readonly HostView[]) =>
    p.evaluate(buildRequestSpec({ resources: { VCPU: 1 } }), {
      aggregates: () => [],
      hosts: async () => list,
    });

  it('judges and weighs 1,000 hosts in one message per plugin', async () => {
    const p = pipeline();
    const e = await evaluate(p, hosts(1000));
    expect(e.explanation.failures).toEqual([]);
    expect(e.survivors).toHaveLength(500);
    expect(e.survivors.every((h) => Number(h.name.slice(2)) % 2 === 0)).toBe(true);
    const step = e.explanation.filters[0]!;
    expect(step.rejections[0]).toEqual({
      host: '00000000-0000-0000-0000-000000000001',
      hostName: 'n-1',
      reason: 'odd 1',
      code: 'odd_filter',
    });
    // Highest name number weighs most (multiplier 2 after min-max normalisation).
    const best = e.weighing.totals.indexOf(Math.max(...e.weighing.totals));
    expect(e.survivors[best]!.name).toBe('n-998');
    expect(e.weighing.totals[best]).toBe(2);
    // prepare ran once in the worker: the hosts came in one batch, not one message each.
    expect(logs.filter((l) => l.msg === 'prepared')).toEqual([
      { fields: { hosts: 'all', plugin: 'OddFilter' }, msg: 'prepared' },
    ]);
  });

  it.each([
    ['throws on a host', 'throw', 'error', /on host .*: cannot judge n-3/],
    ['returns an invalid verdict', 'invalid', 'invalid-result', /verdict must be/],
    [
      'returns a malformed reason code',
      'badcode',
      'invalid-result',
      /reason code must be .*Parity Odd/,
    ],
    [
      'returns a reason code that is not text',
      'numcode',
      'invalid-result',
      /code must be a string, got 7/,
    ],
    [
      'mutates a host view (frozen in the worker too)',
      'mutate',
      'error',
      /read.only|Cannot assign/,
    ],
  ])('reports a plugin that %s per its onError policy', async (_what, mode, cause, message) => {
    const e = await evaluate(pipeline(mode), hosts(6));
    expect(e.explanation.failures).toEqual([
      expect.objectContaining({ plugin: 'OddFilter', cause, policy: 'open' }),
    ]);
    expect(e.explanation.failures[0]!.message).toMatch(message);
    expect(e.survivors).toHaveLength(6);
  });

  it("carries a filter's reason code across the thread boundary", async () => {
    const e = await evaluate(pipeline('coded'), hosts(4));
    expect(e.explanation.failures).toEqual([]);
    expect(e.explanation.filters[0]!.rejections.map((r) => [r.hostName, r.code, r.reason])).toEqual(
      [
        ['n-1', 'parity.odd', 'odd 1'],
        ['n-3', 'parity.odd', 'odd 3'],
      ],
    );
  });

  it('refuses work once closed', async () => {
    const p = pipeline();
    await opened.at(-1)!.close();
    const e = await evaluate(p, hosts(2));
    expect(e.explanation.failures[0]).toMatchObject({
      plugin: 'OddFilter',
      cause: 'error',
      message: 'the plugin worker pool is closed',
    });
  });
});
