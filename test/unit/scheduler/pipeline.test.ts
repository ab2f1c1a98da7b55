// Unit tests for src/scheduler/pipeline.ts: filter order, early stop, explanation counts, isolation of
// throwing / slow / malformed plugins, and the end-to-end schedule() flow.
import { builtinPlugins } from '../../../filters/registry';
import { summariseExplanation } from '../../../src/scheduler/explanation';
import { buildHostView, buildRequestSpec } from '../../../src/scheduler/helpers';
import { createPipeline, type SchedulerLogger } from '../../../src/scheduler/pipeline';
import type {
  AggregateView,
  FailurePolicy,
  FilterPlugin,
  HostView,
  Verdict,
} from '../../../src/scheduler/plugin-api';
import { buildPipeline, createRegistry } from '../../../src/scheduler/registry';

const hosts: HostView[] = ['h1', 'h2', 'h3', 'h4'].map((uuid, i) =>
  buildHostView({
    providers: [{ uuid, name: `host-${i + 1}`, inventories: { MEMORY_MB: 1024 * (i + 1) } }],
  }),
);
const spec = buildRequestSpec({ resources: { MEMORY_MB: 512 } });

/** A filter rejecting the listed hosts, recording every host it is asked about. */
function rejecting(
  name: string,
  reject: string[],
  calls: string[] = [],
  onError: FailurePolicy = 'closed',
): FilterPlugin {
  return {
    name,
    kind: 'filter',
    onError,
    filter: (host): Verdict => {
      calls.push(`${name}:${host.uuid}`);
      return reject.includes(host.uuid)
        ? { fits: false, reason: `${name} does not like ${host.uuid}` }
        : { fits: true };
    },
  };
}

function throwing(onError: FailurePolicy, afterHosts = 0): FilterPlugin {
  let seen = 0;
  return {
    name: 'Broken',
    kind: 'filter',
    onError,
    filter: (host) => {
      seen += 1;
      if (seen > afterHosts) {
        throw new Error(`boom on ${host.uuid}`);
      }
      return host.uuid === 'h1' ? { fits: false, reason: 'not h1' } : { fits: true };
    },
  };
}

function recordingLogger(): SchedulerLogger & { warnings: object[] } {
  const warnings: object[] = [];
  return { warnings, warn: (fields) => warnings.push(fields), info: () => {} };
}

const uuids = (result: { hosts: readonly { host: HostView }[] }) =>
  result.hosts.map((r) => r.host.uuid).sort();

