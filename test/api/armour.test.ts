// GraphQL armour and request limits: depth, aliases, tokens, static cost, introspection switch and
// body size (413 on GraphQL and REST, declared and chunked), each with a stable error code. Rate
// limits: test/api/rate-limit.test.ts.
import type { Server } from 'node:http';
import { createTestApp, type TestApp } from '../support/app';
import { closeServer, listen } from '../support/rest';

async function post(t: TestApp, query: string, headers: Record<string, string> = {}) {
  const res = await t.app.graphql.fetch('http://berth.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as {
    data?: unknown;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
  return { status: res.status, headers: res.headers, body };
}

describe('GraphQL armour', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      BERTH_GRAPHQL_MAX_DEPTH: '4',
      BERTH_GRAPHQL_MAX_ALIASES: '2',
      BERTH_GRAPHQL_MAX_TOKENS: '120',
      BERTH_GRAPHQL_MAX_COST: '500',
      BERTH_INTROSPECTION: 'off',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts an operation within every limit', async () => {
    const r = await post(t, '{ a: resourceClasses { name } b: version { berth } }');
    expect(r.body.errors).toBeUndefined();
  });

  it('returns berth.query_too_deep when nesting exceeds the limit (through fragments)', async () => {
    const r = await post(
      t,
      `{ resourceProviders(first: 1) { edges { node { ...F } } } }
       fragment F on ResourceProvider { parent { uuid } }`,
    );
    expect(r.body.errors?.map((e) => e.extensions?.code)).toEqual(['berth.query_too_deep']);
    expect(r.body.errors?.[0]?.message).toBe('The operation is nested 5 deep; the limit is 4.');
    expect(r.body.data).toBeUndefined();
  });

  it('returns berth.too_many_aliases over the alias limit', async () => {
    const r = await post(t, '{ a: version { berth } b: version { berth } c: version { berth } }');
    expect(r.body.errors?.map((e) => e.extensions?.code)).toEqual(['berth.too_many_aliases']);
  });

  it('returns a syntax error over the token limit', async () => {
    const r = await post(t, `{ ${'version { berth } '.repeat(40)} }`);
    expect(r.body.errors?.[0]?.message).toMatch(/more tha[nt] 120 tokens/);
    expect(r.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('returns berth.query_too_costly when first × nested fields exceeds the cost limit', async () => {
    const big = await post(t, '{ resourceProviders(first: 1000) { edges { node { uuid } } } }');
    expect(big.body.errors?.map((e) => e.extensions?.code)).toEqual(['berth.query_too_costly']);
    expect(big.body.errors?.[0]?.message).toMatch(/estimated cost of 4000; the limit is 500/);
    const small = await post(t, '{ resourceProviders(first: 10) { edges { node { uuid } } } }');
    expect(small.body.errors).toBeUndefined();
  });

  it('refuses introspection when BERTH_INTROSPECTION=off', async () => {
    const r = await post(t, '{ __schema { queryType { name } } }');
    expect(r.body.errors?.[0]?.message).toMatch(/introspection/i);
    expect(r.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('suggests no schema names when introspection is off', async () => {
    const fields = await post(t, '{ resourceProvider(uuid: "x") { uuidd } resourceClas { name } }');
    const variables = await t.app.graphql.fetch('http://berth.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'query($p: GroupPolicy!) { allocationCandidates(request: {groups: [], groupPolicy: $p}) { providerSummaries { traits } } }',
        variables: { p: 'NON' },
      }),
    });
    const messages = [
      ...(fields.body.errors ?? []),
      ...(((await variables.json()) as { errors?: { message: string }[] }).errors ?? []),
    ].map((e) => e.message);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toBe('Cannot query field "uuidd" on type "ResourceProvider".');
    expect(messages.join('\n')).not.toMatch(/Did you mean|"uuid"|resourceClasses|NONE/);
  });
});

describe('request body limit', () => {
  let t: TestApp;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ BERTH_MAX_BODY_BYTES: '2048', BERTH_REST_AUTH: 'noauth2' });
    ({ server, base } = await listen((req, res) => t.app.handle(req, res)));
  });
  afterAll(async () => {
    await closeServer(server);
    await t.close();
  });

  const padded = (n: number) =>
    JSON.stringify({ query: '{ version { berth } }', variables: { pad: 'x'.repeat(n) } });

  it('serves a GraphQL body under the limit', async () => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: padded(1000),
    });
    expect(res.status).toBe(200);
  });

  it('returns 413 berth.request_too_large for a GraphQL body over the limit', async () => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: padded(5000),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      errors: [
        {
          message: 'Request body is larger than the limit of 2048 bytes (BERTH_MAX_BODY_BYTES).',
          extensions: { code: 'berth.request_too_large' },
        },
      ],
    });
  });

  it('returns 413 for a chunked GraphQL body (no content-length) over the limit', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1024));
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 4; i++) {
          c.enqueue(chunk);
        }
        c.close();
      },
    });
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('returns 413 in Placement’s error body for a REST body over the limit', async () => {
    const res = await fetch(`${base}/placement/resource_providers`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-auth-token': 'admin',
      },
      body: JSON.stringify({ name: 'x'.repeat(5000) }),
    });
    expect(res.status).toBe(413);
    const body = (await res.json()) as { errors: { status: number; detail: string }[] };
    expect(body.errors[0]?.status).toBe(413);
    expect(body.errors[0]?.detail).toContain('BERTH_MAX_BODY_BYTES');
  });
});
