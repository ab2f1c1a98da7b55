// The types read from the request schemas (src/rest/schema-types.ts): each schema gives the
// shape its validator guarantees, no more. Checked by the compiler (`npx tsc`, CI's typecheck);
// the runtime half checks that `validates` agrees with validateSchema.
import { validateSchema, validates } from '../../../src/rest/json-schema';
import type { Validated } from '../../../src/rest/schema-types';
import type { PUT_AGGREGATES_SCHEMA_V1_1 } from '../../../src/rest/schemas/aggregate';
import type {
  ALLOCATION_SCHEMA,
  ALLOCATION_SCHEMA_V1_28,
  ALLOCATION_SCHEMA_V1_38,
} from '../../../src/rest/schemas/allocation';
import type { GET_AC_SCHEMAS } from '../../../src/rest/schemas/allocation-candidate';
import {
  type LOOSE_INVENTORY_RECORD_SCHEMA,
  PUT_INVENTORY_RECORD_SCHEMA,
  type PUT_INVENTORY_SCHEMA,
} from '../../../src/rest/schemas/inventory';
import type { POST_RP_SCHEMA_V1_14 } from '../../../src/rest/schemas/resource-provider';

/** true when A and B are the same type (not merely assignable). */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2
    ? (<T>() => T extends B ? 1 : 2) extends <T>() => T extends A ? 1 : 2
      ? true
      : false
    : false;
const same = <A, B>(ok: Same<A, B>): Same<A, B> => ok;

type Inventory = Validated<typeof PUT_INVENTORY_RECORD_SCHEMA>;

describe('Validated', () => {
  it('reads arrays, optional and required properties, anyOf and null', () => {
    expect(same<Validated<typeof PUT_AGGREGATES_SCHEMA_V1_1>, readonly string[]>(true)).toBe(true);
    type Rp = Validated<typeof POST_RP_SCHEMA_V1_14>;
    expect(same<Rp['name'], string>(true)).toBe(true);
    expect(same<Rp['parent_provider_uuid'], string | null | undefined>(true)).toBe(true);
    expect(same<Inventory['total'], number>(true)).toBe(true);
    expect(same<Inventory['reserved'], number | undefined>(true)).toBe(true);
  });

  it('reads an enum as its values', () => {
    type Query = Validated<(typeof GET_AC_SCHEMAS)[0][1]>;
    expect(same<Query['group_policy'], 'none' | 'isolate' | undefined>(true)).toBe(true);
    // Group keys (patternProperties) are strings; no other key passes additionalProperties.
    expect(same<Query[string], string | number>(true)).toBe(true);
  });

  it('leaves a value the schema does not check unknown', () => {
    // `inventories` checks the class-name keys only (no additionalProperties: false).
    type Inventories = Validated<typeof PUT_INVENTORY_SCHEMA>['inventories'];
    expect(same<Inventories[string], unknown>(true)).toBe(true);
    // A loose record has any other field.
    type Loose = Validated<typeof LOOSE_INVENTORY_RECORD_SCHEMA>;
    expect(same<Loose['foo'], unknown>(true)).toBe(true);
    expect(same<Loose['total'], number>(true)).toBe(true);
  });

  it('gives each microversion schema its own type', () => {
    type V1_0 = Validated<typeof ALLOCATION_SCHEMA>;
    type V1_28 = Validated<typeof ALLOCATION_SCHEMA_V1_28>;
    type V1_38 = Validated<typeof ALLOCATION_SCHEMA_V1_38>;
    type Provider = V1_0['allocations'][number]['resource_provider'];
    expect(same<Provider, { readonly uuid: string }>(true)).toBe(true);
    expect(same<V1_28['consumer_generation'], number | null>(true)).toBe(true);
    expect(same<'consumer_type' extends keyof V1_28 ? true : false, false>(true)).toBe(true);
    expect(same<V1_38['consumer_type'], string>(true)).toBe(true);
    type ByProvider = V1_28['allocations'][string];
    expect(same<ByProvider['resources'][string], number>(true)).toBe(true);
    // A union of schemas is the union of their types, told apart by their fields.
    const input = (body: Validated<typeof ALLOCATION_SCHEMA | typeof ALLOCATION_SCHEMA_V1_38>) =>
      'consumer_type' in body ? body.consumer_type : Array.isArray(body.allocations);
    expect(input({ allocations: [] })).toBe(true);
  });
});

describe('validates', () => {
  it.each([
    [{ total: 1 }, true],
    [{ total: 1, reserved: 0, allocation_ratio: 1.5 }, true],
    [{ total: 0 }, false],
    [{ total: 1, foo: 1 }, false],
    [null, false],
    [[], false],
  ])('agrees with validateSchema: %j', (value, ok) => {
    expect(validates(value, PUT_INVENTORY_RECORD_SCHEMA)).toBe(ok);
    expect(validateSchema(value, PUT_INVENTORY_RECORD_SCHEMA) === undefined).toBe(ok);
  });

  it('narrows to the schema type', () => {
    const value: unknown = JSON.parse('{"total": 4, "reserved": 1}');
    expect(
      validates(value, PUT_INVENTORY_RECORD_SCHEMA) ? value.total - (value.reserved ?? 0) : 0,
    ).toBe(3);
  });
});
