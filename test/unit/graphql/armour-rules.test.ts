// Static measures of the armour rule: depth, aliases and cost, through fragments.
import 'reflect-metadata';
import { Kind, parse, TypeInfo, ValidationContext } from 'graphql';
import { schema } from '../../../schema/index';
import {
  LIST_DEFAULT,
  measureOperation,
  PAGINATED_DEFAULT,
} from '../../../src/graphql/armour-rules';

function measure(query: string) {
  const doc = parse(query);
  const ctx = new ValidationContext(schema, doc, new TypeInfo(schema), () => {});
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (op?.kind !== Kind.OPERATION_DEFINITION) {
    throw new Error('no operation');
  }
  return measureOperation(ctx, op);
}

describe('measureOperation', () => {
  it.each([
    {
      name: 'one scalar field',
      q: '{ version { berth } }',
      want: { depth: 2, aliases: 0, cost: 2 },
    },
    {
      name: 'a literal first multiplies its subtree',
      q: '{ resourceProviders(first: 7) { edges { node { uuid } } } }',
      want: { depth: 4, aliases: 0, cost: 7 * 4 },
    },
    {
      name: 'a variable first counts as the paginated default',
      q: 'query($n: Int) { resourceProviders(first: $n) { edges { node { uuid } } } }',
      want: { depth: 4, aliases: 0, cost: PAGINATED_DEFAULT * 4 },
    },
    {
      name: 'a list without pagination counts as the list default',
      q: '{ resourceClasses { name } }',
      want: { depth: 2, aliases: 0, cost: LIST_DEFAULT * 2 },
    },
    {
      name: 'aliases and fragments are expanded',
      q: '{ a: version { ...V } b: version { ...V } } fragment V on Version { berth }',
      want: { depth: 2, aliases: 2, cost: 4 },
    },
  ])('$name', ({ q, want }) => {
    expect(measure(q)).toEqual(want);
  });

  it('survives fragment cycles (graphql-js reports them separately)', () => {
    const m = measure(
      '{ version { ...A } } fragment A on Version { berth ...B } fragment B on Version { ...A }',
    );
    expect(m.depth).toBe(2);
  });
});
