// GraphQL resourceProviders cursor pagination: page size limits, stable opaque cursors.
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { firstError, type GqlResponse, gql } from '../support/graphql';

const LIST = `query L($first: Int, $after: String) {
  resourceProviders(first: $first, after: $after) {
    edges { cursor node { uuid } }
    pageInfo { hasNextPage endCursor }
  }
}`;

type Node = { uuid: string };

describe('resourceProviders pagination', () => {
  let t: TestApp;
  let created: { uuid: string }[];
  beforeAll(async () => {
    t = await createTestApp();
    created = [];
    for (let i = 0; i < 105; i += 1) {
      created.push(await buildResourceProvider(t.app.services, { name: `page-${i}` }));
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const page = (first?: number, after?: string) => gql(t.app, LIST, { first, after });
  const uuids = (r: GqlResponse) =>
    r.data.resourceProviders.edges.map((e: { node: Node }) => e.node.uuid);

  it('returns 100 providers by default, in creation order, then the rest after endCursor', async () => {
    const one = await page();
    expect(uuids(one)).toEqual(created.slice(0, 100).map((p) => p.uuid));
    expect(one.data.resourceProviders.pageInfo).toEqual({
      hasNextPage: true,
      endCursor: one.data.resourceProviders.edges[99].cursor,
    });
    const two = await page(undefined, one.data.resourceProviders.pageInfo.endCursor);
    expect(uuids(two)).toEqual(created.slice(100).map((p) => p.uuid));
    expect(two.data.resourceProviders.pageInfo).toEqual({
      hasNextPage: false,
      endCursor: two.data.resourceProviders.edges[4].cursor,
    });
  });

  it('counts all matching providers in totalCount, filtered or ranked', async () => {
    const r = await gql(
      t.app,
      `{ all: resourceProviders(first: 2) { totalCount }
         named: resourceProviders(first: 2, filter: { nameContains: "page-10" }) { totalCount }
         ranked: resourceProviders(first: 2, orderBy: { utilisationOf: "VCPU" }) { totalCount } }`,
    );
    expect(r.errors).toBeUndefined();
    // page-10 and page-100 … page-104; the ranking holds providers with VCPU inventory (none).
    expect(r.data).toEqual({
      all: { totalCount: 105 },
      named: { totalCount: 6 },
      ranked: { totalCount: 0 },
    });
  });

  it('walks every provider exactly once with small pages', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const r = await page(7, after);
      seen.push(...uuids(r));
      if (!r.data.resourceProviders.pageInfo.hasNextPage) {
        break;
      }
      after = r.data.resourceProviders.pageInfo.endCursor;
    }
    expect(seen).toEqual(created.map((p) => p.uuid));
  });

  it('keeps a cursor valid after its provider is deleted', async () => {
    const first = await page(3);
    const cursor = first.data.resourceProviders.pageInfo.endCursor;
    const r1 = await page(2, cursor);
    await gql(t.app, 'mutation D($u: ID!) { deleteResourceProvider(uuid: $u) }', {
      u: created[2]!.uuid,
    });
    const r2 = await page(2, cursor);
    expect(uuids(r2)).toEqual(uuids(r1));
    expect(uuids(r2)).toEqual([created[3]!.uuid, created[4]!.uuid]);
    created.splice(2, 1);
  });

  it('returns an empty page with hasNextPage when first is 0', async () => {
    const r = await page(0);
    expect(r.data.resourceProviders).toEqual({
      edges: [],
      pageInfo: { hasNextPage: true, endCursor: null },
    });
  });

  it('accepts first up to 1000 and rejects more or a negative size', async () => {
    expect(uuids(await page(1000))).toHaveLength(created.length);
    for (const first of [1001, -1]) {
      const r = await page(first);
      expect(r.data).toBeNull();
      expect(firstError(r)).toMatchObject({ code: 'berth.invalid_input', status: 400 });
    }
  });

  it('rejects a cursor it did not make', async () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    for (const after of [
      'nope',
      b64('ResourceProvider:x'),
      b64('ResourceProvider:-1'),
      b64('Trait:1'),
    ]) {
      const r = await page(5, after);
      expect(firstError(r)).toMatchObject({ code: 'berth.invalid_input', status: 400 });
    }
  });
});
