// FastHistogram exposes exactly what prom-client's Histogram exposes for the same observations:
// the Prometheus text, the JSON a cluster worker hands the primary, and the primary's sum.
import { AggregatorRegistry, Histogram, type HistogramConfiguration, Registry } from 'prom-client';
import { FastHistogram } from '../../../src/observability/fast-histogram';
import { FINE_SECONDS } from '../../../src/observability/metrics';

type Both<T extends string> = {
  readonly fast: FastHistogram<T>;
  readonly slow: Histogram<T>;
  text(): Promise<[string, string]>;
  json(): Promise<[unknown, unknown]>;
};

function both<T extends string>(config: Omit<HistogramConfiguration<T>, 'registers'>): Both<T> {
  const a = new Registry();
  const b = new Registry();
  const fast = new FastHistogram({ ...config, registers: [a] });
  const slow = new Histogram({ ...config, registers: [b] });
  return {
    fast,
    slow,
    text: async () => [await a.metrics(), await b.metrics()],
    json: async () => [await a.getMetricsAsJSON(), await b.getMetricsAsJSON()],
  };
}

const VALUES = [0, 0.00004, 0.0001, 0.00011, 0.0007, 0.003, 0.2, 1, 4.9, 5, 7.5, 120];

describe('FastHistogram', () => {
  it('shows what prom-client shows for labelled observations, in first-observed order', async () => {
    const h = both({
      name: 'berth_scheduler_stage_duration_seconds',
      help: 'Scheduler stages.',
      labelNames: ['stage', 'plugin'] as const,
      buckets: FINE_SECONDS,
    });
    // Made before use, observed later: a series shows from its first observation.
    const fastLate = h.fast.labels({ stage: 'weigher', plugin: 'RAMWeigher' });
    const slowLate = h.slow.labels({ stage: 'weigher', plugin: 'RAMWeigher' });
    const series = h.fast.series({ stage: 'filter', plugin: 'RamFilter' });
    for (const v of VALUES) {
      series.observe(v);
      h.slow.observe({ stage: 'filter', plugin: 'RamFilter' }, v);
      h.fast.observe({ stage: 'explain', plugin: '' }, v * 3);
      h.slow.observe({ stage: 'explain', plugin: '' }, v * 3);
    }
    fastLate.observe(0.002);
    slowLate.observe(0.002);
    h.fast.labels('claim', '').startTimer()();
    h.slow.labels('claim', '').observe(0);
    const [fast, slow] = await h.text();
    // The timer's duration differs; everything else is the same text.
    const sumless = (t: string) => t.replace(/(_sum\{stage="claim",plugin=""\}) \S+/, '$1 x');
    expect(sumless(fast)).toBe(sumless(slow));
    expect(fast).toContain(
      'berth_scheduler_stage_duration_seconds_bucket{le="0.00025",stage="filter",plugin="RamFilter"} 4',
    );
  });

  it('shows an unlabelled histogram from the start, as prom-client does', async () => {
    const h = both({ name: 'berth_claim_batch_size', help: 'Claims.', buckets: [1, 2, 4, 8] });
    expect((await h.text())[0]).toBe((await h.text())[1]);
    for (const v of [1, 3, 3, 9]) {
      h.fast.observe(v);
      h.slow.observe(v);
    }
    const [fast, slow] = await h.text();
    expect(fast).toBe(slow);
    expect(fast).toContain('berth_claim_batch_size_count 4');
  });

  it('hands the cluster primary the same JSON, and the primary sums it the same', async () => {
    const workers = [
      both({ name: 'x_seconds', help: 'x', labelNames: ['kind'] as const, buckets: [0.1, 1] }),
    ];
    workers.push(
      both({ name: 'x_seconds', help: 'x', labelNames: ['kind'] as const, buckets: [0.1, 1] }),
    );
    for (const [i, w] of workers.entries()) {
      w.fast.observe({ kind: 'single' }, 0.05 * (i + 1));
      w.slow.observe({ kind: 'single' }, 0.05 * (i + 1));
      w.fast.observe({ kind: 'batch' }, 2);
      w.slow.observe({ kind: 'batch' }, 2);
    }
    const jsons = await Promise.all(workers.map((w) => w.json()));
    for (const [fast, slow] of jsons) {
      expect(JSON.parse(JSON.stringify(fast))).toEqual(JSON.parse(JSON.stringify(slow)));
    }
    type Json = Parameters<typeof AggregatorRegistry.aggregate>[0][number];
    const sum = (k: 0 | 1) =>
      AggregatorRegistry.aggregate(jsons.map((j) => j[k] as Json)).metrics();
    expect(await sum(0)).toBe(await sum(1));
  });

  it('resets, zeroes and removes as prom-client does, and refuses what it refuses', async () => {
    const h = both({ name: 'y_seconds', help: 'y', labelNames: ['kind'] as const, buckets: [1] });
    for (const m of [h.fast, h.slow]) {
      m.observe({ kind: 'a' }, 0.5);
      m.observe({ kind: 'b' }, 0.5);
      m.reset();
      m.zero({ kind: 'c' });
      m.observe({ kind: 'a' }, 2);
      m.observe({ kind: 'd' }, 2);
      m.remove('d');
    }
    const [fast, slow] = await h.text();
    expect(fast).toBe(slow);
    expect(() => h.fast.observe({ kind: 'a' }, Number.NaN)).toThrow(TypeError);
    expect(() => h.fast.observe({ nope: 'a' } as never, 1)).toThrow(/not included/);
  });
});
