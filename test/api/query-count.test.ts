// No N+1: a dashboard query over 500 providers (inventories with used/capacity, usages, traits,
// aggregates, parent, root, children) and an allocation/consumer/aggregate walk run in a bounded
// number of SQL round trips, independent of how many providers they cover.
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { gql } from '../support/graphql';
import { QueryCounter } from '../support/query-counter';

const DASHBOARD = `query Dashboard($first: Int) {
  resourceProviders(first: $first) {
    edges { node {
      uuid name generation
      inventories { resourceClass total reserved allocationRatio capacity used }
      usages { resourceClass used }
      traits
      aggregates { uuid name metadata { key value } }
      parent { uuid name }
      root { uuid }
      children { uuid name }
    } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const ALLOCATIONS = `query Allocations($first: Int) {
  resourceProviders(first: $first) {
    edges { node {
      uuid
      allocations { used resourceClass consumer { uuid generation allocations { provider { name } used } } }
      aggregates { providers { uuid } }
    } }
  }
}`;

/** The most SQL statements one dashboard request may issue. */
const MAX_ROUND_TRIPS = 10;

const ROOTS = 100;
const CHILDREN_PER_ROOT = 4;

type DashNode = {
  uuid: string;
  inventories: { resourceClass: string; capacity: number; used: number }[];
  traits: string[];
  aggregates: { uuid: string; name: string | null }[];
  parent: { uuid: string } | null;
  root: { uuid: string };
  children: { uuid: string }[];
};

describe('query count', () => {
  const counter = new QueryCounter();
  let t: TestApp;
  const aggregates = Array.from({ length: 10 }, () => randomUUID());
  const childrenOf = new Map<string, string[]>();
  beforeAll(async () => {
    // The Allocations walk is priced at millions by the static estimate (a provider's allocations
    // count as 200, an aggregate's providers as 1000); it is lifted here: this suite counts
    // round trips, not cost.
    t = await createTestApp({ BERTH_GRAPHQL_MAX_COST: '100000000' }, { dbLogger: counter });
    const s = t.app.services;
    for (const [i, agg] of aggregates.entries()) {
      await s.aggregates.setMetadata(agg, `agg-${i}`, [{ key: 'i', value: String(i) }]);
    }
    for (let r = 0; r < ROOTS; r += 1) {
      const root = await buildResourceProvider(s, {
        name: `host-${r}`,
        inventories: [
          { resourceClass: 'VCPU', total: 16, allocationRatio: 4 },
          { resourceClass: 'MEMORY_MB', total: 65536, reserved: 512 },
        ],
        traits: ['HW_CPU_X86_AVX2', r % 2 === 0 ? 'COMPUTE_STATUS_DISABLED' : 'STORAGE_DISK_SSD'],
        aggregates: [aggregates[r % aggregates.length]!],
      });
      await s.allocations.set([claim(root.uuid, { VCPU: (r % 8) + 1 })]);
      const kids: string[] = [];
      for (let c = 0; c < CHILDREN_PER_ROOT; c += 1) {
        const child = await buildResourceProvider(s, {
          name: `host-${r}-numa-${c}`,
          parentUuid: root.uuid,
          inventories: [{ resourceClass: 'PCPU', total: 8 }],
        });
        kids.push(child.uuid);
      }
      childrenOf.set(root.uuid, kids);
    }
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  async function run(query: string, first: number) {
    const { result, queries } = await counter.count(() => gql(t.app, query, { first }));
    expect(result.errors).toBeUndefined();
    return {
      nodes: result.data.resourceProviders.edges.map((e: { node: unknown }) => e.node),
      queries,
    };
  }

  it('serves the 500-provider dashboard in a bounded number of round trips', async () => {
    const small = await run(DASHBOARD, 50);
    const large = await run(DASHBOARD, ROOTS * (1 + CHILDREN_PER_ROOT));
    expect(large.nodes).toHaveLength(500);
    process.stdout.write(
      `[berth tests] dashboard over 500 providers: ${large.queries.length} SQL statements\n`,
    );
    expect(large.queries.length).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
    // Ten times the providers, no more round trips.
    expect(large.queries.length).toBeLessThanOrEqual(small.queries.length);

    // The batched answers are the right ones, not just few.
    const nodes = large.nodes as DashNode[];
    const roots = nodes.filter((n) => n.parent === null);
    expect(roots).toHaveLength(ROOTS);
    for (const [i, root] of roots.entries()) {
      expect(root.children.map((c) => c.uuid)).toEqual(childrenOf.get(root.uuid));
      expect(root.inventories).toEqual([
        expect.objectContaining({ resourceClass: 'VCPU', capacity: 64, used: (i % 8) + 1 }),
        expect.objectContaining({ resourceClass: 'MEMORY_MB', capacity: 65024, used: 0 }),
      ]);
      expect(root.aggregates).toEqual([
        {
          uuid: aggregates[i % aggregates.length],
          name: `agg-${i % aggregates.length}`,
          metadata: [{ key: 'i', value: String(i % aggregates.length) }],
        },
      ]);
      expect(root.traits).toContain('HW_CPU_X86_AVX2');
    }
    for (const child of nodes.filter((n) => n.parent !== null)) {
      expect(child.root).toEqual({ uuid: child.parent!.uuid });
      expect(childrenOf.get(child.parent!.uuid)).toContain(child.uuid);
      expect(child.children).toEqual([]);
    }
  });

  it('walks allocations, consumers and aggregate members in a bounded number of round trips', async () => {
    const small = await run(ALLOCATIONS, 50);
    const large = await run(ALLOCATIONS, 500);
    expect(large.queries.length).toBeLessThanOrEqual(MAX_ROUND_TRIPS);
    // The small page may need one more: aggregate members outside the page are not cached yet.
    expect(large.queries.length).toBeLessThanOrEqual(small.queries.length);
    const withAllocations = (large.nodes as { allocations: unknown[] }[]).filter(
      (n) => n.allocations.length > 0,
    );
    expect(withAllocations).toHaveLength(ROOTS);
  });
});
