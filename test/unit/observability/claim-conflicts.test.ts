// Claim conflicts and no-valid-host outcomes for /metrics: a single claim refused with a conflict
// is counted by its code (other failures are not), and an outcome that ranked no host names where
// the hosts ran out.
import { Counter, Histogram, Registry } from 'prom-client';
import { timedClaimWriter } from '../../../src/observability/claims';
import { noValidHostStage } from '../../../src/observability/schedule-outcomes';
import {
  BadRequestError,
  ConcurrentUpdateError,
  ConflictError,
  ErrorCode,
} from '../../../src/placement/errors';

describe('timedClaimWriter conflicts', () => {
  it.each([
    {
      name: 'a stale generation',
      err: new ConcurrentUpdateError('stale'),
      want: { 'placement.concurrent_update': 1 },
    },
    {
      name: 'a quota',
      err: new ConflictError('over', ErrorCode.QUOTA_EXCEEDED),
      want: { 'berth.quota.exceeded': 1 },
    },
    { name: 'bad input (not a conflict)', err: new BadRequestError('bad'), want: {} },
  ])('counts $name as $want', async ({ err, want }) => {
    const registry = new Registry();
    const conflicts = new Counter({
      name: 'c_total',
      help: 'c',
      labelNames: ['code'],
      registers: [registry],
    });
    const writer = timedClaimWriter(
      { claim: async () => Promise.reject(err), claimNew: async () => [] },
      new Histogram({ name: 't', help: 't', labelNames: ['kind'], registers: [registry] }),
      new Histogram({ name: 's', help: 's', registers: [registry] }),
      conflicts,
    );
    await expect(writer.claim({} as never)).rejects.toBe(err);
    const got = (await conflicts.get()).values.map((v) => [v.labels.code, v.value]);
    expect(Object.fromEntries(got)).toEqual(want);
  });
});

describe('noValidHostStage', () => {
  const outcome = (ranked: number, hostsIn: number, unsatisfiable?: object) => ({
    selections: [],
    ranking: Array.from({ length: ranked }, () => ({})),
    explanation: { hostsIn, filters: [], ...(unsatisfiable ? { unsatisfiable } : {}) },
  });
  it.each([
    { name: 'a ranked host', r: outcome(1, 3), want: null },
    { name: 'no candidates', r: outcome(0, 0), want: 'candidates' },
    { name: 'candidates all filtered out', r: outcome(0, 3), want: 'filters' },
    {
      name: 'a plugin calling it unsatisfiable',
      r: outcome(0, 0, { plugin: 'X', reason: 'y' }),
      want: 'filters',
    },
    { name: 'something else', r: { hostUuid: null }, want: null },
  ])('says $want for $name', ({ r, want }) => {
    expect(noValidHostStage(r)).toBe(want);
  });
});
