// Down-sampling of the capacity history: step sizes are whole multiples of the interval, each
// step keeps its busiest sample, and no answer holds more than `points` points.
import {
  bucketStart,
  downsample,
  stepSeconds,
} from '../../../src/placement/capacity-history-points';

describe('stepSeconds', () => {
  it.each([
    {
      name: 'a day at 300 s in 288 points keeps the interval',
      range: 86_400,
      points: 288,
      want: 300,
    },
    { name: 'a day in 100 points takes 3 intervals', range: 86_400, points: 100, want: 900 },
    {
      name: '14 days in 288 points takes 14 intervals',
      range: 14 * 86_400,
      points: 288,
      want: 4200,
    },
    { name: 'one point takes the whole range', range: 3600, points: 1, want: 3600 },
  ])('$name', ({ range, points, want }) => {
    expect(stepSeconds(range, 300, points)).toBe(want);
  });
});

describe('downsample', () => {
  const s = (at: number, used: number, capacity = 100) => ({ at, capacity, used });

  it('keeps every sample when the step is the interval', () => {
    const samples = [s(0, 1), s(300, 2), s(600, 3)];
    expect(downsample(samples, 300, 10)).toEqual(samples);
  });

  it('keeps the busiest sample of each step, at the step start, with its own capacity', () => {
    expect(
      downsample([s(0, 5, 80), s(300, 9, 90), s(600, 2), s(900, 2, 70), s(1200, 1)], 600, 10),
    ).toEqual([s(0, 9, 90), s(600, 2, 70), s(1200, 1)]);
  });

  it('keeps only the newest points when more steps than points are touched', () => {
    expect(downsample([s(0, 1), s(300, 2), s(600, 3)], 300, 2)).toEqual([s(300, 2), s(600, 3)]);
  });
});

describe('bucketStart', () => {
  it('aligns to the interval in epoch seconds', () => {
    expect(bucketStart(1_700_000_123_456, 300)).toBe(1_700_000_100);
    expect(bucketStart(1_700_000_100_000, 300)).toBe(1_700_000_100);
  });
});
