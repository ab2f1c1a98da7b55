// MetricsFilter: a host passes when it reports every metric MetricsWeigher weighs, so the weigher
// does not fail on it (upstream: nova/scheduler/filters/metrics_filter.py). Metrics are root
// provider traits CUSTOM_METRIC_<NAME>_<VALUE> (filters/host-state/metrics.ts). Nova's filter reads
// `[metrics] weight_setting`, the option its weigher reads; berth configures plugins one by one, so
// give both the same `weightSetting` (a list of "name=ratio", or one comma-separated string).
import { checkedField, configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';
import { describeUnavailable, readMetric, readWeightSettingOrThrow } from '../host-state/metrics';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'MetricsFilter';
/** Plugin kind. */
export const kind = 'filter';

/** Rejection: the host does not report a metric that is weighed. */
export const REASON_MISSING_METRICS = 'host lacks metrics';
/** Reason code of that rejection. */
export const CODE_MISSING_METRICS = 'metrics.missing';

const CONFIG = pluginConfig({
  weightSetting: checkedField(
    'list of `name=ratio` (or one comma-separated string)',
    'none',
    'Nova `[metrics] weight_setting`: the metrics a host must report (give MetricsWeigher the same)',
    () => undefined,
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: `weightSetting` (Nova's `[metrics] weight_setting`). */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the filter. Config: `weightSetting` (only the metric names are read).
 * @throws Error for a malformed `weightSetting`.
 */
export const create: FilterFactory = (_config, handle) => {
  const names = [...new Set(readWeightSettingOrThrow(handle).map((s) => s.name))];
  return {
    name: NAME,
    kind,
    onError: 'closed',
    filter(host) {
      const missing: string[] = [];
      for (const name of names) {
        const reading = readMetric(host, name);
        if (reading.kind !== 'value') {
          missing.push(describeUnavailable(name, reading));
        }
      }
      if (missing.length === 0) {
        return { fits: true };
      }
      return {
        fits: false,
        reason: `${REASON_MISSING_METRICS}: ${missing.join(', ')}`,
        code: CODE_MISSING_METRICS,
      };
    },
  };
};
