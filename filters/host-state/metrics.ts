// Host metrics for MetricsFilter and MetricsWeigher (upstream: nova/scheduler/filters/metrics_filter.py,
// nova/scheduler/weights/metrics.py, nova/scheduler/utils.py parse_options, nova/conf/scheduler.py
// [metrics]). Nova's metrics come from nova-compute's monitors; berth receives no telemetry, so a
// metric is a root provider trait an exporter keeps current through Placement's trait API:
// CUSTOM_METRIC_<NAME>_<VALUE>, NAME the metric name upper-cased with every character outside
// A-Z 0-9 written `_` (cpu.frequency -> CPU_FREQUENCY), VALUE a non-negative decimal with the point
// written `P` (1000, 0P25), the value as nova-compute reports it. Example:
// CUSTOM_METRIC_CPU_FREQUENCY_2400. One trait per metric: a host with two values for one metric
// has it unavailable (the exporter left a stale one behind). Plugins read the value as Nova's
// scheduler does (nova/objects/monitor_metric.py:24-28,89-109): an integer (MonitorMetric.value is
// an IntegerField: 2400.7 is 2400), the percentages (cpu.percent, cpu.user.percent, ...),
// reported as fractions, times 100 (cpu.percent 0.25 is 25).
import type { HostView, PluginHandle } from '../../src/scheduler/plugin-api';

/** The prefix of every metric trait. */
export const METRIC_TRAIT_PREFIX = 'CUSTOM_METRIC_';

/** One `name=ratio` of Nova's `[metrics] weight_setting`. */
export interface WeightSetting {
  readonly name: string;
  readonly ratio: number;
}

/** The trait prefix of metric `name` (`cpu.frequency` -> `CUSTOM_METRIC_CPU_FREQUENCY_`). */
export function metricTraitPrefix(name: string): string {
  return `${METRIC_TRAIT_PREFIX}${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_`;
}

/** The trait giving metric `name` the value `value` (non-negative, finite). */
export function metricTrait(name: string, value: number): string {
  return metricTraitPrefix(name) + String(value).replace('.', 'P');
}

const VALUE = /^(\d+)(?:P(\d+))?$/;

/** Metrics reported as fractions that Nova's scheduler reads times 100 (FIELDS_REQUIRING_CONVERSION). */
export const PERCENT_METRICS: ReadonlySet<string> = new Set([
  'cpu.user.percent',
  'cpu.kernel.percent',
  'cpu.idle.percent',
  'cpu.iowait.percent',
  'cpu.percent',
]);

/** The value Nova's scheduler reads for a reported one: `int(value)`, percentages `int(value * 100)`. */
export function schedulerValue(name: string, reported: number): number {
  return Math.trunc(PERCENT_METRICS.has(name) ? reported * 100 : reported);
}

/** What a host says about one metric. */
export type MetricReading =
  | { readonly kind: 'value'; readonly value: number }
  | { readonly kind: 'missing' }
  | { readonly kind: 'conflict'; readonly traits: readonly string[] };

/** The value of metric `name` on `host` (its root's metric trait), as Nova's scheduler reads it. */
export function readMetric(host: HostView, name: string): MetricReading {
  const prefix = metricTraitPrefix(name);
  const found: { trait: string; value: number }[] = [];
  for (const trait of host.root.traits) {
    const match = trait.startsWith(prefix) ? VALUE.exec(trait.slice(prefix.length)) : null;
    if (match !== null) {
      found.push({ trait, value: schedulerValue(name, Number(`${match[1]}.${match[2] ?? '0'}`)) });
    }
  }
  if (found.length === 0) {
    return { kind: 'missing' };
  }
  if (found.length > 1) {
    return { kind: 'conflict', traits: found.map((f) => f.trait) };
  }
  return { kind: 'value', value: found[0]!.value };
}

/** Why metric `name` cannot be read on `host`, for reasons and errors. */
export function describeUnavailable(name: string, reading: MetricReading): string {
  return reading.kind === 'conflict'
    ? `${name} (conflicting traits ${reading.traits.join(', ')})`
    : `${name} (no trait ${metricTraitPrefix(name)}<value>)`;
}

// Python float(): blanks allowed, decimal or exponent notation; inf and nan refused here.
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * The `weightSetting` configuration (Nova `[metrics] weight_setting`): a list of `name=ratio`
 * strings, or one comma-separated string. Nova logs and skips a malformed element; berth stops
 * start-up on it, as it does for any configuration typo.
 * @throws Error naming the malformed elements.
 */
export function readWeightSettingOrThrow(handle: PluginHandle): WeightSetting[] {
  const raw = handle.config.weightSetting ?? [];
  const items = typeof raw === 'string' ? raw.split(',') : raw;
  if (!Array.isArray(items) || !items.every((i) => typeof i === 'string')) {
    throw new Error(
      `${handle.name}: config "weightSetting" must be a list of "name=ratio" strings, got ${JSON.stringify(raw)}`,
    );
  }
  const good: WeightSetting[] = [];
  const bad: string[] = [];
  for (const item of (items as string[]).map((i) => i.trim()).filter((i) => i !== '')) {
    const eq = item.indexOf('=');
    const name = eq < 0 ? '' : item.slice(0, eq).trim();
    const ratio = eq < 0 ? '' : item.slice(eq + 1).trim();
    if (name === '' || !FLOAT.test(ratio)) {
      bad.push(item);
    } else {
      good.push({ name, ratio: Number(ratio) });
    }
  }
  if (bad.length > 0) {
    throw new Error(
      `${handle.name}: config "weightSetting" elements must be name=ratio with a numeric ratio, got ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    );
  }
  return good;
}
