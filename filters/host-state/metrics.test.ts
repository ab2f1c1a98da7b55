// Table tests for the metric trait convention and Nova's weight_setting parsing
// (nova/tests/unit/scheduler/weights/test_weights_metrics.py test_parse_setting).

import type { PluginHandle } from '../../src/scheduler/plugin-api';
import { buildHostView } from '../../src/scheduler/plugin-testing';
import { metricTrait, metricTraitPrefix, readMetric, readWeightSettingOrThrow } from './metrics';

const handle = (weightSetting: unknown): PluginHandle => ({
  name: 'MetricsWeigher',
  config: { weightSetting },
  log: () => {},
});

describe('host-state/metrics', () => {
  it.each([
    ['cpu.frequency', 2400, 'CUSTOM_METRIC_CPU_FREQUENCY_2400', 2400],
    ['cpu.frequency', 2400.7, 'CUSTOM_METRIC_CPU_FREQUENCY_2400P7', 2400],
    ['cpu.percent', 0.25, 'CUSTOM_METRIC_CPU_PERCENT_0P25', 25],
    // Python: int(0.29 * 100) == 28
    ['cpu.idle.percent', 0.29, 'CUSTOM_METRIC_CPU_IDLE_PERCENT_0P29', 28],
    ['cpu.idle.time', 8192, 'CUSTOM_METRIC_CPU_IDLE_TIME_8192', 8192],
    ['numa.membw-max', 7, 'CUSTOM_METRIC_NUMA_MEMBW_MAX_7', 7],
  ])('writes %s=%p as %s and reads it back as Nova does (%p)', (name, value, trait, read) => {
    expect(metricTrait(name, value)).toBe(trait);
    const host = buildHostView({ providers: [{ uuid: 'h', traits: ['HW_CPU_X86_AVX', trait] }] });
    expect(readMetric(host, name)).toEqual({ kind: 'value', value: read });
  });

  it('reads the root only, a value that is a number only, and refuses two values', () => {
    const read = (traits: string[], child: string[] = []) =>
      readMetric(
        buildHostView({
          providers: [
            { uuid: 'h', traits },
            { uuid: 'c', parentUuid: 'h', traits: child },
          ],
        }),
        'cpu.frequency',
      );
    expect(read([], ['CUSTOM_METRIC_CPU_FREQUENCY_1'])).toEqual({ kind: 'missing' });
    expect(read(['CUSTOM_METRIC_CPU_FREQUENCY_'])).toEqual({ kind: 'missing' });
    expect(read(['CUSTOM_METRIC_CPU_FREQUENCY_MAX_1'])).toEqual({ kind: 'missing' });
    expect(read(['CUSTOM_METRIC_CPU_FREQUENCY_1P'])).toEqual({ kind: 'missing' });
    expect(read(['CUSTOM_METRIC_CPU_FREQUENCY_1', 'CUSTOM_METRIC_CPU_FREQUENCY_2'])).toEqual({
      kind: 'conflict',
      traits: ['CUSTOM_METRIC_CPU_FREQUENCY_1', 'CUSTOM_METRIC_CPU_FREQUENCY_2'],
    });
    expect(metricTraitPrefix('cpu.frequency')).toBe('CUSTOM_METRIC_CPU_FREQUENCY_');
  });

  it.each<[unknown, { name: string; ratio: number }[]]>([
    [undefined, []],
    [[], []],
    [['cpu.idle.time=1'], [{ name: 'cpu.idle.time', ratio: 1 }]],
    [
      ['cpu.idle.time=1', 'cpu.kernel.time=-2.1'],
      [
        { name: 'cpu.idle.time', ratio: 1 },
        { name: 'cpu.kernel.time', ratio: -2.1 },
      ],
    ],
    [
      'cpu.idle.time=1, cpu.kernel.time = 2e-1',
      [
        { name: 'cpu.idle.time', ratio: 1 },
        { name: 'cpu.kernel.time', ratio: 0.2 },
      ],
    ],
    [
      ['cpu.idle.time=-2', 'cpu.idle.time=1'],
      [
        { name: 'cpu.idle.time', ratio: -2 },
        { name: 'cpu.idle.time', ratio: 1 },
      ],
    ],
  ])('parses weightSetting %j', (setting, want) => {
    expect(readWeightSettingOrThrow(handle(setting))).toEqual(want);
  });

  // Nova logs and skips these elements; berth stops start-up.
  it.each([
    [['cpu.idle.time=a1', 'cpu.kernel.time=-2.1'], '"cpu.idle.time=a1"'],
    [['cpu.idle.time', 'cpu.kernel.time=-2.1'], '"cpu.idle.time"'],
    [['=5', 'cpu.kernel.time=-2.1'], '"=5"'],
    [['cpu.kernel.time = 2.0t'], '"cpu.kernel.time = 2.0t"'],
    [['cpu.idle.time=inf'], '"cpu.idle.time=inf"'],
  ])('rejects weightSetting %j at start-up', (setting, bad) => {
    expect(() => readWeightSettingOrThrow(handle(setting))).toThrow(
      `MetricsWeigher: config "weightSetting" elements must be name=ratio with a numeric ratio, got ${bad}`,
    );
  });

  it('rejects a weightSetting that is not strings', () => {
    expect(() => readWeightSettingOrThrow(handle([1]))).toThrow(
      'must be a list of "name=ratio" strings',
    );
  });
});
