// GET /allocation_candidates query -> CandidateRequest (upstream: lib.py dict_from_request).
import { candidateRequestOrThrow } from '../../../src/rest/candidate-query';
import type { HttpError } from '../../../src/rest/http-error';
import { parseVersionOrThrow } from '../../../src/rest/microversion';
import { QueryParams } from '../../../src/rest/query-params';

const parse = (qs: string, version: string) =>
  candidateRequestOrThrow(new QueryParams(qs), parseVersionOrThrow(version));

describe('candidateRequestOrThrow', () => {
  it('groups numbered suffixes in first-appearance order', () => {
    const r = parse(
      'resources1=VCPU:1&resources=DISK_GB:10&required1=HW_CPU_X86_AVX&group_policy=isolate',
      '1.25',
    );
    expect(r.groups.map((g) => g.suffix)).toEqual(['1', '']);
    expect(r.groups[0]).toMatchObject({
      resources: { VCPU: 1 },
      requiredTraits: [['HW_CPU_X86_AVX']],
    });
    expect(r.groupPolicy).toBe('isolate');
  });

  it('reads string suffixes from 1.33 only', () => {
    expect(
      parse('resources_NET=SRIOV_NET_VF:1&resources_COMPUTE=VCPU:1', '1.33').groups.map(
        (g) => g.suffix,
      ),
    ).toEqual(['_NET', '_COMPUTE']);
    // Before 1.33 the key is not a group key at all (the schema rejects it first).
    expect(
      parse('resources=VCPU:1&resources_NET=SRIOV_NET_VF:1', '1.32').groups.map((g) => g.suffix),
    ).toEqual(['']);
  });

  it('reads the request-wide parameters', () => {
    const r = parse(
      'resources=VCPU:1&resources_A=SRIOV_NET_VF:1&required_B=CUSTOM_X&same_subtree=_A,_B&root_required=!CUSTOM_R&limit=5',
      '1.36',
    );
    expect(r.limit).toBe(5);
    expect(r.rootForbidden).toEqual(['CUSTOM_R']);
    expect(r.sameSubtree).toEqual([['_A', '_B']]);
    expect(r.groups.find((g) => g.suffix === '_B')?.resources).toEqual({});
  });

  // The schema checks the last group_policy, Placement reads the first: an unchecked first value
  // isolates nothing ('none'), an empty one is no policy at all.
  it.each([
    ['group_policy=isolate&group_policy=none', 'isolate'],
    ['group_policy=none&group_policy=isolate', 'none'],
    ['group_policy=bogus&group_policy=isolate', 'none'],
    ['group_policy=&group_policy=isolate', undefined],
    ['limit=1', undefined],
  ])('reads group_policy from the first value: %s', (qs, policy) => {
    expect(parse(`resources=VCPU:1&${qs}`, '1.25').groupPolicy).toBe(policy);
  });

  it('rejects root_required given twice with placement.query.duplicate_key', () => {
    try {
      parse('resources=VCPU:1&root_required=A&root_required=B', '1.35');
      throw new Error('no error');
    } catch (err) {
      expect((err as HttpError).code).toBe('placement.query.duplicate_key');
    }
  });

  it.each([
    {
      qs: 'required=HW_CPU_X86_AVX&required1=HW_CPU_X86_SSE&resources2=VCPU:1',
      msg: 'orphaned traits keys: required, required1',
    },
    {
      qs: 'member_of=11111111-1111-4111-8111-111111111111&resources1=VCPU:1',
      msg: 'orphaned member_of keys: member_of',
    },
    {
      qs: 'group_policy=none',
      msg: 'At least one request group (`resources` or `resources{$S}`) is required.',
    },
  ])('reports orphans before 1.36: $msg', ({ qs, msg }) => {
    expect(() => parse(qs, '1.35')).toThrow(msg);
  });

  it('leaves resourceless groups to the engine from 1.36', () => {
    expect(() => parse('required=HW_CPU_X86_AVX&resources1=VCPU:1', '1.36')).not.toThrow();
  });
});
