// Table tests for MetricsFilter (after nova/tests/unit/scheduler/filters/test_metrics_filters.py):
// a host passes when it has a metric trait for every metric of weightSetting.
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { metricTrait } from '../host-state/metrics';
import { CODE_MISSING_METRICS, create, NAME, REASON_MISSING_METRICS } from './index';

function verdict(weightSetting: unknown, traits: string[]) {
  const host = buildHostView({ providers: [{ uuid: 'h1', name: 'host1', traits }] });
  return verdictOf(buildPlugin(create, NAME, { weightSetting }), host, buildRequestSpec());
}

describe(NAME, () => {
  it.each<[string, unknown, string[], boolean]>([
    [
      'pass',
      ['cpu.frequency=1', 'cpu.percent=2'],
      [metricTrait('cpu.frequency', 1000), metricTrait('cpu.percent', 0.43)],
      true,
    ],
    ['missing metrics', ['foo=1', 'bar=2'], [metricTrait('cpu.frequency', 1000)], false],
    [
      'one of two missing',
      ['cpu.frequency=1', 'bar=2'],
      [metricTrait('cpu.frequency', 1000)],
      false,
    ],
    ['no weight setting', [], [], true],
    ['a zero ratio still needs the metric', ['cpu.frequency=0'], [], false],
    [
      'two values for one metric',
      ['cpu.frequency=1'],
      [metricTrait('cpu.frequency', 1000), metricTrait('cpu.frequency', 1200)],
      false,
    ],
  ])('%s -> %p', (_name, setting, traits, want) => {
    const v = verdict(setting, traits);
    expect(v.fits).toBe(want);
    expect(!v.fits && v.code).toBe(!want && CODE_MISSING_METRICS);
  });

  it('names the missing metrics and the trait that would give them', () => {
    expect(verdict('foo=1, cpu.frequency=1', [metricTrait('cpu.frequency', 1)])).toEqual({
      fits: false,
      reason: `${REASON_MISSING_METRICS}: foo (no trait CUSTOM_METRIC_FOO_<value>)`,
      code: 'metrics.missing',
    });
  });

  it('rejects a malformed weightSetting at start-up', () => {
    expect(() => buildPlugin(create, NAME, { weightSetting: ['foo'] })).toThrow(
      `${NAME}: config "weightSetting"`,
    );
  });
});
