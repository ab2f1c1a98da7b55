// Capacity rollups (GraphQL capacity, Aggregate.capacity, ResourceProvider.treeCapacity, ordering
// by utilisation, name search) against a brute-force SQL sum over the same data, on random worlds.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { gql } from '../support/graphql';

const CLASSES = ['VCPU', 'MEMORY_MB', 'DISK_GB'] as const;

interface Line {
  resourceClass: string;
  total: number;
  reserved: number;
  capacity: number;
  used: number;
  free: number;
  providers: number;
}

const inventoryArb = fc.record({
  resourceClass: fc.constantFrom(...CLASSES),
  total: fc.integer({ min: 1, max: 5000 }),
  reservedPart: fc.double({ min: 0, max: 0.5, noNaN: true }),
  ratio: fc.constantFrom(1, 1.5, 16),
  usedPart: fc.double({ min: 0, max: 1, noNaN: true }),
});
const providerArb = fc.record({
  inventories: fc.uniqueArray(inventoryArb, { selector: (i) => i.resourceClass, maxLength: 3 }),
  inAggregate: fc.boolean(),
  tagged: fc.boolean(),
});
const worldArb = fc.array(
  fc.record({ root: providerArb, children: fc.array(providerArb, { maxLength: 3 }) }),
  { minLength: 1, maxLength: 4 },
);

type Of<A> = A extends fc.Arbitrary<infer T> ? T : never;
type World = Of<typeof worldArb>;
type Provider = Of<typeof providerArb>;