describe('pipeline filters', () => {
  it('runs filters in configured order, each seeing only the survivors of the previous one', async () => {
    const calls: string[] = [];
    const pipeline = createPipeline({
      filters: [rejecting('B', ['h1'], calls), rejecting('A', ['h2'], calls)],
      weighers: [],
    });
    const result = await pipeline.run(hosts, spec);
    expect(calls).toEqual(['B:h1', 'B:h2', 'B:h3', 'B:h4', 'A:h2', 'A:h3', 'A:h4']);
    expect(uuids(result)).toEqual(['h3', 'h4']);
  });

  it('records before -> after counts and every rejection reason per filter', async () => {
    const pipeline = createPipeline({
      filters: [rejecting('A', ['h1', 'h3']), rejecting('B', ['h4'])],
      weighers: [],
    });
    const { explanation } = await pipeline.run(hosts, spec);
    expect(explanation.hostsIn).toBe(4);
    expect(
      explanation.filters.map(({ plugin, before, after, rejections }) => ({
        plugin,
        before,
        after,
        rejections,
      })),
    ).toEqual([
      {
        plugin: 'A',
        before: 4,
        after: 2,
        rejections: [
          { host: 'h1', hostName: 'host-1', reason: 'A does not like h1' },
          { host: 'h3', hostName: 'host-3', reason: 'A does not like h3' },
        ],
      },
      {
        plugin: 'B',
        before: 2,
        after: 1,
        rejections: [{ host: 'h4', hostName: 'host-4', reason: 'B does not like h4' }],
      },
    ]);
    expect(summariseExplanation(explanation)).toEqual(['A: 4 -> 2', 'B: 2 -> 1']);
  });

  it('stops early when no host is left and skips the remaining filters and weighers', async () => {
    const calls: string[] = [];
    const weigh = jest.fn(() => 1);
    const pipeline = createPipeline({
      filters: [
        rejecting('A', ['h1', 'h2', 'h3', 'h4'], calls),
        rejecting('B', [], calls),
        rejecting('C', [], calls),
      ],
      weighers: [{ name: 'W', kind: 'weigher', multiplier: 1, weigh }],
    });
    const result = await pipeline.run(hosts, spec);
    expect(result.hosts).toEqual([]);
    expect(calls.some((c) => !c.startsWith('A:'))).toBe(false);
    expect(weigh).not.toHaveBeenCalled();
    expect(result.explanation.stoppedAfter).toBe('A');
    expect(result.explanation.skippedFilters).toEqual(['B', 'C']);
    expect(summariseExplanation(result.explanation)).toContain('no host left after A');
  });

  it('runs no filter for an empty host list', async () => {
    const calls: string[] = [];
    const result = await createPipeline({ filters: [rejecting('A', [], calls)], weighers: [] }).run(
      [],
      spec,
    );
    expect(calls).toEqual([]);
    expect(result.explanation.skippedFilters).toEqual(['A']);
    expect(result.explanation.stoppedAfter).toBeUndefined();
  });
});

