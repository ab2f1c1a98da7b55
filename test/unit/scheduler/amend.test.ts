// Unit tests for src/scheduler/amend.ts and the pipeline's pre-candidate phase (Nova request filters).

import { emptyRequestGroup } from '../../../src/scheduler/helpers';
import type {
  AmendPlugin,
  FailurePolicy,
  RequestAmendment,
} from '../../../src/scheduler/plugin-api';
import { buildRequestSpec } from '../../../src/scheduler/plugin-testing';
import { applyAmendment, readAmendment } from '../../../src/scheduler/runtime/amend';
import { createPipeline } from '../../../src/scheduler/runtime/pipeline';
import { runPipeline } from '../../support/plugin';

const ctx = { aggregates: [] };

function amender(
  name: string,
  amendment: RequestAmendment | null,
  onError: FailurePolicy = 'closed',
): AmendPlugin {
  return { name, kind: 'filter', onError, amendRequest: () => amendment };
}

describe('applyAmendment', () => {
  it('adds member_of and forbidden aggregates to the existing unsuffixed group', () => {
    const spec = buildRequestSpec({
      groups: [
        {
          ...emptyRequestGroup(''),
          resources: { VCPU: 1 },
          memberOf: [['a']],
          forbiddenAggregates: ['x'],
        },
        { ...emptyRequestGroup('1'), resources: { SRIOV_NET_VF: 1 } },
      ],
    });
    const out = applyAmendment(spec, {
      memberOf: [['b', 'c', 'b']],
      forbiddenAggregates: ['x', 'y'],
    });
    expect(out.candidateRequest.groups).toEqual([
      {
        ...emptyRequestGroup(''),
        resources: { VCPU: 1 },
        memberOf: [['a'], ['b', 'c']],
        forbiddenAggregates: ['x', 'y'],
      },
      { ...emptyRequestGroup('1'), resources: { SRIOV_NET_VF: 1 } },
    ]);
    expect(spec.candidateRequest.groups[0]!.forbiddenAggregates).toEqual(['x']);
  });

  it('creates a resourceless unsuffixed group when the request has only suffixed groups', () => {
    const spec = buildRequestSpec({
      groups: [{ ...emptyRequestGroup('1'), resources: { VCPU: 1 } }],
    });
    const out = applyAmendment(spec, { forbiddenAggregates: ['r'] });
    expect(out.candidateRequest.groups.map((g) => [g.suffix, g.forbiddenAggregates])).toEqual([
      ['', ['r']],
      ['1', []],
    ]);
  });

  it('adds root traits request-wide and leaves the groups alone otherwise', () => {
    const spec = buildRequestSpec({ resources: { VCPU: 1 } });
    const out = applyAmendment(spec, {
      rootForbiddenTraits: ['T1', 'T1'],
      rootRequiredTraits: [['A', 'B']],
    });
    expect(out.candidateRequest).toEqual({
      groups: spec.candidateRequest.groups,
      rootForbidden: ['T1'],
      rootRequired: [['A', 'B']],
    });
  });
});

/** Why readAmendment refuses `value`, or null when it reads it. */
function problemOf(value: unknown): string | null {
  const read = readAmendment(value);
  return 'problem' in read ? read.problem : null;
}

describe('readAmendment problems', () => {
  it.each([
    [[], 'amendment must be an object or null'],
    [{ memberOf: ['a'] }, 'memberOf must be a list of lists of non-empty strings'],
    [{ forbiddenAggregates: [''] }, 'forbiddenAggregates must be a list of non-empty strings'],
    [{ note: 3 }, 'note must be a string'],
    [{ memberOf: [['a']], note: 'ok' }, null],
  ])('%j -> %p', (value, want) => {
    expect(problemOf(value)).toBe(want);
  });
});

describe('readAmendment', () => {
  it('copies only the known fields into a plain object the plugin can no longer change', () => {
    const memberOf = [['a']];
    const read = readAmendment({ memberOf, note: 'n', extra: 1n });
    expect(read).toEqual({ amendment: { memberOf: [['a']], note: 'n' } });
    memberOf[0]!.push('b');
    expect(read).toEqual({ amendment: { memberOf: [['a']], note: 'n' } });
  });

  it('reports a getter that throws as a problem instead of throwing', () => {
    const hostile = {
      get memberOf(): never {
        throw new Error('boom');
      },
    };
    expect(readAmendment(hostile)).toEqual({ problem: 'amendment cannot be read: boom' });
  });

  it('refuses a list longer than it will copy', () => {
    const huge = new Proxy([] as string[], {
      get: (t, k) => (k === 'length' ? 1e9 : Reflect.get(t, k)),
    });
    expect(readAmendment({ forbiddenAggregates: huge })).toEqual({
      problem: 'forbiddenAggregates must be a list of non-empty strings',
    });
  });
});

