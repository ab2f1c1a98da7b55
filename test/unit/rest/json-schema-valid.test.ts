// validates() (the fast check validateSchema runs first) agrees with iterErrors on every value:
// valid exactly when iterErrors yields no error. Values are a valid PUT /allocations body and
// many mutations of it, plus inventory and allocation-candidate query shapes.
import { iterErrors, type Schema, validateSchema, validates } from '../../../src/rest/json-schema';
import * as allocation from '../../../src/rest/schemas/allocation';
import { GET_AC_SCHEMAS } from '../../../src/rest/schemas/allocation-candidate';
import { POST_INVENTORY_SCHEMA } from '../../../src/rest/schemas/inventory';
import {
  POST_RP_SCHEMA_V1_14,
  PUT_RP_SCHEMA_V1_14,
} from '../../../src/rest/schemas/resource-provider';

const RP = '6a8ee6fc-0e19-4a55-97a3-0b0f0a3e0f11';
const body = {
  allocations: { [RP]: { resources: { VCPU: 2, MEMORY_MB: 4096 }, generation: 3 } },
  project_id: 'p',
  user_id: 'u',
  consumer_generation: null,
  consumer_type: 'INSTANCE',
  mappings: { '': [RP] },
};

/** Every value reached by replacing one node of `v` (deeply) with each of `swaps`, or dropping it. */
function mutations(v: unknown, swaps: readonly unknown[]): unknown[] {
  const out: unknown[] = [...swaps];
  if (Array.isArray(v)) {
    v.forEach((item, i) => {
      for (const m of mutations(item, swaps)) {
        out.push(v.map((x, j) => (j === i ? m : x)));
      }
      out.push(v.filter((_, j) => j !== i));
    });
    out.push([...v, v[0]]);
  } else if (typeof v === 'object' && v !== null) {
    for (const [k, item] of Object.entries(v)) {
      for (const m of mutations(item, swaps)) {
        out.push({ ...v, [k]: m });
      }
      const { [k]: _, ...rest } = v as Record<string, unknown>;
      out.push(rest);
    }
    out.push({ ...v, extra_key: 1 }, { ...v, 'CUSTOM_A!': 1 });
  }
  return out;
}

const SWAPS = [
  null,
  0,
  -1,
  1.5,
  2 ** 40,
  '',
  'x',
  'INSTANCE',
  RP,
  'not-a-uuid',
  true,
  [],
  {},
  [RP],
  { a: 1 },
];

function agree(v: unknown, schema: Schema): void {
  const none = iterErrors(v, schema).next().done === true;
  expect({ v, valid: validates(v, schema) }).toEqual({ v, valid: none });
  expect(validateSchema(v, schema) === undefined).toBe(none);
}

describe('validates (fast check) against iterErrors', () => {
  const schemas = Object.entries(allocation).filter(
    ([, s]) => typeof s === 'object' && s !== null && 'type' in s,
  ) as [string, Schema][];

  it.each(schemas)('%s: a body and its mutations', (_name, schema) => {
    const { mappings: _m, consumer_type: _t, ...v128 } = body;
    const { consumer_generation: _g, project_id: _p, user_id: _u, ...v112 } = v128;
    const v10 = { allocations: [{ resource_provider: { uuid: RP }, resources: { VCPU: 1 } }] };
    const outcomes = new Set<boolean>();
    const v18 = { ...v10, project_id: 'p', user_id: 'u' };
    const consumer = (v: object) => ({ '1b4ad0f2-6e3d-4b6f-8f53-0b3bda0c4a01': v });
    const { mappings: _m2, ...v138 } = body;
    const posts = [v128, v138, v112].map(consumer);
    for (const base of [body, v128, v112, v10, v18, ...posts]) {
      for (const v of [base, ...mutations(base, SWAPS)]) {
        agree(v, schema);
        outcomes.add(validates(v, schema));
      }
    }
    // Both outcomes occur for every body schema (the test would prove little otherwise).
    expect([...outcomes].sort()).toEqual([false, true]);
  });

  it('inventory bodies and their mutations', () => {
    const inv = {
      resource_provider_generation: 1,
      total: 8,
      reserved: 0,
      min_unit: 1,
      max_unit: 8,
      step_size: 1,
      allocation_ratio: 1.5,
    };
    for (const v of [inv, ...mutations(inv, SWAPS)]) {
      agree(v, POST_INVENTORY_SCHEMA as Schema);
    }
  });

  it('resource-provider bodies (anyOf) and their mutations', () => {
    const outcomes = new Set<boolean>();
    for (const schema of [POST_RP_SCHEMA_V1_14, PUT_RP_SCHEMA_V1_14] as Schema[]) {
      for (const base of [
        { name: 'a', uuid: RP, parent_provider_uuid: RP },
        { name: 'b', parent_provider_uuid: null },
      ]) {
        for (const v of [base, ...mutations(base, SWAPS)]) {
          agree(v, schema);
          outcomes.add(validates(v, schema));
        }
      }
    }
    expect([...outcomes].sort()).toEqual([false, true]);
  });

  it('allocation-candidate query parameters and their mutations', () => {
    const q = {
      resources: ['VCPU:2'],
      limit: ['10'],
      required: ['HW_CPU_X86_AVX2'],
      member_of: ['in:' + RP],
      group_policy: ['none'],
    };
    for (const schema of Object.values(GET_AC_SCHEMAS)) {
      for (const v of [q, ...mutations(q, SWAPS)]) {
        agree(v, schema as Schema);
      }
    }
  });
});
