// Unit tests for src/scheduler/weighing.ts through the pipeline: normalisation maths (minval/maxval
// clamping, one host), multipliers and their aggregate override as Nova reads it, random tie-break
// and host_subset_size (after nova/tests/unit/scheduler/test_weights.py and nova/weights.py).

import * as ramWeigher from '../../../filters/ram-weigher/index';
import type { HostView, WeigherPlugin } from '../../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../../src/scheduler/plugin-testing';
import { createPipeline } from '../../../src/scheduler/runtime/pipeline';
import { rankHosts } from '../../../src/scheduler/runtime/weighing';
import { buildPlugin, runPipeline } from '../../support/plugin';

const spec = buildRequestSpec();

function hostsWith(aggregates: Record<string, Record<string, string>> = {}): HostView[] {
  return ['h1', 'h2', 'h3'].map((uuid) =>
    buildHostView({
      providers: [{ uuid }],
      aggregates: uuid in aggregates ? [{ uuid: `agg-${uuid}`, metadata: aggregates[uuid]! }] : [],
    }),
  );
}

/** A weigher returning fixed raw weights by host uuid. */
function fixed(
  name: string,
  raws: Record<string, number>,
  multiplier = 1,
  extra: Partial<WeigherPlugin> = {},
): WeigherPlugin {
  return { name, kind: 'weigher', multiplier, weigh: (host) => raws[host.uuid]!, ...extra };
}

/** Deterministic RNG cycling through the given values. */
function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