describe('pipeline.amend', () => {
  it('runs hooks in filter order, each seeing the request amended so far', async () => {
    const seen: number[] = [];
    const counting: AmendPlugin = {
      name: 'Counting',
      kind: 'filter',
      onError: 'closed',
      amendRequest: (req) => {
        seen.push(req.candidateRequest.groups[0]!.forbiddenAggregates.length);
        return null;
      },
    };
    const pipeline = createPipeline({
      filters: [amender('First', { forbiddenAggregates: ['a'] }), counting],
      weighers: [],
    });
    const result = await pipeline.amend(buildRequestSpec(), ctx);
    expect(seen).toEqual([1]);
    expect(result.spec.candidateRequest.groups[0]!.forbiddenAggregates).toEqual(['a']);
    expect(result.steps.map((s) => [s.plugin, s.amendment])).toEqual([
      ['First', { forbiddenAggregates: ['a'] }],
      ['Counting', null],
    ]);
    expect(pipeline.needsAggregates).toBe(true);
  });

  it('stops at an unsatisfiable amendment', async () => {
    const later = jest.fn(() => null);
    const pipeline = createPipeline({
      filters: [
        amender('Stop', { unsatisfiable: 'nothing can match' }),
        { ...amender('Later', null), amendRequest: later },
      ],
      weighers: [],
    });
    const result = await pipeline.amend(buildRequestSpec(), ctx);
    expect(result.unsatisfiable).toEqual({ plugin: 'Stop', reason: 'nothing can match' });
    expect(later).not.toHaveBeenCalled();
  });

  it('treats membership in an empty set of aggregates as unsatisfiable', async () => {
    const result = await createPipeline({
      filters: [amender('Empty', { memberOf: [[]] })],
      weighers: [],
    }).amend(buildRequestSpec(), ctx);
    expect(result.unsatisfiable?.plugin).toBe('Empty');
  });

  it.each([
    { policy: 'open' as const, unsatisfiable: undefined },
    {
      policy: 'closed' as const,
      unsatisfiable: { plugin: 'Broken', reason: 'failed closed: no catalog' },
    },
  ])('isolates a throwing hook that fails $policy', async ({ policy, unsatisfiable }) => {
    const broken: AmendPlugin = {
      name: 'Broken',
      kind: 'filter',
      onError: policy,
      amendRequest: () => {
        throw new Error('no catalog');
      },
    };
    const pipeline = createPipeline({
      filters: [broken, amender('After', { forbiddenAggregates: ['z'] })],
      weighers: [],
    });
    const result = await pipeline.amend(buildRequestSpec(), ctx);
    expect(result.unsatisfiable).toEqual(unsatisfiable);
    expect(result.steps[0]!.failure).toMatchObject({
      plugin: 'Broken',
      phase: 'amendRequest',
      cause: 'error',
      policy,
    });
    const forbidden = result.spec.candidateRequest.groups[0]!.forbiddenAggregates;
    expect(forbidden).toEqual(policy === 'open' ? ['z'] : []);
  });

  it('treats a malformed amendment as a failure', async () => {
    const bad = {
      name: 'Bad',
      kind: 'filter',
      onError: 'open',
      amendRequest: () => ({ memberOf: 'a' }),
    } as unknown as AmendPlugin;
    const result = await createPipeline({ filters: [bad], weighers: [] }).amend(
      buildRequestSpec(),
      ctx,
    );
    expect(result.steps[0]!.failure).toMatchObject({
      cause: 'invalid-result',
      message: 'memberOf must be a list of lists of non-empty strings',
    });
  });

  it('carries amendment steps and failures into the run explanation', async () => {
    const broken: AmendPlugin = {
      name: 'Broken',
      kind: 'filter',
      onError: 'open',
      amendRequest: () => Promise.reject(new Error('x')),
    };
    const pipeline = createPipeline({
      filters: [broken, amender('Note', { note: 'did a thing', rootForbiddenTraits: ['T'] })],
      weighers: [],
    });
    const { explanation } = await runPipeline(pipeline, [], buildRequestSpec());
    expect(explanation.amendments).toHaveLength(2);
    expect(explanation.failures.map((f) => f.plugin)).toEqual(['Broken']);
  });
});
