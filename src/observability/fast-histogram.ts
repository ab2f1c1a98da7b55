// A prom-client Histogram whose observations cost a few nanoseconds: each label set's buckets are
// plain counters (a Float64Array, its sum and count) found once and kept by the caller, and the
// Prometheus values are built from them when a scrape reads the metric. What /metrics shows is
// what prom-client's Histogram shows for the same observations: the same name, help, labels,
// buckets (cumulative, `le` then the label set), `+Inf`, `_sum` and `_count` lines, label sets in
// the order they were first observed, and the same JSON for the cluster primary to sum.
// prom-client's own observe hashes the label object, validates it and looks it up on every call
// (about half a microsecond); the scheduler makes a dozen observations per request.
import { Histogram, type HistogramConfiguration, type LabelValues } from 'prom-client';

/** The counts of one label set. */
export class HistogramSeries {
  /** Observations per bucket (not cumulative); the last slot is above the highest bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  /** True once it shows on /metrics (first observation, or zero()). */
  shown = false;

  constructor(
    private readonly owner: FastHistogram<string>,
    readonly labels: Readonly<Record<string, string | number>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** Records `value` (a finite number, as prom-client requires). */
  observe(value: number): void {
    if (!Number.isFinite(value)) {
      throw new TypeError(`Value is not a valid number: ${value}`);
    }
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) {
      i++;
    }
    this.counts[i]!++;
    this.sum += value;
    this.count++;
    if (!this.shown) {
      this.owner.show(this);
    }
  }

  /** A timer whose end observes the seconds since this call. */
  startTimer(): () => number {
    const started = performance.now();
    return () => {
      const seconds = (performance.now() - started) / 1000;
      this.observe(seconds);
      return seconds;
    };
  }
}

/** Series by the value of one label: the next label's level, or the series at the last label. */
type Level = Map<string | symbol, Level | HistogramSeries>;

/** A label left out (prom-client leaves it out of the exposition too). */
const UNSET = Symbol('unset');

/** A label value's key: prom-client prints 5 and '5' alike, so they are one series. */
const keyOf = (v: string | number | undefined): string | symbol =>
  typeof v === 'string' ? v : v === undefined ? UNSET : String(v);

/** A child as prom-client's `labels()` returns it. */
type Child<T extends string> = ReturnType<Histogram<T>['labels']>;

/** One exposed value, as prom-client's histogram builds them for the registry. */
interface Value {
  labels: Record<string, string | number>;
  sharedLabels?: Record<string, string | number>;
  value: number;
  metricName: string;
  exemplar: null | undefined;
}

/**
 * A Histogram (same configuration, same exposition) with cheap observations. `series(labels)`
 * gives the counters of one label set to observe into directly; `observe`, `labels()`,
 * `startTimer`, `zero`, `remove` and `reset` behave as prom-client's. Exemplars are not supported.
 */
export class FastHistogram<T extends string = string> extends Histogram<T> {
  // Declared only: reset(), which prom-client's constructor calls, sets the first two, and an
  // initialised field would overwrite them once that constructor returns.
  /** Series by label value, one map level per label name. */
  declare private root: Level;
  declare private shownSeries: HistogramSeries[];
  declare private readonly bounds: readonly number[];
  declare private readonly names: readonly string[];

  constructor(config: HistogramConfiguration<T>) {
    if (config.enableExemplars) {
      throw new Error('FastHistogram: exemplars are not supported');
    }
    super(config);
    const self = this as unknown as { upperBounds: readonly number[]; labelNames: string[] };
    this.bounds = [...self.upperBounds];
    this.names = [...self.labelNames];
    // prom-client sets `observe` on the instance in its constructor; this one replaces it.
    (this as unknown as { observe: unknown }).observe = (
      a: LabelValues<T> | number,
      b?: number,
    ) => {
      if (typeof a === 'number') {
        this.series({} as LabelValues<T>).observe(a);
      } else {
        this.series(a ?? ({} as LabelValues<T>)).observe(b as number);
      }
    };
    // An unlabelled histogram shows (zero) from the start, as prom-client's does.
    if (this.names.length === 0) {
      this.zero({} as LabelValues<T>);
    }
  }

