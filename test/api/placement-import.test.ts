// GraphQL importPlacement: the twin of `berth import placement` (admin only, see the README role
// table walked by test/api/role-table.test.ts). A dry run, the import, an idempotent re-run and
// an unreadable source.
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

  it('answers berth.invalid_input for a source it cannot read', async () => {
    const r = await gql(t.app, IMPORT, { input: { from: 'postgresql://u:secret@127.0.0.1:1/p' } });
    expect(r.errors?.[0]?.extensions?.code).toBe('berth.invalid_input');
    expect(r.errors?.[0]?.message).toMatch(
      /^cannot import postgresql:\/\/u:\*\*\*@127\.0\.0\.1:1\/p: /,
    );
  });
});
