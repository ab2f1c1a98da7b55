// The candidate service answers from its in-memory index and stays current: at once for this
// replica's writes, through NOTIFY for another replica's (tests/functional/db/test_allocation_candidates.py).
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import { startChangeListener } from '../../src/db/change-listener';
import { createLogger } from '../../src/observability/logger';
import { ChangeBus } from '../../src/placement/change-bus';
import { createTestDb, onEmbedded, type TestDb, testDatabaseUrl } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';

const group = (resources: Record<string, number>) => ({
  suffix: '',
  resources,
  requiredTraits: [],
  forbiddenTraits: [],
  memberOf: [],
  forbiddenAggregates: [],
});

async function waitFor(pred: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) {
      throw new Error('timed out waiting for the change');
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('candidate service', () => {
  let db: TestDb;
  let s: Services;
  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`));
  });
  afterAll(async () => {
    await db.drop();
  });

  it('sees this replica’s writes immediately', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    const before = await s.candidates.find({ groups: [group({ VCPU: 3 })] });
    expect(before.allocationRequests).toEqual([
      {
        allocations: [{ providerUuid: rp.uuid, resources: { VCPU: 3 } }],
        mappings: { '': [rp.uuid] },
      },
    ]);
    await s.allocations.set([claim(rp.uuid, { VCPU: 2 })]);
    expect((await s.candidates.find({ groups: [group({ VCPU: 3 })] })).allocationRequests).toEqual(
      [],
    );
    const summary = (await s.candidates.find({ groups: [group({ VCPU: 2 })] }))
      .providerSummaries[0];
    expect(summary?.resources).toEqual([{ resourceClass: 'VCPU', capacity: 4, used: 2 }]);
    await s.providers.delete((await buildResourceProvider(s)).uuid);
  });

  it('rejects unknown resource classes, and learns new custom ones', async () => {
    await expect(s.candidates.find({ groups: [group({ CUSTOM_MAGIC: 1 })] })).rejects.toMatchObject(
      { status: 400 },
    );
    await s.resourceClasses.create('CUSTOM_MAGIC');
    await expect(s.candidates.find({ groups: [group({ CUSTOM_MAGIC: 1 })] })).resolves.toEqual({
      allocationRequests: [],
      providerSummaries: [],
    });
  });

  // Cross-replica NOTIFY needs real PostgreSQL (DATABASE_URL): skipped visibly on PGlite.
  (onEmbedded() ? it.skip : it)('hears another replica’s writes through NOTIFY', async () => {
    const busB = new ChangeBus(`berth_changes_${db.schema}`);
    const replicaB = createServices(db.dataSource, busB);
    const listener = startChangeListener(testDatabaseUrl(), busB, createLogger('silent'));
    try {
      await waitFor(async () => listener.connected());
      const name = `remote-${randomUUID()}`;
      await replicaB.candidates.find({ groups: [group({ VCPU: 1 })] });
      const rp = await buildResourceProvider(s, {
        name,
        inventories: [{ resourceClass: 'VCPU', total: 2 }],
      });
      await waitFor(async () =>
        (await replicaB.candidates.find({ groups: [group({ VCPU: 2 })] })).allocationRequests.some(
          (r) => r.allocations.some((a) => a.providerUuid === rp.uuid),
        ),
      );
      expect(replicaB.candidates.stats.fullLoads).toBe(1);
    } finally {
      await listener.stop();
    }
  });
});
