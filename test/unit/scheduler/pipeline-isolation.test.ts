// Unit tests for src/scheduler/runtime/pipeline.ts: plugins that throw, overrun their budget or
// return something malformed are isolated (open / closed / dropped), logged and explained.

import type { FilterPlugin, Verdict } from '../../../src/scheduler/plugin-api';
import { createPipeline } from '../../../src/scheduler/runtime/pipeline';
import { runPipeline } from '../../support/plugin';
import { hosts, recordingLogger, rejecting, spec, throwing, uuids } from './pipeline-fixtures';

describe('pipeline isolation', () => {
  it('lets every host through a throwing fail-open filter, reports it and keeps going', async () => {
    const logger = recordingLogger();
    const pipeline = createPipeline(
      { filters: [throwing('open', 1), rejecting('Next', ['h4'])], weighers: [] },
      { logger },
    );
    const result = await runPipeline(pipeline, hosts, spec);
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
      const result = await runPipeline(
        createPipeline({
          filters: [hostile, rejecting('Next', ['h4'])],
          weighers: [],
        }),
        hosts,
        spec,
      );
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
    const result = await runPipeline(
      createPipeline({
        filters: [throwing('closed'), rejecting('Next', [])],
        weighers: [],
      }),
      hosts,
      spec,
    );
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
    const result = await runPipeline(
      createPipeline({ filters: [slow], weighers: [] }, { now: () => clock }),
      hosts,
      spec,
    );
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
    const result = await runPipeline(
      createPipeline({ filters: [hanging], weighers: [] }),
      hosts,
      spec,
    );
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
    const result = await runPipeline(
      createPipeline({ filters: [asyncFilter], weighers: [] }),
      hosts,
      spec,
    );
    expect(uuids(result)).toEqual(['h1', 'h3', 'h4']);
  });

  it('treats a malformed verdict as a plugin failure', async () => {
    const bad = {
      name: 'Bad',
      kind: 'filter',
      onError: 'open',
      filter: () => ({ fits: false }),
    } as unknown as FilterPlugin;
    const result = await runPipeline(createPipeline({ filters: [bad], weighers: [] }), hosts, spec);
    expect(result.hosts).toHaveLength(4);
    expect(result.explanation.failures[0]).toMatchObject({
      plugin: 'Bad',
      cause: 'invalid-result',
    });
  });

  it('treats a verdict whose getter throws as a plugin failure, not a crash', async () => {
    const hostile = {
      name: 'Hostile',
      kind: 'filter',
      onError: 'closed',
      filter: () => ({
        get fits(): never {
          throw new Error('gotcha');
        },
      }),
    } as unknown as FilterPlugin;
    const result = await runPipeline(
      createPipeline({ filters: [hostile], weighers: [] }),
      hosts,
      spec,
    );
    expect(result.hosts).toEqual([]);
    expect(result.explanation.failures[0]).toMatchObject({
      plugin: 'Hostile',
      phase: 'filter',
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
    const result = await runPipeline(
      createPipeline({
        filters: [bad as FilterPlugin<unknown>],
        weighers: [],
      }),
      hosts,
      spec,
    );
    expect(result.hosts).toEqual([]);
    expect(result.explanation.failures[0]).toMatchObject({
      phase: 'prepare',
      cause: 'error',
      message: 'no state',
    });
  });
});
