// JSON schema validation with Python jsonschema's wording and best_match choice.
import { type Schema, validateSchema } from '../../../src/rest/json-schema';
import { GET_AC_SCHEMAS } from '../../../src/rest/schemas/allocation-candidate';
import { POST_INVENTORY_SCHEMA } from '../../../src/rest/schemas/inventory';

const firstLine = (v: unknown, s: Schema) => validateSchema(v, s)?.split('\n')[0];

describe('validateSchema', () => {
  it.each([
    {
      name: 'missing required property',
      v: { resource_class: 'VCPU' },
      want: "'total' is a required property",
    },
    {
      name: 'unexpected property',
      v: { total: 1, resource_class: 'VCPU', bad_field: 1 },
      want: "Additional properties are not allowed ('bad_field' was unexpected)",
    },
    {
      name: 'minimum',
      v: { total: 0, resource_class: 'VCPU' },
      want: '0 is less than the minimum of 1',
    },
    {
      name: 'type',
      v: { total: 'x', resource_class: 'VCPU' },
      want: "'x' is not of type 'integer'",
    },
    {
      name: 'pattern',
      v: { total: 1, resource_class: 'vcpu' },
      want: "'vcpu' does not match '^[A-Z0-9_]+$'",
    },
  ])('reports $name like jsonschema', ({ v, want }) => {
    expect(firstLine(v, POST_INVENTORY_SCHEMA)).toBe(want);
  });

  it('prefers the shallowest error (best_match)', () => {
    const msg = validateSchema({ total: 0 }, POST_INVENTORY_SCHEMA)!;
    expect(msg.split('\n')[0]).toBe("'resource_class' is a required property");
  });

  it('names the failing keyword and schema path', () => {
    expect(validateSchema({ total: 0, resource_class: 'VCPU' }, POST_INVENTORY_SCHEMA)).toContain(
      "Failed validating 'minimum' in schema['properties']['total']",
    );
  });

  it('lists the regexes when patternProperties forbid a key', () => {
    const schema = GET_AC_SCHEMAS.find(([min]) => min === '1.25')![1];
    expect(firstLine({ resources01: 'VCPU:1' }, schema)).toBe(
      "'resources01' does not match any of the regexes: '^member_of([1-9][0-9]*)?$', '^required([1-9][0-9]*)?$', '^resources([1-9][0-9]*)?$'",
    );
  });

  it('accepts uuids in any of Python uuid.UUID forms', () => {
    const schema: Schema = { type: 'string', format: 'uuid' };
    expect(validateSchema('7260669a-e3d4-4867-aaa7-683e2ab6958c', schema)).toBeUndefined();
    expect(validateSchema('7260669ae3d44867aaa7683e2ab6958c', schema)).toBeUndefined();
    expect(firstLine('harry', schema)).toBe("'harry' is not a 'uuid'");
  });
});