describe('pipeline isolation', () => {
  it('lets every host through a throwing fail-open filter, reports it and keeps going', async () => {
    const logger = recordingLogger();
    const pipeline = createPipeline(
      { filters: [throwing('open', 1), rejecting('Next', ['h4'])], weighers: [] },
      { logger },
    );
    const result = await pipeline.run(hosts, spec);
    expect(uuids(result)).toEqual(['h1', 'h2', 'h3']);
    const step = result.explanation.filters[0]!;
    expect(step).toMatchObject({ plugin: 'Broken', before: 4, after: 4, rejections: [] });
    const failure = {
      plugin: 'Broken',
      phase: 'filter',
      cause: 'error',
      message: 'boom on h2',
      host: 'h2',
      policy: 'open',
    };
    expect(step.failure).toEqual(failure);
    expect(result.explanation.failures).toEqual([failure]);
    expect(logger.warnings).toEqual([failure]);
  });

  const circular: Record<string, unknown> = {};
  circular.self = circular;
  it.each<[string, FilterPlugin['filter']]>([
    ['rejects with a circular object', () => Promise.reject(circular)],
    [
      'throws {code: 10n}',
      () => {
        throw { code: 10n };
      },
    ],
    ['returns a circular verdict', () => circular as unknown as Verdict],
    ['returns a BigInt verdict', () => 10n as unknown as Verdict],
  ])(
    'isolates a filter that %s: the request is answered, the failure reported',
    async (_n, filter) => {
      const hostile: FilterPlugin = { name: 'Hostile', kind: 'filter', onError: 'open', filter };
      const result = await createPipeline({
        filters: [hostile, rejecting('Next', ['h4'])],
        weighers: [],
      }).run(hosts, spec);
      expect(uuids(result)).toEqual(['h1', 'h2', 'h3']);
      expect(result.explanation.failures).toEqual([
        expect.objectContaining({
          plugin: 'Hostile',
          cause: expect.any(String),
          message: expect.any(String),
        }),
      ]);
    },
  );

  it('rejects every host at a throwing fail-closed filter and stops', async () => {
    const result = await createPipeline({
      filters: [throwing('closed'), rejecting('Next', [])],
      weighers: [],
    }).run(hosts, spec);
    expect(result.hosts).toEqual([]);
    const step = result.explanation.filters[0]!;
    expect(step).toMatchObject({ before: 4, after: 0 });
    expect(step.rejections).toHaveLength(4);
    expect(step.rejections[0]!.reason).toBe('Broken failed closed (error): boom on h1');
    expect(result.explanation.stoppedAfter).toBe('Broken');
  });

  it('cuts a slow synchronous filter off at the next host once its budget is spent', async () => {
    let clock = 0;
    const calls: string[] = [];
    const slow: FilterPlugin = {
      name: 'Slow',
      kind: 'filter',
      onError: 'open',
      timeBudgetMs: 50,
      filter: (host) => {
        calls.push(host.uuid);
        clock += 30;
        return { fits: false, reason: 'slow and negative' };
      },
    };
    const result = await createPipeline(
      { filters: [slow], weighers: [] },
      { now: () => clock },
    ).run(hosts, spec);
    expect(calls).toEqual(['h1', 'h2']);
    expect(uuids(result)).toEqual(['h1', 'h2', 'h3', 'h4']);
    expect(result.explanation.failures[0]).toMatchObject({
      plugin: 'Slow',
      cause: 'timeout',
      host: 'h2',
      policy: 'open',
    });
    expect(result.explanation.failures[0]!.message).toBe(
      'exceeded its time budget of 50 ms (spent 60.0 ms)',
    );
  });

  it('abandons an async filter that never answers and still answers the request', async () => {
    const hanging: FilterPlugin = {
      name: 'Hanging',
      kind: 'filter',
      onError: 'closed',
      timeBudgetMs: 20,
      filter: () => new Promise<Verdict>(() => {}),
    };
    const started = Date.now();
    const result = await createPipeline({ filters: [hanging], weighers: [] }).run(hosts, spec);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result.hosts).toEqual([]);
    expect(result.explanation.failures).toEqual([
      expect.objectContaining({
        plugin: 'Hanging',
        phase: 'filter',
        cause: 'timeout',
        host: 'h1',
        policy: 'closed',
      }),
    ]);
  });

  it('awaits async filters that answer in time', async () => {
    const asyncFilter: FilterPlugin = {
      name: 'Async',
      kind: 'filter',
      onError: 'closed',
      filter: async (host) => (host.uuid === 'h2' ? { fits: false, reason: 'no' } : { fits: true }),
    };
    const result = await createPipeline({ filters: [asyncFilter], weighers: [] }).run(hosts, spec);
    expect(uuids(result)).toEqual(['h1', 'h3', 'h4']);
  });

  it('treats a malformed verdict as a plugin failure', async () => {
    const bad = {
      name: 'Bad',
      kind: 'filter',
      onError: 'open',
      filter: () => ({ fits: false }),
    } as unknown as FilterPlugin;
    const result = await createPipeline({ filters: [bad], weighers: [] }).run(hosts, spec);
    expect(result.hosts).toHaveLength(4);
    expect(result.explanation.failures[0]).toMatchObject({
      plugin: 'Bad',
      cause: 'invalid-result',
    });
  });

  it('isolates a prepare hook that rejects', async () => {
    const bad: FilterPlugin<number> = {
      name: 'BadPrepare',
      kind: 'filter',
      onError: 'closed',
      prepare: () => Promise.reject(new Error('no state')),
      filter: () => ({ fits: true }),
    };
    const result = await createPipeline({
      filters: [bad as FilterPlugin<unknown>],
      weighers: [],
    }).run(hosts, spec);
    expect(result.hosts).toEqual([]);
    expect(result.explanation.failures[0]).toMatchObject({
      phase: 'prepare',
      cause: 'error',
      message: 'no state',
    });
  });
});

describe('createPipeline', () => {
  it.each([0, 1.5, -1])('rejects hostSubsetSize %p', (size) => {
    expect(() => createPipeline({ filters: [], weighers: [] }, { hostSubsetSize: size })).toThrow(
      'hostSubsetSize',
    );
  });

  it('rejects a filter with neither hook', () => {
    const empty: FilterPlugin = { name: 'Empty', kind: 'filter', onError: 'open' };
    expect(() => createPipeline({ filters: [empty], weighers: [] })).toThrow(
      'filter Empty has neither',
    );
  });
});