describe('capacity rollups', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.services.traits.create('CUSTOM_ROLLUP');
  });
  afterAll(async () => {
    await t.close();
  });

  /** Builds one random world in its own aggregate; returns the aggregate and the root uuids. */
  async function build(world: World) {
    const agg = randomUUID();
    const roots: string[] = [];
    const make = async (p: Provider, parentUuid?: string) => {
      const rp = await buildResourceProvider(t.app.services, {
        parentUuid,
        inventories: p.inventories.map((i) => ({
          resourceClass: i.resourceClass,
          total: i.total,
          reserved: Math.floor(i.total * i.reservedPart),
          allocationRatio: i.ratio,
        })),
        traits: p.tagged ? ['CUSTOM_ROLLUP'] : [],
        aggregates: p.inAggregate ? [agg] : [],
      });
      const resources: Record<string, number> = {};
      for (const i of p.inventories) {
        const used = Math.floor(
          Math.min(i.total, i.total - Math.floor(i.total * i.reservedPart)) * i.usedPart,
        );
        if (used > 0) {
          resources[i.resourceClass] = used;
        }
      }
      if (Object.keys(resources).length > 0) {
        await t.app.services.allocations.set([claim(rp.uuid, resources)]);
      }
      return rp.uuid;
    };
    for (const tree of world) {
      const root = await make(tree.root);
      roots.push(root);
      for (const child of tree.children) {
        await make(child, root);
      }
    }
    return { agg, roots };
  }

  /** Brute force: per class sums over the providers `where` selects (SQL over alias rp). */
  async function bruteForce(where: string, params: unknown[]): Promise<Line[]> {
    const rows: Record<string, string>[] = await t.app.dataSource.query(
      `WITH u AS (SELECT resource_provider_id, resource_class_id, sum(used) AS used
                  FROM allocations GROUP BY 1, 2),
            inv AS (
              SELECT rc.name, i.total, i.reserved,
                     floor((i.total - i.reserved) * i.allocation_ratio) AS cap,
                     coalesce(u.used, 0) AS used
              FROM inventories i
              JOIN resource_providers rp ON rp.id = i.resource_provider_id
              JOIN resource_classes rc ON rc.id = i.resource_class_id
              LEFT JOIN u ON u.resource_provider_id = i.resource_provider_id
                         AND u.resource_class_id = i.resource_class_id
              WHERE ${where})
       SELECT name, sum(total) AS total, sum(reserved) AS reserved, sum(cap) AS capacity,
              sum(used) AS used, sum(greatest(cap - used, 0)) AS free, count(*) AS providers
       FROM inv GROUP BY name ORDER BY name`,
      params,
    );
    return rows.map((r) => ({
      resourceClass: r.name!,
      total: Number(r.total),
      reserved: Number(r.reserved),
      capacity: Number(r.capacity),
      used: Number(r.used),
      free: Number(r.free),
      providers: Number(r.providers),
    }));
  }

  const LINE = 'resourceClass total reserved capacity used free providers utilisation';
  const strip = (lines: (Line & { utilisation: number })[]) =>
    lines.map(({ utilisation, ...l }) => {
      expect(utilisation).toBeCloseTo(l.capacity > 0 ? l.used / l.capacity : 0, 10);
      return l;
    });
  const inAgg = `EXISTS (SELECT 1 FROM resource_provider_aggregates rpa
     JOIN placement_aggregates a ON a.id = rpa.aggregate_id
     WHERE rpa.resource_provider_id = rp.id AND a.uuid = $1::uuid)`;
  const tagged = `EXISTS (SELECT 1 FROM resource_provider_traits rpt JOIN traits tr
     ON tr.id = rpt.trait_id WHERE rpt.resource_provider_id = rp.id AND tr.name = 'CUSTOM_ROLLUP')`;

  it('equals a brute-force sum: filtered, per aggregate, per tree', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (world) => {
        const { agg, roots } = await build(world);
        const r = await gql(
          t.app,
          `query($agg: String!, $a: ID!) {
            all: capacity(filter: { memberOf: [$agg] }) { providerCount lines { ${LINE} } }
            tagged: capacity(filter: { memberOf: [$agg], required: ["CUSTOM_ROLLUP"] }) { lines { ${LINE} } }
            byAgg: capacity(filter: { memberOf: [$agg] }, groupBy: AGGREGATE) { aggregateUuid lines { ${LINE} } }
            aggregate(uuid: $a) { capacity { ${LINE} } }
          }`,
          { agg, a: agg },
        );
        expect(r.errors).toBeUndefined();
        const want = await bruteForce(inAgg, [agg]);
        expect(strip(r.data.all[0].lines)).toEqual(want);
        expect(strip(r.data.tagged[0].lines)).toEqual(
          await bruteForce(`${inAgg} AND ${tagged}`, [agg]),
        );
        const own = r.data.byAgg.filter((g: { aggregateUuid: string }) => g.aggregateUuid === agg);
        expect(own.length === 0 ? [] : strip(own[0].lines)).toEqual(want);
        expect(r.data.aggregate === null ? [] : strip(r.data.aggregate.capacity)).toEqual(want);

        for (const root of roots) {
          const tree = await gql(
            t.app,
            `query($u: ID!) {
              resourceProvider(uuid: $u) { treeCapacity { ${LINE} } }
              capacity(filter: { inTree: $u }, groupBy: ROOT) { root { uuid } lines { ${LINE} } }
            }`,
            { u: root },
          );
          const wantTree = await bruteForce(
            'rp.root_provider_id = (SELECT id FROM resource_providers WHERE uuid = $1::uuid)',
            [root],
          );
          expect(strip(tree.data.resourceProvider.treeCapacity)).toEqual(wantTree);
          expect(tree.data.capacity).toHaveLength(1);
          expect(tree.data.capacity[0].root.uuid).toBe(root);
          expect(strip(tree.data.capacity[0].lines)).toEqual(wantTree);
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('orders providers by utilisation and searches names', async () => {
    const tag = `rank-${randomUUID().slice(0, 8)}`;
    const used = [10, 90, 50, 70];
    for (const [i, u] of used.entries()) {
      const rp = await buildResourceProvider(t.app.services, {
        name: `${tag}-Host-${i}`,
        inventories: [{ resourceClass: 'MEMORY_MB', total: 100 }],
      });
      await t.app.services.allocations.set([claim(rp.uuid, { MEMORY_MB: u })]);
    }
    const page = async (direction: string, after?: string) =>
      (
        await gql(
          t.app,
          `query($f: ResourceProviderFilter, $d: SortDirection, $after: String) {
            resourceProviders(filter: $f, first: 3, after: $after,
              orderBy: { utilisationOf: "MEMORY_MB", direction: $d }) {
              edges { node { name } } pageInfo { hasNextPage endCursor } } }`,
          { f: { nameContains: tag.toUpperCase() }, d: direction, after },
        )
      ).data.resourceProviders;
    const first = await page('DESC');
    expect(first.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual([
      `${tag}-Host-1`,
      `${tag}-Host-3`,
      `${tag}-Host-2`,
    ]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await page('DESC', first.pageInfo.endCursor);
    expect(second.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual([
      `${tag}-Host-0`,
    ]);
    expect(second.pageInfo.hasNextPage).toBe(false);
    const asc = await page('ASC');
    expect(asc.edges[0].node.name).toBe(`${tag}-Host-0`);
    const plain = await gql(
      t.app,
      `query($f: ResourceProviderFilter) { resourceProviders(filter: $f) { edges { node { name } } } }`,
      { f: { nameContains: `${tag}-host-` } },
    );
    expect(plain.data.resourceProviders.edges).toHaveLength(4);
  });

  it('answers unknown traits and classes with Placement’s 400 codes', async () => {
    const r = await gql(
      t.app,
      '{ capacity(filter: { required: ["CUSTOM_NOPE"] }) { providerCount } }',
    );
    expect(r.errors?.[0]?.message).toBe('No such trait(s): CUSTOM_NOPE.');
    const o = await gql(
      t.app,
      '{ resourceProviders(orderBy: { utilisationOf: "CUSTOM_NOPE" }) { edges { cursor } } }',
    );
    expect(o.errors?.[0]?.message).toBe('No such resource class CUSTOM_NOPE.');
  });
});
