// Unit tests for src/scheduler/runtime/pipeline.ts: filter order, early stop, explanation counts,
// the built-in plugins end to end, evaluate then rank. Isolation of misbehaving plugins:
// pipeline-isolation.test.ts.

import { builtinPlugins } from '../../../filters/registry';
import type { AggregateView, FilterPlugin } from '../../../src/scheduler/plugin-api';
import { buildRequestSpec } from '../../../src/scheduler/plugin-testing';
import { summariseExplanation } from '../../../src/scheduler/runtime/explanation';
import { createPipeline } from '../../../src/scheduler/runtime/pipeline';
import { buildPipeline, createRegistry } from '../../../src/scheduler/runtime/registry';
import { runPipeline } from '../../support/plugin';
import { hosts, rejecting, spec, uuids } from './pipeline-fixtures';

describe('pipeline filters', () => {
  it('runs filters in configured order, each seeing only the survivors of the previous one', async () => {
    const calls: string[] = [];
    const pipeline = createPipeline({
      filters: [rejecting('B', ['h1'], calls), rejecting('A', ['h2'], calls)],
      weighers: [],
    });
    const result = await runPipeline(pipeline, hosts, spec);
    expect(calls).toEqual(['B:h1', 'B:h2', 'B:h3', 'B:h4', 'A:h2', 'A:h3', 'A:h4']);
    expect(uuids(result)).toEqual(['h3', 'h4']);
  });

  it('records before -> after counts and every rejection reason per filter', async () => {
    const pipeline = createPipeline({
      filters: [rejecting('A', ['h1', 'h3']), rejecting('B', ['h4'])],
      weighers: [],
    });
    const { explanation } = await runPipeline(pipeline, hosts, spec);
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
          { host: 'h1', hostName: 'host-1', reason: 'A does not like h1', code: 'a' },
          { host: 'h3', hostName: 'host-3', reason: 'A does not like h3', code: 'a' },
        ],
      },
      {
        plugin: 'B',
        before: 2,
        after: 1,
        rejections: [{ host: 'h4', hostName: 'host-4', reason: 'B does not like h4', code: 'b' }],
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
    const result = await runPipeline(pipeline, hosts, spec);
    expect(result.hosts).toEqual([]);
    expect(calls.some((c) => !c.startsWith('A:'))).toBe(false);
    expect(weigh).not.toHaveBeenCalled();
    expect(result.explanation.stoppedAfter).toBe('A');
    expect(result.explanation.skippedFilters).toEqual(['B', 'C']);
    expect(summariseExplanation(result.explanation)).toContain('no host left after A');
  });

  it('runs no filter for an empty host list', async () => {
    const calls: string[] = [];
    const result = await runPipeline(
      createPipeline({ filters: [rejecting('A', [], calls)], weighers: [] }),
      [],
      spec,
    );
    expect(calls).toEqual([]);
    expect(result.explanation.skippedFilters).toEqual(['A']);
    expect(result.explanation.stoppedAfter).toBeUndefined();
  });
});

describe('createPipeline', () => {
  it.each([0, 1.5, -1])('rejects hostSubsetSize %p', (size) => {
    expect(() => createPipeline({ filters: [], weighers: [] }, { hostSubsetSize: size })).toThrow(
      'hostSubsetSize',
    );
  });

  it('rejects a filter with neither hook', () => {
    // A JavaScript plugin is not type-checked: it can have neither hook.
    const empty = { name: 'Empty', kind: 'filter', onError: 'open' } as unknown as FilterPlugin;
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
    const result = pipeline.rank(
      await pipeline.evaluate(buildRequestSpec({ resources: { MEMORY_MB: 2048 } }), {
        aggregates: () => aggregates,
        hosts: async (amended) => {
          queried.push(amended.candidateRequest);
          return hosts;
        },
      }),
    );
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
    const result = pipeline.rank(
      await pipeline.evaluate(buildRequestSpec({ extraSpecs: { 'reservation:r9': 'true' } }), {
        aggregates: async () => aggregates,
        hosts: hostsIo,
      }),
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
    plain.rank(await plain.evaluate(spec, { aggregates: aggregatesIo, hosts: async () => hosts }));
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
