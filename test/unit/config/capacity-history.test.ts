// Capacity history settings: durations with units, 0 for off, bounds, and a retention shorter
// than the interval refused at start-up with the variable named.
import { parseDurationSeconds } from '../../../src/config/capacity-history';
import { loadConfig } from '../../../src/config/config';

describe('capacity history settings', () => {
  it('defaults to a sample every 300 s kept 14 days, 50 aggregates on /metrics', () => {
    expect(loadConfig({}).capacity).toEqual({
      historyIntervalSeconds: 300,
      historyRetentionSeconds: 14 * 86_400,
      metricsAggregates: 50,
    });
  });

  it.each([
    ['300', 300],
    ['300s', 300],
    ['5m', 300],
    ['36h', 129_600],
    ['14d', 1_209_600],
    ['0', 0],
  ])('reads %p as %p seconds', (v, want) => {
    expect(parseDurationSeconds(v)).toBe(want);
  });

  it('turns the history off with 0', () => {
    expect(
      loadConfig({ BERTH_CAPACITY_HISTORY_INTERVAL: '0' }).capacity.historyIntervalSeconds,
    ).toBe(0);
    expect(
      loadConfig({ BERTH_CAPACITY_HISTORY_RETENTION: '0' }).capacity.historyRetentionSeconds,
    ).toBe(0);
  });

  it.each([
    [
      { BERTH_CAPACITY_HISTORY_INTERVAL: 'often' },
      /invalid BERTH_CAPACITY_HISTORY_INTERVAL: 'often' is not a duration/,
    ],
    [
      { BERTH_CAPACITY_HISTORY_INTERVAL: '5' },
      /invalid BERTH_CAPACITY_HISTORY_INTERVAL: must be 0 \(off\) or from 10/,
    ],
    [
      { BERTH_CAPACITY_HISTORY_RETENTION: '400d' },
      /invalid BERTH_CAPACITY_HISTORY_RETENTION: must be 0/,
    ],
    [
      { BERTH_CAPACITY_HISTORY_INTERVAL: '1d', BERTH_CAPACITY_HISTORY_RETENTION: '2h' },
      /invalid BERTH_CAPACITY_HISTORY_RETENTION: 7200 s is shorter than BERTH_CAPACITY_HISTORY_INTERVAL/,
    ],
    [{ BERTH_METRICS_AGGREGATES: '-1' }, /invalid BERTH_METRICS_AGGREGATES/],
  ])('refuses %p', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