  /**
   * The counters of label set `labels` (made on first use; shown once observed). Label names are
   * checked when the set is first seen.
   */
  series(labels: LabelValues<T>): HistogramSeries {
    const values = labels as Record<string, string | number | undefined>;
    let level: Level = this.root;
    const last = this.names.length - 1;
    for (let i = 0; i < last; i++) {
      const k = keyOf(values[this.names[i]!]);
      let next = level.get(k) as Level | undefined;
      if (!next) {
        next = new Map();
        level.set(k, next);
      }
      level = next;
    }
    const k = last < 0 ? UNSET : keyOf(values[this.names[last]!]);
    let s = level.get(k) as HistogramSeries | undefined;
    if (!s) {
      for (const name of Object.keys(values)) {
        if (!this.names.includes(name)) {
          throw new Error(`Added label "${name}" is not included in initial labelset`);
        }
      }
      s = new HistogramSeries(
        this as unknown as FastHistogram<string>,
        { ...values } as Record<string, string | number>,
        this.bounds,
      );
      level.set(k, s);
    }
    return s;
  }

  /** Called by a series on its first observation: it shows from now on, in this order. */
  show(s: HistogramSeries): void {
    s.shown = true;
    this.shownSeries.push(s);
  }

  override labels(...args: unknown[]): Child<T> {
    const labels =
      typeof args[0] === 'object' && args[0] !== null
        ? (args[0] as LabelValues<T>)
        : (Object.fromEntries(this.names.map((n, i) => [n, args[i]])) as LabelValues<T>);
    const s = this.series(labels);
    return {
      observe: (value: number) => s.observe(value),
      startTimer: () => s.startTimer(),
    } as unknown as Child<T>;
  }

  override startTimer(labels?: LabelValues<T>): (end?: LabelValues<T>) => number {
    const started = performance.now();
    return (end?: LabelValues<T>) => {
      const seconds = (performance.now() - started) / 1000;
      this.series({ ...labels, ...end } as LabelValues<T>).observe(seconds);
      return seconds;
    };
  }

  override zero(labels: LabelValues<T>): void {
    const s = this.series(labels);
    s.counts.fill(0);
    s.sum = 0;
    s.count = 0;
    if (!s.shown) {
      this.show(s);
    }
  }

  override remove(...args: unknown[]): void {
    const labels = (
      typeof args[0] === 'object' && args[0] !== null
        ? args[0]
        : Object.fromEntries(this.names.map((n, i) => [n, args[i]]))
    ) as LabelValues<T>;
    const s = this.series(labels);
    s.counts.fill(0);
    s.sum = 0;
    s.count = 0;
    s.shown = false;
    this.shownSeries = this.shownSeries.filter((x) => x !== s);
  }

  override reset(): void {
    for (const s of this.shownSeries ?? []) {
      s.counts.fill(0);
      s.sum = 0;
      s.count = 0;
      s.shown = false;
    }
    this.root ??= new Map();
    this.shownSeries = [];
  }

  /** What the registry reads for the text exposition (prom-client's histogram format). */
  async getForPromString(): Promise<{
    name: string;
    help: string;
    type: 'histogram';
    values: Value[];
    aggregator: string;
  }> {
    const self = this as unknown as {
      name: string;
      help: string;
      aggregator: string;
      collect?: () => unknown;
    };
    if (self.collect) {
      await self.collect();
    }
    const bucket = `${self.name}_bucket`;
    const values: Value[] = [];
    for (const s of this.shownSeries) {
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += s.counts[i]!;
        values.push({
          labels: { le: this.bounds[i]! },
          sharedLabels: s.labels,
          value: acc,
          metricName: bucket,
          exemplar: null,
        });
      }
      values.push(
        {
          labels: { le: '+Inf' },
          sharedLabels: s.labels,
          value: s.count,
          metricName: bucket,
          exemplar: null,
        },
        {
          labels: {},
          sharedLabels: s.labels,
          value: s.sum,
          metricName: `${self.name}_sum`,
          exemplar: undefined,
        },
        {
          labels: {},
          sharedLabels: s.labels,
          value: s.count,
          metricName: `${self.name}_count`,
          exemplar: undefined,
        },
      );
    }
    return {
      name: self.name,
      help: self.help,
      type: 'histogram',
      values,
      aggregator: self.aggregator,
    };
  }
}
