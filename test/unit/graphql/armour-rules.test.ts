// Static cost of the armour's cost rule, through fragments.
import 'reflect-metadata';
import { Kind, parse, TypeInfo, ValidationContext } from 'graphql';
import { schema } from '../../../schema/index';
import { LIST_DEFAULT, operationCost, PAGINATED_DEFAULT } from '../../../src/graphql/armour-rules';

function cost(query: string) {
  const doc = parse(query);
  const ctx = new ValidationContext(schema, doc, new TypeInfo(schema), () => {});
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (op?.kind !== Kind.OPERATION_DEFINITION) {
    throw new Error('no operation');
  }
  return operationCost(ctx, op);
}

describe('operationCost', () => {
  it.each([
    { name: 'one scalar field', q: '{ version { berth } }', want: 2 },
    {
      name: 'a literal first multiplies its subtree',
      q: '{ resourceProviders(first: 7) { edges { node { uuid } } } }',
      want: 7 * 4,
    },
    {
      name: 'a variable first counts as the paginated default',
      q: 'query($n: Int) { resourceProviders(first: $n) { edges { node { uuid } } } }',
      want: PAGINATED_DEFAULT * 4,
    },
    {
      name: 'an omitted first on a connection counts as the paginated default',
      q: '{ resourceProviders { edges { node { uuid } } } }',
      want: PAGINATED_DEFAULT * 4,
    },
    {
      name: 'a list without pagination counts as the list default',
      q: '{ resourceClasses { name } }',
      want: LIST_DEFAULT * 2,
    },
    {
      name: 'a list field that declares its size (a provider’s allocations) counts by it',
      q: '{ resourceProvider(uuid: "x") { allocations { used } } }',
      want: 1 + 200 * 2,
    },
    {
      name: 'aliases and fragments are expanded',
      q: '{ a: version { ...V } b: version { ...V } } fragment V on Version { berth }',
      want: 4,
    },
  ])('$name', ({ q, want }) => {
    expect(cost(q)).toBe(want);
  });

  it('survives fragment cycles (graphql-js reports them separately)', () => {
    expect(
      cost(
        '{ version { ...A } } fragment A on Version { berth ...B } fragment B on Version { ...A }',
      ),
    ).toBe(2);
  });
});