describe('weighing', () => {
  it('normalises each weigher, multiplies, sums and ranks best first', async () => {
    const pipeline = createPipeline({
      filters: [],
      weighers: [
        fixed('Spread', { h1: 10, h2: 20, h3: 30 }), // -> 0, 0.5, 1
        fixed('Flat', { h1: 5, h2: 5, h3: 5 }, 100), // all equal -> 0
        fixed('Pack', { h1: 3, h2: 1, h3: 2 }, -2), // -> 1, 0, 0.5 ; x -2 -> -2, 0, -1
      ],
    });
    const result = await runPipeline(pipeline, hostsWith(), spec);
    expect(result.hosts.map((r) => [r.host.uuid, r.weight])).toEqual([
      ['h2', 0.5],
      ['h3', 0],
      ['h1', -2],
    ]);
    expect(result.hosts[0]!.components).toEqual([
      { weigher: 'Spread', raw: 20, normalised: 0.5, multiplier: 1 },
      { weigher: 'Flat', raw: 5, normalised: 0, multiplier: 100 },
      { weigher: 'Pack', raw: 1, normalised: 0, multiplier: -2 },
    ]);
  });

  it('uses minval and maxval when a weigher declares them', async () => {
    const pipeline = createPipeline({
      filters: [],
      weighers: [fixed('Bounded', { h1: 0, h2: 25, h3: 50 }, 1, { minval: 0, maxval: 100 })],
    });
    const result = await runPipeline(pipeline, hostsWith(), spec);
    expect(result.hosts.map((r) => r.weight)).toEqual([0.5, 0.25, 0]);
  });

  // Nova weights.py: BaseWeigher.weigh_objects clamps to minval/maxval, normalize() starts at
  // minval (else the list's minimum), get_weighed_objects does not weigh one host.
  it.each<{ name: string; raws: number[]; bounds: Partial<WeigherPlugin>; want: number[] }>([
    {
      name: 'minval 0 starts normalisation at 0, not at the lowest weight',
      raws: [1, 2, 3],
      bounds: { minval: 0 },
      want: [1 / 3, 2 / 3, 1],
    },
    {
      name: 'a weight below minval counts as minval (test_ram_filter_negative)',
      raws: [512, 1024, 3072, 8192, -512],
      bounds: { minval: 0 },
      want: [0.0625, 0.125, 0.375, 1, 0],
    },
    {
      name: 'a weight above maxval counts as maxval',
      raws: [5, 20, 10],
      bounds: { minval: 0, maxval: 10 },
      want: [0.5, 1, 1],
    },
    {
      name: 'all equal with minval 0 weigh 1 (the range is 0..max)',
      raws: [5, 5, 5],
      bounds: { minval: 0 },
      want: [1, 1, 1],
    },
    {
      name: 'all 0 with minval 0 weigh 0 (an empty range)',
      raws: [0, 0, 0],
      bounds: { minval: 0 },
      want: [0, 0, 0],
    },
    {
      name: 'all negative with minval 0 clamp to 0 and weigh 0',
      raws: [-3, -1, -2],
      bounds: { minval: 0 },
      want: [0, 0, 0],
    },
    {
      name: 'maxval alone: the list minimum to maxval',
      raws: [2, 4, 6],
      bounds: { maxval: 10 },
      want: [0, 0.25, 0.5],
    },
    {
      name: 'no bounds: the list minimum to its maximum',
      raws: [1, 2, 3],
      bounds: {},
      want: [0, 0.5, 1],
    },
    { name: 'one host is not weighed (0)', raws: [5], bounds: { minval: 0 }, want: [0] },
    { name: 'one host is not weighed (0), no bounds', raws: [-5], bounds: {}, want: [0] },
  ])('$name', async ({ raws, bounds, want }) => {
    const hosts = raws.map((_, i) => buildHostView({ providers: [{ uuid: `h${i}` }] }));
    const byHost = Object.fromEntries(raws.map((r, i) => [`h${i}`, r]));
    const pipeline = createPipeline({
      filters: [],
      weighers: [fixed('W', byHost, 2, bounds)],
    });
    const result = await runPipeline(pipeline, hosts, spec);
    const got = Object.fromEntries(result.hosts.map((r) => [r.host.uuid, r.components[0]!]));
    raws.forEach((raw, i) => {
      expect(got[`h${i}`]!.raw).toBe(raw);
      expect(got[`h${i}`]!.normalised).toBeCloseTo(want[i]!, 12);
      expect(result.hosts.find((r) => r.host.uuid === `h${i}`)!.weight).toBeCloseTo(
        2 * want[i]!,
        12,
      );
    });
  });

  it('lets an aggregate override the multiplier per host, lowest value winning', async () => {
    const hosts = [
      buildHostView({
        providers: [{ uuid: 'h1' }],
        aggregates: [
          { uuid: 'a', metadata: { w_mult: '3' } },
          { uuid: 'b', metadata: { w_mult: '-1' } },
        ],
      }),
      buildHostView({ providers: [{ uuid: 'h2' }] }),
      buildHostView({
        providers: [{ uuid: 'h3' }],
        aggregates: [{ uuid: 'c', metadata: { w_mult: 'bogus' } }],
      }),
    ];
    const pipeline = createPipeline({
      filters: [],
      weighers: [fixed('W', { h1: 10, h2: 0, h3: 10 }, 2, { multiplierMetadataKey: 'w_mult' })],
    });
    const result = await runPipeline(pipeline, hosts, spec);
    expect(result.hosts.map((r) => [r.host.uuid, r.weight, r.components[0]!.multiplier])).toEqual([
      ['h3', 2, 2],
      ['h2', 0, 2],
      ['h1', -1, -1],
    ]);
  });

  // Nova get_weight_multiplier: aggregate_values_from_key (whole values) + validate_num_values
  // (float(), min; a ValueError means the configured multiplier).
  it.each<{ name: string; values: string[]; want: number }>([
    { name: 'one value', values: ['1.5'], want: 1.5 },
    { name: 'the lowest of two aggregates', values: ['2', '1.5'], want: 1.5 },
    { name: 'a comma list is one value, not a number', values: ['2,3'], want: 4 },
    { name: 'Python float syntax: exponent', values: ['1e1'], want: 10 },
    { name: 'Python float syntax: underscores between digits', values: ['1_0.5'], want: 10.5 },
    { name: 'a misplaced underscore is not a number', values: ['_1'], want: 4 },
    { name: 'one bad value means the configured one', values: ['x', '-1'], want: 4 },
    { name: 'infinity means the configured one (berth)', values: ['inf'], want: 4 },
    { name: 'NaN means the configured one (berth)', values: ['nan', '1'], want: 4 },
  ])('reads an aggregate multiplier as Nova does: $name', async ({ values, want }) => {
    const hosts = [
      buildHostView({
        providers: [{ uuid: 'h1' }],
        aggregates: values.map((v, i) => ({ uuid: `a${i}`, metadata: { w_mult: v } })),
      }),
      buildHostView({ providers: [{ uuid: 'h2' }] }),
    ];
    const pipeline = createPipeline({
      filters: [],
      weighers: [fixed('W', { h1: 1, h2: 0 }, 4, { multiplierMetadataKey: 'w_mult' })],
    });
    const result = await runPipeline(pipeline, hosts, spec);
    const h1 = result.hosts.find((r) => r.host.uuid === 'h1')!;
    expect(h1.components[0]!.multiplier).toBe(want);
  });

  it.each([
    { multiplier: 1, want: ['h3', 'h2', 'h1'], what: 'spreads (most free RAM first)' },
    { multiplier: -1, want: ['h1', 'h2', 'h3'], what: 'packs (least free RAM first)' },
  ])('RAMWeigher with multiplier $multiplier $what', async ({ multiplier, want }) => {
    const hosts = [1, 2, 3].map((n) =>
      buildHostView({ providers: [{ uuid: `h${n}`, inventories: { MEMORY_MB: 1024 * n } }] }),
    );
    const weigher = buildPlugin(ramWeigher.create, ramWeigher.NAME, { multiplier });
    const result = await runPipeline(
      createPipeline({ filters: [], weighers: [weigher] }),
      hosts,
      spec,
    );
    expect(result.hosts.map((r) => r.host.uuid)).toEqual(want);
  });

  it('drops a weigher that throws or returns a non-number and keeps the others', async () => {
    const throwing: WeigherPlugin = {
      name: 'Throws',
      kind: 'weigher',
      multiplier: 1,
      weigh: () => {
        throw new Error('bad weigher');
      },
    };
    const nan = fixed('NaN', { h1: Number.NaN, h2: 1, h3: 2 });
    const result = await runPipeline(
      createPipeline({
        filters: [],
        weighers: [throwing, nan, fixed('Good', { h1: 3, h2: 2, h3: 1 })],
      }),
      hostsWith(),
      spec,
    );
    expect(result.hosts.map((r) => r.host.uuid)).toEqual(['h1', 'h2', 'h3']);
    expect(result.hosts[0]!.components.map((c) => c.weigher)).toEqual(['Good']);
    expect(result.explanation.failures.map((f) => [f.plugin, f.cause, f.policy])).toEqual([
      ['Throws', 'error', 'dropped'],
      ['NaN', 'invalid-result', 'dropped'],
    ]);
  });
});

