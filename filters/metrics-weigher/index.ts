// MetricsWeigher: weighs hosts by the sum of their metrics times the ratios of `weightSetting`
// (upstream: nova/scheduler/weights/metrics.py; options from nova/conf/scheduler.py [metrics]).
// Metrics are root provider traits CUSTOM_METRIC_<NAME>_<VALUE> (filters/host-state/metrics.ts),
// which an exporter keeps current (each change invalidates berth's candidate caches, so update at
// the granularity scheduling needs). A host without a metric: with `required` (Nova's default)
// the weigher fails for the request, where Nova fails the request: it is dropped and reported in
// the explanation's failures, so enable MetricsFilter before it, as Nova advises; otherwise the host
// weighs `weightOfUnavailable` (default -10000), unless that metric's ratio times the host's
// multiplier is 0.
import {
  booleanField,
  checkedField,
  configKeys,
  numberField,
  pluginConfig,
  resolveMultiplier,
  withConfig,
} from '../../src/scheduler/helpers';
import type { WeigherFactory } from '../../src/scheduler/plugin-api';
import { describeUnavailable, readMetric, readWeightSettingOrThrow } from '../host-state/metrics';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'MetricsWeigher';
/** Plugin kind. */
export const kind = 'weigher';

/** Aggregate metadata key overriding the multiplier per host (Nova `metrics_weight_multiplier`). */
export const MULTIPLIER_KEY = 'metrics_weight_multiplier';
/** Nova's default multiplier. */
export const DEFAULT_MULTIPLIER = 1;
/** Nova's default weight of a host lacking a metric (when metrics are not required). */
export const DEFAULT_WEIGHT_OF_UNAVAILABLE = -10000;

const CONFIG = pluginConfig({
  multiplier: numberField(DEFAULT_MULTIPLIER, 'Nova `[metrics] weight_multiplier`'),
  weightSetting: checkedField(
    'list of `name=ratio` (or one comma-separated string)',
    'none',
    'Nova `[metrics] weight_setting`',
    () => undefined,
  ),
  required: booleanField(
    true,
    'Nova `[metrics] required`: a host lacking a metric drops the weigher for the request',
  ),
  weightOfUnavailable: numberField(
    DEFAULT_WEIGHT_OF_UNAVAILABLE,
    'Nova `[metrics] weight_of_unavailable`',
  ),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: Nova's `[metrics]` `weight_multiplier` (as `multiplier`), `weight_setting`, `required`, `weight_of_unavailable`. */
export const CONFIG_KEYS = configKeys(CONFIG);

/**
 * Creates the weigher. Config: `multiplier` (default 1.0), `weightSetting` ("name=ratio" list),
 * `required` (default true), `weightOfUnavailable` (default -10000.0).
 * @throws Error for a malformed setting or a non-numeric / non-boolean option.
 */
export const create: WeigherFactory = withConfig(CONFIG, (config, handle) => {
  const setting = readWeightSettingOrThrow(handle);
  const required = config.required;
  const unavailable = config.weightOfUnavailable;
  const multiplier = config.multiplier;
  return {
    name: NAME,
    kind,
    multiplier,
    multiplierMetadataKey: MULTIPLIER_KEY,
    weigh(host) {
      let value = 0;
      for (const { name, ratio } of setting) {
        const reading = readMetric(host, name);
        if (reading.kind === 'value') {
          value += reading.value * ratio;
        } else if (required) {
          // Nova raises ComputeHostMetricNotFound; the pipeline drops this weigher for the request.
          throw new Error(`metric ${describeUnavailable(name, reading)} not found on ${host.name}`);
        } else if (ratio * resolveMultiplier(host, MULTIPLIER_KEY, multiplier) !== 0) {
          return unavailable;
        }
      }
      return value;
    },
  };
});
