// Sharing of evaluations between identical requests: by key and state version, bounded in age, joined
// while running, never keeping a failure; the key ignores the order of extra specs and hints.

import type { RequestSpec } from '../../../src/scheduler/plugin-api';
import { EvaluationMemo, evaluationKey } from '../../../src/scheduler/state/evaluation-memo';
import type { StateVersion } from '../../../src/scheduler/state/state-version';

/** A state version; `aggregates` defaults to 0. */
const v = (index: number, aggregates = 0): StateVersion => ({ index, aggregates });

const spec = (o: Partial<RequestSpec> = {}): RequestSpec => ({
  candidateRequest: {
    groups: [
      {
        suffix: '',
        resources: { VCPU: 1, MEMORY_MB: 512 },
        requiredTraits: [],
        forbiddenTraits: [],
        memberOf: [],
        forbiddenAggregates: [],
      },
    ],
  },
  extraSpecs: {},
  projectId: 'p',
  userId: 'u',
  hints: {},
  instanceHosts: {},
  ...o,
});

describe('EvaluationMemo', () => {
  let clock = 0;
  const counted = () => {
    let n = 0;
    return {
      compute: () => Promise.resolve(++n),
      get calls() {
        return n;
      },
    };
  };

  beforeEach(() => {
    clock = 0;
  });

  it.each([
    ['same key and state, young enough', 'k', v(1), 500, 1, 1],
    ['a new index revision', 'k', v(2), 0, 2, 0],
    ['new aggregate metadata', 'k', v(1, 1), 0, 2, 0],
    ['another request', 'other', v(1), 0, 2, 0],
    ['older than maxAgeMs', 'k', v(1), 1001, 2, 0],
  ])('second lookup with %s', async (_case, key, version, later, calls, shared) => {
    const memo = new EvaluationMemo<number>(1000, () => clock);
    const c = counted();
    expect(await memo.get('k', v(1), c.compute)).toBe(1);
    clock += later;
    expect(await memo.get(key, version, c.compute)).toBe(calls);
    expect(c.calls).toBe(calls);
    expect(memo.stats).toEqual({ computed: calls, shared });
  });

  it('lets requests that arrive during an evaluation join it', async () => {
    const memo = new EvaluationMemo<number>(1000, () => clock);
    let release!: (n: number) => void;
    let calls = 0;
    const compute = () => {
      calls++;
      return new Promise<number>((r) => {
        release = r;
      });
    };
    const a = memo.get('k', v(0), compute);
    const b = memo.get('k', v(0), compute);
    release(7);
    expect(await Promise.all([a, b])).toEqual([7, 7]);
    expect(calls).toBe(1);
  });

  it('does not keep a failed evaluation', async () => {
    const memo = new EvaluationMemo<number>(1000, () => clock);
    await expect(memo.get('k', v(0), () => Promise.reject(new Error('db down')))).rejects.toThrow(
      'db down',
    );
    expect(await memo.get('k', v(0), () => Promise.resolve(3))).toBe(3);
    expect(memo.stats).toEqual({ computed: 2, shared: 0 });
  });

  it('never shares with maxAgeMs 0', async () => {
    const memo = new EvaluationMemo<number>(0, () => clock);
    const c = counted();
    await memo.get('k', v(0), c.compute);
    await memo.get('k', v(0), c.compute);
    expect(c.calls).toBe(2);
  });
});

describe('evaluationKey', () => {
  it('ignores the order of extra specs and hints', () => {
    const a = spec({ extraSpecs: { a: '1', b: '2' }, hints: { x: ['1'], y: ['2'] } });
    const b = spec({ extraSpecs: { b: '2', a: '1' }, hints: { y: ['2'], x: ['1'] } });
    expect(evaluationKey(a, 'p')).toBe(evaluationKey(b, 'p'));
  });

  it.each([
    ['extra specs', spec({ extraSpecs: { a: '1' } })],
    ['project', spec({ projectId: 'q' })],
    ['user', spec({ userId: 'v' })],
    ['hints', spec({ hints: { group: ['g1'] } })],
    ['where hinted instances run', spec({ instanceHosts: { i1: ['host-a'] } })],
    [
      'resources',
      spec({
        candidateRequest: {
          groups: [
            {
              suffix: '',
              resources: { VCPU: 2, MEMORY_MB: 512 },
              requiredTraits: [],
              forbiddenTraits: [],
              memberOf: [],
              forbiddenAggregates: [],
            },
          ],
        },
      }),
    ],
  ])('tells requests apart by %s', (_what, other) => {
    expect(evaluationKey(other, 'p')).not.toBe(evaluationKey(spec(), 'p'));
  });

  it('tells requests apart by the pipeline that evaluates (ChosenPipeline.key)', () => {
    // Keys as PipelineSet makes them: [generation, profile, filter override].
    const key = (...k: unknown[]) => evaluationKey(spec(), JSON.stringify(k));
    expect(key(1, 'default', null)).toBe(key(1, 'default', null));
    expect(key(1, 'default', ['RamFilter'])).not.toBe(key(1, 'default', null));
    expect(key(1, 'gpu', null)).not.toBe(key(1, 'default', null));
    expect(key(2, 'default', null)).not.toBe(key(1, 'default', null));
  });
});