describe('rankHosts', () => {
  const hosts = hostsWith();
  const components = [[], [], []];

  it('orders equal weights by the random tie-break', () => {
    const flat = { totals: [1, 1, 1], components };
    expect(rankHosts(hosts, flat, 1, sequence(0.3, 0.1, 0.2)).map((r) => r.host.uuid)).toEqual([
      'h2',
      'h3',
      'h1',
    ]);
    expect(rankHosts(hosts, flat, 1, sequence(0.1, 0.2, 0.3)).map((r) => r.host.uuid)).toEqual([
      'h1',
      'h2',
      'h3',
    ]);
  });

  it('never lets the tie-break reorder different weights', () => {
    const distinct = { totals: [1, 3, 2], components };
    expect(rankHosts(hosts, distinct, 1, sequence(0.9, 0.1, 0.5)).map((r) => r.host.uuid)).toEqual([
      'h2',
      'h3',
      'h1',
    ]);
  });

  it('picks the first host at random among the best hostSubsetSize, Nova style', () => {
    const distinct = { totals: [3, 2, 1], components };
    // Three tie-break draws, then the pick: 0.99 * 2 -> index 1.
    expect(rankHosts(hosts, distinct, 2, sequence(0, 0, 0, 0.99)).map((r) => r.host.uuid)).toEqual([
      'h2',
      'h1',
      'h3',
    ]);
    expect(rankHosts(hosts, distinct, 2, sequence(0, 0, 0, 0.2)).map((r) => r.host.uuid)).toEqual([
      'h1',
      'h2',
      'h3',
    ]);
    expect(rankHosts(hosts, distinct, 10, sequence(0, 0, 0, 0.99)).map((r) => r.host.uuid)).toEqual(
      ['h3', 'h1', 'h2'],
    );
  });

  it('ignores the pick with hostSubsetSize 1', () => {
    const distinct = { totals: [3, 2, 1], components };
    expect(rankHosts(hosts, distinct, 1, sequence(0.99)).map((r) => r.host.uuid)).toEqual([
      'h1',
      'h2',
      'h3',
    ]);
  });
});
