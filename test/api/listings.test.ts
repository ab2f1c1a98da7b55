// Listings for UIs: consumers (filtered by project, user, type, provider), projects with usage
// totals, Aggregate.members as a connection; every page costs a fixed number of statements.
import { randomUUID } from 'node:crypto';
import { allocationInput } from '../support/allocation-input';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';
import { QueryCounter } from '../support/query-counter';

describe('listings', () => {
  let t: TestApp;
  const counter = new QueryCounter();
  const agg = randomUUID();
  const hosts: string[] = [];
  const tag = `l${randomUUID().slice(0, 6)}`;

  beforeAll(async () => {
    t = await createTestApp({}, { dbLogger: counter });
    for (let i = 0; i < 4; i++) {
      hosts.push(
        (
          await buildResourceProvider(t.app.services, {
            inventories: [{ resourceClass: 'VCPU', total: 10_000 }],
            aggregates: i < 3 ? [agg] : [],
          })
        ).uuid,
      );
    }
    // 150 consumers of project A (on hosts 0-2), 30 of project B (on host 3, typed MIGRATION).
    const inputs = [
      ...Array.from({ length: 150 }, (_, i) =>
        allocationInput(hosts[i % 3]!, { VCPU: 2 }, { projectId: `${tag}-a` }),
      ),
      ...Array.from({ length: 30 }, () => ({
        ...allocationInput(hosts[3]!, { VCPU: 1 }, { projectId: `${tag}-b` }),
        consumerType: 'MIGRATION',
      })),
    ];
    const r = await gql(
      t.app,
      'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
      { i: inputs },
    );
    expect(r.errors).toBeUndefined();
  });
  afterAll(async () => {
    await t.close();
  });

  const PAGE = `query($f: ConsumerFilter, $first: Int, $after: String) {
    consumers(filter: $f, first: $first, after: $after) {
      edges { node { uuid projectId consumerType allocations { used provider { uuid name } } } }
      pageInfo { hasNextPage endCursor } } }`;

  it('pages through a project’s consumers with allocations and providers in ≤ 6 statements, whatever the page size', async () => {
    for (const first of [10, 100]) {
      const { result, queries } = await counter.count(() =>
        gql(t.app, PAGE, { f: { projectId: `${tag}-a` }, first }),
      );
      expect(result.errors).toBeUndefined();
      expect(result.data.consumers.edges).toHaveLength(first);
      expect(queries.length).toBeLessThanOrEqual(6);
    }
    const seen = new Set<string>();
    let after: string | undefined;
    do {
      const page = (await gql(t.app, PAGE, { f: { projectId: `${tag}-a` }, first: 64, after })).data
        .consumers;
      for (const e of page.edges) {
        seen.add(e.node.uuid);
      }
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : undefined;
    } while (after);
    expect(seen.size).toBe(150);
  });

  it('filters by provider (who uses this host), by type and by user', async () => {
    const onHost = await gql(t.app, PAGE, { f: { providerUuid: hosts[3] }, first: 100 });
    expect(onHost.data.consumers.edges).toHaveLength(30);
    expect(
      onHost.data.consumers.edges.every(
        (e: { node: { consumerType: string; projectId: string } }) =>
          e.node.consumerType === 'MIGRATION' && e.node.projectId === `${tag}-b`,
      ),
    ).toBe(true);
    const typed = await gql(t.app, PAGE, {
      f: { consumerType: 'MIGRATION', projectId: `${tag}-a` },
    });
    expect(typed.data.consumers.edges).toEqual([]);
    const nobody = await gql(t.app, PAGE, { f: { userId: `${tag}-nobody` } });
    expect(nobody.data.consumers.edges).toEqual([]);
    const user = await gql(t.app, PAGE, { f: { userId: 'user', projectId: `${tag}-b` } });
    expect(user.data.consumers.edges).toHaveLength(30);
    const bad = await gql(t.app, PAGE, { after: 'not-a-cursor' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('berth.invalid_input');
  });

  it('lists projects with consumer counts and usage totals', async () => {
    const all: { projectId: string; consumerCount: number; usages: unknown[] }[] = [];
    let after: string | undefined;
    do {
      const page = (
        await gql(
          t.app,
          `query($after: String) { projects(first: 1, after: $after) {
            edges { node { projectId consumerCount usages { resourceClass used } } }
            pageInfo { hasNextPage endCursor } } }`,
          { after },
        )
      ).data.projects;
      all.push(...page.edges.map((e: { node: (typeof all)[number] }) => e.node));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : undefined;
    } while (after);
    expect(all.filter((p) => p.projectId.startsWith(tag))).toEqual([
      { projectId: `${tag}-a`, consumerCount: 150, usages: [{ resourceClass: 'VCPU', used: 300 }] },
      { projectId: `${tag}-b`, consumerCount: 30, usages: [{ resourceClass: 'VCPU', used: 30 }] },
    ]);
  });

  it('counts every match across pages when totalCount is selected, and only then', async () => {
    const COUNT = `query($f: ConsumerFilter, $a: ID!) {
      consumers(filter: $f, first: 1) { totalCount edges { node { uuid } } }
      aggregate(uuid: $a) { members(first: 1) { totalCount } }
      projects(first: 1) { totalCount } }`;
    const r = await gql(t.app, COUNT, { f: { projectId: `${tag}-a` }, a: agg });
    expect(r.errors).toBeUndefined();
    expect(r.data.consumers.totalCount).toBe(150);
    expect(r.data.consumers.edges).toHaveLength(1);
    expect(r.data.aggregate.members.totalCount).toBe(3);
    // Other suites share the database: at least this suite's two projects.
    expect(r.data.projects.totalCount).toBeGreaterThanOrEqual(2);
    const onHost = await gql(t.app, COUNT, { f: { providerUuid: hosts[3] }, a: agg });
    expect(onHost.data.consumers.totalCount).toBe(30);
    const { queries: without } = await counter.count(() =>
      gql(t.app, PAGE, { f: { projectId: `${tag}-a` }, first: 5 }),
    );
    const { queries: withCount } = await counter.count(() =>
      gql(t.app, PAGE.replace('pageInfo {', 'totalCount pageInfo {'), {
        f: { projectId: `${tag}-a` },
        first: 5,
      }),
    );
    expect(withCount.length).toBe(without.length + 1);
  });

  it('pages an aggregate’s members', async () => {
    const first = await gql(
      t.app,
      `query($a: ID!) { aggregate(uuid: $a) { members(first: 2) { edges { node { uuid } } pageInfo { hasNextPage endCursor } } } }`,
      { a: agg },
    );
    const m = first.data.aggregate.members;
    expect(m.edges.map((e: { node: { uuid: string } }) => e.node.uuid)).toEqual(hosts.slice(0, 2));
    const second = await gql(
      t.app,
      `query($a: ID!, $after: String) { aggregate(uuid: $a) { members(first: 2, after: $after) { edges { node { uuid } } pageInfo { hasNextPage } } } }`,
      { a: agg, after: m.pageInfo.endCursor },
    );
    expect(second.data.aggregate.members).toEqual({
      edges: [{ node: { uuid: hosts[2] } }],
      pageInfo: { hasNextPage: false },
    });
  });
});
