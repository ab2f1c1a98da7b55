// GraphQL importPlacement: the twin of `berth import placement` (admin only, see the role table
// of docs/security.md walked by test/api/role-table.test.ts). A dry run, the import, an
// idempotent re-run and an unreadable source.
import { randomUUID } from 'node:crypto';
import { richFixture } from '../db/placement-import-fixture';
import { createTestApp, type TestApp } from '../support/app';
import { gql } from '../support/graphql';
import { createPostgresPlacementSource, type PlacementSourceDb } from '../support/placement-source';

const IMPORT = `mutation I($input: ImportPlacementInput!) {
  importPlacement(input: $input) {
    dryRun changed incompleteConsumers
    kinds { kind created updated unchanged overCommitted }
    overCommitted { providerUuid resourceClass used capacity }
  }
}`;

const CANDIDATES = `query C($r: AllocationCandidatesRequest!) {
  allocationCandidates(request: $r) { allocationRequests { allocations { provider { uuid } } } }
}`;

describe('importPlacement', () => {
  let t: TestApp;
  let src: PlacementSourceDb;
  let fx: ReturnType<typeof richFixture>;
  beforeAll(async () => {
    t = await createTestApp();
    src = await createPostgresPlacementSource();
    fx = richFixture(`g${randomUUID().slice(0, 6)}`);
    await src.fill(fx.fixture);
  });
  afterAll(async () => {
    await src.drop();
    await t.close();
  });

  const kind = (r: { data?: any }, k: string) =>
    r.data.importPlacement.kinds.find((x: { kind: string }) => x.kind === k);

  const candidates = (resourceClass: string) =>
    gql(t.app, CANDIDATES, {
      r: { groups: [{ resources: [{ resourceClass, amount: 1 }], memberOf: [fx.agg] }] },
    });

  it('dry-runs, imports (the running candidate index sees it), then reports nothing to change', async () => {
    const before = await candidates('VCPU'); // warms the candidate index
    expect(before.data.allocationCandidates.allocationRequests).toEqual([]);
    const dry = await gql(t.app, IMPORT, { input: { from: src.url, dryRun: true } });
    expect(dry.errors).toBeUndefined();
    expect(kind(dry, 'providers')).toMatchObject({ created: 6, unchanged: 0 });
    const run = await gql(t.app, IMPORT, { input: { from: src.url, batch: 2 } });
    expect(run.errors).toBeUndefined();
    expect(run.data.importPlacement).toMatchObject({ dryRun: false, changed: true });
    expect(kind(run, 'allocations')).toMatchObject({ created: 12 });
    expect(kind(run, 'inventories')).toMatchObject({ overCommitted: 1 });
    expect(run.data.importPlacement.overCommitted).toEqual([
      expect.objectContaining({ resourceClass: 'VCPU', used: 6, capacity: 4 }),
    ]);
    // No restart: the import announced itself on the change bus.
    const gpu = await candidates('CUSTOM_GPU');
    expect(gpu.errors).toBeUndefined();
    expect(gpu.data.allocationCandidates.allocationRequests).toEqual([
      { allocations: [{ provider: { uuid: fx.p.cn2 } }] },
    ]);
    const again = await gql(t.app, IMPORT, { input: { from: src.url } });
    expect(again.data.importPlacement.changed).toBe(false);
    expect(kind(again, 'consumers')).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
  });

  it('refuses a source with an Infinity ratio (berth.import.invalid_source, the row named, nothing written); skipInvalid imports the rest', async () => {
    const bad = await createPostgresPlacementSource();
    try {
      const [host, spare, greedy] = [randomUUID(), randomUUID(), randomUUID()];
      await bad.fill({
        providers: [
          { uuid: host, name: `inf-${host}`, inventories: { VCPU: { total: 10 } } },
          { uuid: spare, name: `spare-${spare}`, inventories: { VCPU: { total: 10 } } },
        ],
        consumers: [
          {
            uuid: greedy,
            project: 'p-inf',
            user: 'u-inf',
            allocations: [{ provider: host, resourceClass: 'VCPU', used: 50 }],
          },
        ],
      });
      await bad.query(
        "UPDATE inventories SET allocation_ratio = 'Infinity' WHERE resource_provider_id = (SELECT id FROM resource_providers WHERE uuid = ?)",
        [host],
      );
      const capacity = '{ capacity { lines { resourceClass capacity used } } }';
      const before = await gql(t.app, capacity);
      const refused = await gql(t.app, IMPORT, { input: { from: bad.url } });
      expect(refused.data).toBeNull();
      expect(refused.errors?.[0]?.extensions?.code).toBe('berth.import.invalid_source');
      // (GraphQL words: allocationRatio; the CLI says allocation_ratio.)
      expect(refused.errors?.[0]?.message).toMatch(
        /inventory id \d+ \(VCPU of provider id 1\): invalid-inventory: Bad inventory VCPU: allocationRatio must be a number greater than 0 \(got Infinity\)/,
      );
      expect(await gql(t.app, capacity)).toEqual(before);

      const skipped = await gql(
        t.app,
        `mutation I($input: ImportPlacementInput!) {
          importPlacement(input: $input) {
            kinds { kind created skipped }
            skipped { kind row rule message }
            skippedCount
          }
        }`,
        { input: { from: bad.url, skipInvalid: true } },
      );
      expect(skipped.errors).toBeUndefined();
      const summary = skipped.data.importPlacement;
      expect(summary.skippedCount).toBe(3);
      expect(summary.skipped.map((f: { kind: string; rule: string }) => [f.kind, f.rule])).toEqual([
        ['inventory', 'invalid-inventory'],
        ['provider', 'depends-on-skipped'],
        ['consumer', 'depends-on-skipped'],
      ]);
      expect(summary.kinds.find((k: { kind: string }) => k.kind === 'providers')).toEqual({
        kind: 'providers',
        created: 1,
        skipped: 1,
      });
      // The cloud-wide capacity still answers, with the spare host's 10 VCPU added, nothing used.
      const after = await gql(t.app, capacity);
      expect(after.errors).toBeUndefined();
      const vcpu = (r: typeof after) =>
        r.data.capacity[0].lines.find(
          (l: { resourceClass: string }) => l.resourceClass === 'VCPU',
        ) ?? { capacity: 0, used: 0 };
      expect(vcpu(after).capacity - vcpu(before).capacity).toBe(10);
      expect(vcpu(after).used).toBe(vcpu(before).used);
    } finally {
      await bad.drop();
    }
  });

  it('answers berth.invalid_input for a source it cannot read', async () => {
    const r = await gql(t.app, IMPORT, { input: { from: 'postgresql://u:secret@127.0.0.1:1/p' } });
    expect(r.errors?.[0]?.extensions?.code).toBe('berth.invalid_input');
    expect(r.errors?.[0]?.message).toMatch(
      /^cannot import postgresql:\/\/u:\*\*\*@127\.0\.0\.1:1\/p: /,
    );
  });
});
