// GraphQL armour beyond test/api/armour.test.ts: the directive limit (graphql-armor's rule under
// berth's code) and suggestions stripped from every message while introspection is closed.
import { createTestApp, type TestApp } from '../support/app';

interface Body {
  data?: unknown;
  errors?: { message: string; extensions?: { code?: string } }[];
}

async function post(t: TestApp, query: string, variables?: Record<string, unknown>) {
  const res = await t.app.graphql.fetch('http://berth.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

const messages = (b: Body) => (b.errors ?? []).map((e) => e.message);

/** Misspellings graphql-js answers with "Did you mean …?" during validation. */
const MISSPELT = `{
  resourceProviders(frist: 1) { totalCount }
  allocationCandidates(request: {groups: [], groupPolicy: NON}) { providerSummaries { traits } }
}`;

describe('GraphQL directive limit', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ BERTH_GRAPHQL_MAX_DIRECTIVES: '2', BERTH_GRAPHQL_MAX_ALIASES: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts an operation with as many directives as the limit', async () => {
    const r = await post(t, '{ version @include(if: true) { berth @skip(if: false) } }');
    expect(r.body).toEqual({ data: { version: { berth: expect.any(String) } } });
  });

  it('returns berth.too_many_directives over the limit, counted through fragments', async () => {
    const r = await post(
      t,
      `query V { version @include(if: true) { ...F @skip(if: false) } }
       fragment F on Version { berth @include(if: true) }`,
    );
    expect(r.body).toEqual({
      errors: [
        {
          message: "Operation 'V' uses 3 directives; the limit is 2.",
          locations: [{ line: 1, column: 1 }],
          extensions: { code: 'berth.too_many_directives' },
        },
      ],
    });
  });

  it('answers with the same HTTP status as the other armour limits', async () => {
    const directives = await post(
      t,
      '{ version @skip(if: false) @include(if: true) { berth @skip(if: false) } }',
    );
    const aliases = await post(t, '{ v: version { berth } }');
    expect(aliases.body.errors?.[0]?.extensions?.code).toBe('berth.too_many_aliases');
    expect(directives.status).toBe(aliases.status);
  });
});

describe('GraphQL suggestions', () => {
  let closed: TestApp;
  let open: TestApp;

  beforeAll(async () => {
    closed = await createTestApp({ BERTH_INTROSPECTION: 'off' });
    open = await createTestApp({ BERTH_INTROSPECTION: 'on' });
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
  });

  it('strips argument and enum-literal suggestions when introspection is off', async () => {
    const r = await post(closed, MISSPELT);
    expect(messages(r.body)).toEqual([
      'Unknown argument "frist" on field "Query.resourceProviders".',
      'Value "NON" does not exist in "GroupPolicy" enum.',
    ]);
    expect(r.body.errors?.map((e) => e.extensions?.code)).toEqual([
      'GRAPHQL_VALIDATION_FAILED',
      'GRAPHQL_VALIDATION_FAILED',
    ]);
  });

  it('keeps suggestions for GraphiQL when introspection is on', async () => {
    const r = await post(open, MISSPELT);
    expect(messages(r.body)).toEqual([
      'Unknown argument "frist" on field "Query.resourceProviders". Did you mean "first"?',
      'Value "NON" does not exist in "GroupPolicy" enum. Did you mean the enum value "NONE"?',
    ]);
  });
});
