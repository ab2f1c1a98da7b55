// graphql-armor's depth, alias and directive rules as berth reports them: counted through
// fragments, one berth error per operation over a limit, none within.
import 'reflect-metadata';
import { getIntrospectionQuery, parse, validate } from 'graphql';
import { schema } from '../../../schema/index';
import { loadConfig } from '../../../src/config/config';
import { armourLimitRules } from '../../../src/graphql/armour-limits';

const limits = { maxDepth: 3, maxAliases: 2, maxDirectives: 2 };

function errors(query: string) {
  return validate(schema, parse(query), armourLimitRules(limits)).map((e) => ({
    message: e.message,
    code: e.extensions.code,
  }));
}

describe('armourLimitRules', () => {
  it.each([
    { name: 'a shallow operation', q: '{ version { berth } }' },
    {
      name: 'depth at the limit, counted through a fragment',
      q: '{ resourceProviders(first: 1) { edges { ...E } } } fragment E on ResourceProviderEdge { cursor }',
    },
    { name: 'two aliases', q: '{ a: version { berth } b: version { berth } }' },
    {
      name: 'two directives',
      q: 'query($x: Boolean!) { version @include(if: $x) { berth @skip(if: $x) } }',
    },
    {
      name: 'a fragment cycle (graphql-js reports it separately)',
      q: '{ version { ...A } } fragment A on Version { berth ...B } fragment B on Version { ...A }',
    },
  ])('reports nothing for $name', ({ q }) => {
    expect(errors(q)).toEqual([]);
  });

  it.each([
    {
      name: 'depth through a fragment',
      q: '{ resourceProviders(first: 1) { edges { node { ...F } } } } fragment F on ResourceProvider { uuid }',
      want: {
        message: 'The operation is nested 4 deep; the limit is 3.',
        code: 'berth.query_too_deep',
      },
    },
    {
      name: 'depth inside introspection',
      q: '{ __schema { types { fields { name } } } }',
      want: {
        message: 'The operation is nested 4 deep; the limit is 3.',
        code: 'berth.query_too_deep',
      },
    },
    {
      name: 'aliases of a fragment spread twice, __typename included',
      q: 'query Q { version { ...V } again: version { ...V } } fragment V on Version { t: __typename }',
      want: {
        message: "Operation 'Q' uses 3 aliases; the limit is 2.",
        code: 'berth.too_many_aliases',
      },
    },
    {
      name: 'directives on fields, spreads and fragments',
      q: 'query($x: Boolean!) { version @include(if: $x) { ...V @skip(if: $x) } } fragment V on Version { berth @include(if: $x) }',
      want: {
        message: 'The operation uses 3 directives; the limit is 2.',
        code: 'berth.too_many_directives',
      },
    },
  ])('returns $want.code for $name', ({ q, want }) => {
    expect(errors(q)).toEqual([want]);
  });

  it('judges each operation of a document on its own', () => {
    const q = `query Ok { a: version { berth } }
      query Many { a: version { berth } b: version { berth } c: version { berth } }`;
    expect(errors(q)).toEqual([
      {
        message: "Operation 'Many' uses 3 aliases; the limit is 2.",
        code: 'berth.too_many_aliases',
      },
    ]);
  });

  it("admits GraphiQL's full introspection query under the default limits", () => {
    const doc = parse(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
    const rules = armourLimitRules(loadConfig({ NODE_ENV: 'test' }).limits);
    expect(validate(schema, doc, rules)).toEqual([]);
  });
});
