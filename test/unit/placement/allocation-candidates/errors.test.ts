// 400s of GET /allocation_candidates with Placement's messages and codes, and the order in which
// Placement reports an unknown name or answers empty instead (upstream: lib.py,
// handlers/allocation_candidate.py, research_context.py).
import { CapacityIndex } from '../../../../src/placement/allocation-candidates/capacity-index';
import { BadRequestError, ErrorCode, restCode } from '../../../../src/placement/errors';
import { loadFixture } from './fixture-builder';
import { GRANULAR } from './gabbit-fixtures';
import { get } from './helpers';

const fx = loadFixture(GRANULAR);

function errorOf(qs: string): BadRequestError {
  try {
    get(fx, qs);
  } catch (e) {
    if (e instanceof BadRequestError) {
      return e;
    }
    throw e;
  }
  throw new Error(`no error for ${qs}`);
}

describe('request validation', () => {
  it.each([
    [
      'resources1=VCPU:1&resources2=VCPU:1',
      'The "group_policy" parameter is required when specifying more than one "resources{N}" parameter.',
      ErrorCode.DEFAULT,
    ],
    [
      'required_A=CUSTOM_FOO',
      'There must be at least one resources or resources[$S] parameter.',
      ErrorCode.QUERYPARAM_MISSING_VALUE,
    ],
    [
      'resources=VCPU:1&required_A=CUSTOM_FOO',
      "Resourceless suffixed group request should be specified in `same_subtree` query param: bad group(s) - ['_A'].",
      ErrorCode.QUERYPARAM_BAD_VALUE,
    ],
    [
      'resources_A=VCPU:1&same_subtree=_A,_B',
      "Real suffixes should be specified in `same_subtree`: ['_B'] not found in ['_A'].",
      ErrorCode.QUERYPARAM_BAD_VALUE,
    ],
    [
      'resources=VCPU:1&resources_A=VCPU:1&same_subtree=,_A',
      'Empty string (unsuffixed group) can not be specified in `same_subtree` ',
      ErrorCode.QUERYPARAM_BAD_VALUE,
    ],
    [
      'resources1=VCPU:1&required1=CUSTOM_FOO,!CUSTOM_FOO',
      'Conflicting required and forbidden traits found in the following traits keys: required1: (CUSTOM_FOO)',
      ErrorCode.DEFAULT,
    ],
    [
      'resources=VCPU:1&root_required=CUSTOM_FOO,!CUSTOM_FOO',
      'Conflicting required and forbidden traits found in root_required: CUSTOM_FOO',
      ErrorCode.QUERYPARAM_BAD_VALUE,
    ],
    [
      'resources=VCPU:0',
      'Requested resource VCPU requires amount >= 1. Got: 0.',
      ErrorCode.DEFAULT,
    ],
    [
      'resources=MCPU:99',
      'Invalid resource class in resources parameter: No such resource class MCPU.',
      ErrorCode.DEFAULT,
    ],
    ['resources=VCPU:1&required=CUSTOM_NOPE', 'No such trait(s): CUSTOM_NOPE.', ErrorCode.DEFAULT],
    [
      'resources=VCPU:1&root_required=!CUSTOM_NOPE',
      'No such trait(s): CUSTOM_NOPE.',
      ErrorCode.DEFAULT,
    ],
  ])('%s -> %s (REST code %s, as Placement sends)', (qs, message, code) => {
    const e = errorOf(qs);
    expect(e.message).toBe(message);
    expect(restCode(e.code)).toBe(code);
    expect(e.status).toBe(400);
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(errorOf('resources=VCPU:1&limit=0').code).toBe(ErrorCode.QUERYPARAM_BAD_VALUE);
  });
});

describe('unknown names in Placement order', () => {
  it('reports the resource class of a group before its traits', () => {
    expect(errorOf('resources=MCPU:1&required=CUSTOM_NOPE').message).toContain(
      'No such resource class MCPU',
    );
  });

  it('reports root_required traits before any group', () => {
    expect(errorOf('resources=MCPU:1&root_required=CUSTOM_NOPE').message).toBe(
      'No such trait(s): CUSTOM_NOPE.',
    );
  });

  it('answers empty when an earlier group matches no aggregate', () => {
    const r = get(
      fx,
      'resources1=VCPU:1&member_of1=agg-NONE&resources2=VCPU:1&required2=CUSTOM_NOPE&group_policy=none',
    );
    expect(r.allocationRequests).toHaveLength(0);
  });

  it('still reports the name when the empty group comes later', () => {
    expect(
      errorOf(
        'resources1=VCPU:1&required1=CUSTOM_NOPE&resources2=VCPU:1&member_of2=agg-NONE&group_policy=none',
      ).message,
    ).toBe('No such trait(s): CUSTOM_NOPE.');
  });

  it('answers empty when an earlier group has no provider with capacity', () => {
    const r = get(fx, 'resources1=VCPU:999&resources2=MCPU:1&group_policy=none');
    expect(r.allocationRequests).toHaveLength(0);
  });

  it('answers empty when an earlier group has no candidate at all', () => {
    const r = get(
      fx,
      'resources1=VCPU:1&required1=CUSTOM_FOO,HW_CPU_X86_MMX&resources2=MCPU:1&group_policy=none',
    );
    expect(r.allocationRequests).toHaveLength(0);
  });

  it('answers empty when root_required matches no root', () => {
    expect(get(fx, 'resources=MCPU:1&root_required=HW_NUMA_ROOT').allocationRequests).toHaveLength(
      0,
    );
  });

  it('accepts unknown names when the index has no catalogue', () => {
    const bare = loadFixture(GRANULAR);
    const rows = { ...bare.rows, resourceClassNames: undefined, traitNames: undefined };
    const r = get(
      { ...bare, index: CapacityIndex.fromRows(rows) },
      'resources=MCPU:1&required=CUSTOM_NOPE',
    );
    expect(r.allocationRequests).toHaveLength(0);
  });
});