describe('schedule with the built-in plugins', () => {
  const registry = createRegistry(builtinPlugins);
  const pipeline = buildPipeline(
    registry,
    {
      enabledFilters: ['ReservationFilter', 'ComputeFilter', 'RamFilter'],
      enabledWeighers: ['RAMWeigher'],
      plugins: {
        ReservationFilter: {
          requiredMemberPrefix: 'reservation:',
          defaultForbiddenMemberPrefix: 'reservation:',
        },
      },
    },
    { rng: () => 0 },
  );
  const aggregates: AggregateView[] = [
    { uuid: 'pool', name: 'blazar-freepool', metadata: { 'reservation:pool': 'true' } },
    { uuid: 'r1', name: 'resv-r1', metadata: { 'reservation:r1': 'true' } },
  ];

  it('pushes forbidden reservation aggregates into the candidate query instead of post-filtering', async () => {
    const queried: unknown[] = [];
    const result = await pipeline.schedule(buildRequestSpec({ resources: { MEMORY_MB: 2048 } }), {
      aggregates: () => aggregates,
      hosts: async (amended) => {
        queried.push(amended.candidateRequest);
        return hosts;
      },
    });
    expect(queried).toEqual([
      {
        groups: [
          expect.objectContaining({
            suffix: '',
            resources: { MEMORY_MB: 2048 },
            forbiddenAggregates: ['pool', 'r1'],
          }),
        ],
        rootForbidden: ['COMPUTE_STATUS_DISABLED'],
      },
    ]);
    expect(result.explanation.filters.map((f) => f.plugin)).toEqual(['ComputeFilter', 'RamFilter']);
    expect(result.hosts.map((r) => r.host.uuid)).toEqual(['h4', 'h3', 'h2']);
  });

  it('answers with no host, without querying, when the reservation has no aggregate', async () => {
    const hostsIo = jest.fn(async () => hosts);
    const result = await pipeline.schedule(
      buildRequestSpec({ extraSpecs: { 'reservation:r9': 'true' } }),
      {
        aggregates: async () => aggregates,
        hosts: hostsIo,
      },
    );
    expect(hostsIo).not.toHaveBeenCalled();
    expect(result.hosts).toEqual([]);
    expect(result.explanation.unsatisfiable).toEqual({
      plugin: 'ReservationFilter',
      reason: 'no aggregate carries the requested reservation: reservation:r9=true',
    });
  });

  it('does not load aggregates when no plugin has a pre-candidate hook', async () => {
    const plain = buildPipeline(registry, { enabledFilters: ['RamFilter'], enabledWeighers: [] });
    const aggregatesIo = jest.fn(() => aggregates);
    expect(plain.needsAggregates).toBe(false);
    await plain.schedule(spec, { aggregates: aggregatesIo, hosts: async () => hosts });
    expect(aggregatesIo).not.toHaveBeenCalled();
  });
});

describe('evaluate, then rank', () => {
  it('ranks one (shared) evaluation afresh each time: equal weights get new tie-breaks', async () => {
    const draws = [0.9, 0.1, 0.5, 0.3, 0.1, 0.9, 0.3, 0.5];
    let n = 0;
    const pipeline = createPipeline(
      { filters: [rejecting('A', [])], weighers: [] },
      { rng: () => draws[n++]! },
    );
    const evaluation = await pipeline.evaluate(spec, {
      aggregates: () => [],
      hosts: async () => hosts,
    });
    const order = () => pipeline.rank(evaluation).hosts.map((r) => r.host.uuid);
    expect(order()).toEqual(['h2', 'h4', 'h3', 'h1']);
    expect(order()).toEqual(['h1', 'h3', 'h4', 'h2']);
    expect(evaluation.explanation.filters[0]).toMatchObject({ before: 4, after: 4 });
  });
});
