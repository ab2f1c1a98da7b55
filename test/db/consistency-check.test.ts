// `berth check`'s audit (src/placement/consistency/): a database built through berth's own
// services passes every check; each anomaly planted with raw SQL is flagged by exactly its check,
// with the right example uuid, and the check passes again once the anomaly is undone. Anomalies the
// schema's foreign keys forbid are planted with `SET LOCAL session_replication_role = replica`
// (which skips foreign-key triggers for that transaction only); no constraint is dropped.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { createServices, type Services } from '../../src/app/services';
import { ChangeBus } from '../../src/placement/change-bus';
import { ClaimService } from '../../src/placement/claims';
import { CONSISTENCY_CHECKS } from '../../src/placement/consistency/checks';
import { runConsistencyChecks } from '../../src/placement/consistency/run-checks';
import { createTestDb, type TestDb } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';
import { deleteRowsUndoably, withoutForeignKeys } from '../support/planting';

type Planted = { subjects: string[]; undo: () => Promise<void> };

describe('consistency check', () => {
  let db: TestDb;
  let s: Services;
  // Fixture: host A (VCPU, MEMORY_MB) with child C (SRIOV_NET_VF), host B (VCPU), spare E
  // (DISK_GB, unused); c1 on A and C, c2 alone in project p-lonely on B, m moving A -> B,
  // g on B as the member of an anti-affinity group.
  const f = {} as Record<'a' | 'b' | 'c' | 'e' | 'c1' | 'c2' | 'm' | 'g' | 'group', string>;
  const ids = {} as Record<'a' | 'b' | 'c', number>;

  const q = (sql: string, params: unknown[] = []) => db.dataSource.query(sql, params);
  const bypassingForeignKeys = (fn: (em: EntityManager) => Promise<unknown>) =>
    withoutForeignKeys(db.dataSource, fn);
  const deleteRows = (
    table: string,
    where: string,
    params: unknown[],
    opts: { bypass?: boolean } = {},
  ) => deleteRowsUndoably(db.dataSource, table, where, params, opts);
  const idOf = (uuid: string) => `(SELECT id FROM resource_providers WHERE uuid = '${uuid}')`;
  const consumerId = (uuid: string) => `(SELECT id FROM consumers WHERE uuid = '${uuid}')`;
  const generationOf = async (uuid: string) => (await s.providers.get(uuid)).generation;

  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`));
    const claims = new ClaimService(db.dataSource, s.changes, s.allocations, s.providers);
    const a = await buildResourceProvider(s, {
      inventories: [
        { resourceClass: 'VCPU', total: 8 },
        { resourceClass: 'MEMORY_MB', total: 4096 },
      ],
    });
    const c = await buildResourceProvider(s, {
      parentUuid: a.uuid,
      inventories: [{ resourceClass: 'SRIOV_NET_VF', total: 4 }],
    });
    const b = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const e = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'DISK_GB', total: 100 }],
    });
    Object.assign(f, { a: a.uuid, b: b.uuid, c: c.uuid, e: e.uuid });
    Object.assign(ids, { a: a.id, b: b.id, c: c.id });
    const c1 = claim(a.uuid, { VCPU: 2, MEMORY_MB: 512 });
    await s.allocations.set([
      {
        ...c1,
        allocations: [...c1.allocations, { providerUuid: c.uuid, resources: { SRIOV_NET_VF: 1 } }],
      },
      { ...claim(b.uuid, { VCPU: 1 }), projectId: 'p-lonely' },
    ]);
    f.c1 = c1.consumerUuid;
    f.c2 = (await q('SELECT uuid FROM consumers WHERE uuid <> $1', [f.c1]))[0].uuid;
    const group = await s.serverGroups.create({
      name: 'g',
      projectId: 'proj',
      userId: 'user',
      policy: 'anti-affinity',
    });
    f.group = group.uuid;
    const onHost = (host: string, consumerUuid: string, serverGroup?: string) => ({
      consumerUuid,
      projectId: 'proj',
      userId: 'user',
      consumerType: 'INSTANCE',
      hostUuid: host,
      allocations: [{ providerUuid: host, resources: { VCPU: 2 } }],
      ...(serverGroup ? { serverGroup } : {}),
    });
    f.m = randomUUID();
    await claims.claim(onHost(a.uuid, f.m));
    expect((await claims.claim(onHost(b.uuid, f.m))).moved).toBe(true);
    f.g = randomUUID();
    await claims.claim(onHost(b.uuid, f.g, group.uuid));
  });
  afterAll(async () => {
    await db.drop();
  });

  const failing = async () =>
    (await runConsistencyChecks(db.dataSource)).checks
      .filter((c) => !c.ok)
      .map((c) => ({ check: c.check, examples: c.examples }));

  it('passes every check on a database written through the services', async () => {
    const report = await runConsistencyChecks(db.dataSource);
    expect(report.status).toBe('ok');
    expect(report.checks.map((c) => c.check)).toEqual([
      'schema-migrated',
      ...CONSISTENCY_CHECKS.map((c) => c.name),
    ]);
    expect(report.checks.every((c) => c.ok && c.count === 0 && c.examples.length === 0)).toBe(true);
    // The fixture really holds what the checks look at: a move and a group member.
    expect(
      await q(`SELECT (SELECT count(*) FROM consumer_moves)::int AS moves,
        (SELECT count(*) FROM server_group_members)::int AS members`),
    ).toEqual([{ moves: 1, members: 1 }]);
  });

  it('reports only the pending migration when the schema is behind', async () => {
    const undo = await deleteRows('berth_migrations', 'name = $1', ['ServerGroups1764200000000']);
    try {
      const report = await runConsistencyChecks(db.dataSource);
      expect(report.status).toBe('problem');
      expect(report.checks).toEqual([
        expect.objectContaining({
          check: 'schema-migrated',
          ok: false,
          count: 1,
          examples: ['ServerGroups1764200000000'],
        }),
      ]);
    } finally {
      await undo();
    }
  });

  const cases: { check: string; how: string; plant: () => Promise<Planted> }[] = [
    {
      check: 'usage-over-capacity',
      how: 'an inventory lowered below usage as the REST facade allows (Placement behaviour)',
      plant: async () => {
        const lower = (vcpu: number) =>
          generationOf(f.a).then((gen) =>
            s.inventories.setAll(
              f.a,
              gen,
              [
                { resourceClass: 'VCPU', total: vcpu },
                { resourceClass: 'MEMORY_MB', total: 4096 },
              ],
              { allowCapacityBelowUsage: true },
            ),
          );
        await lower(3); // c1 2 + m's source 2 = 4 > 3
        return { subjects: [f.a], undo: () => lower(8).then(() => undefined) };
      },
    },
    {
      check: 'allocation-without-inventory',
      how: 'the inventory under an allocation deleted',
      plant: async () => ({
        subjects: [f.c1],
        undo: await deleteRows('inventories', `resource_provider_id = ${idOf(f.c)}`, []),
      }),
    },
    {
      check: 'allocation-outside-units',
      how: 'a step_size the allocation is not a multiple of',
      plant: async () => {
        const where = `resource_provider_id = ${ids.a} AND resource_class_id = (SELECT id FROM resource_classes WHERE name = 'MEMORY_MB')`;
        await q(`UPDATE inventories SET step_size = 3 WHERE ${where}`);
        return {
          subjects: [f.c1],
          undo: () => q(`UPDATE inventories SET step_size = 1 WHERE ${where}`),
        };
      },
    },
    {
      check: 'duplicate-allocation-rows',
      how: "a second row for one of a consumer's provider/class pairs",
      plant: async () => {
        const [row] = await q(
          `INSERT INTO allocations (resource_provider_id, consumer_id, resource_class_id, used)
           SELECT resource_provider_id, consumer_id, resource_class_id, 1 FROM allocations
           WHERE consumer_id = ${consumerId(f.c2)} RETURNING id`,
        );
        return {
          subjects: [f.c2],
          undo: () => q('DELETE FROM allocations WHERE id = $1', [row.id]),
        };
      },
    },
    {
      check: 'consumer-without-allocations',
      how: "a consumer's allocations deleted, the consumer left",
      plant: async () => ({
        subjects: [f.c2],
        undo: await deleteRows('allocations', `consumer_id = ${consumerId(f.c2)}`, []),
      }),
    },
    {
      check: 'consumer-missing-owner',
      how: "a consumer's project row deleted (FK_consumers_project bypassed)",
      plant: async () => ({
        subjects: [f.c2],
        undo: await deleteRows('projects', 'external_id = $1', ['p-lonely'], { bypass: true }),
      }),
    },
    {
      check: 'provider-missing-parent',
      how: 'a parent_provider_id naming no provider (FK_resource_providers_parent bypassed)',
      plant: async () => {
        await bypassingForeignKeys((em) =>
          em.query(
            'UPDATE resource_providers SET parent_provider_id = (SELECT max(id) + 1000 FROM resource_providers) WHERE id = $1',
            [ids.c],
          ),
        );
        return {
          subjects: [f.c],
          undo: () =>
            q('UPDATE resource_providers SET parent_provider_id = $1 WHERE id = $2', [
              ids.a,
              ids.c,
            ]),
        };
      },
    },
    {
      check: 'provider-root-mismatch',
      how: "a child's root_provider_id pointing at itself",
      plant: async () => {
        await q('UPDATE resource_providers SET root_provider_id = id WHERE id = $1', [ids.c]);
        return {
          subjects: [f.c],
          undo: () =>
            q('UPDATE resource_providers SET root_provider_id = $1 WHERE id = $2', [ids.a, ids.c]),
        };
      },
    },
    {
      check: 'provider-root-mismatch',
      how: "a root's root_provider_id pointing at another root",
      plant: async () => {
        await q('UPDATE resource_providers SET root_provider_id = $1 WHERE id = $2', [
          ids.b,
          ids.a,
        ]);
        return {
          subjects: [f.a],
          undo: () =>
            q('UPDATE resource_providers SET root_provider_id = id WHERE id = $1', [ids.a]),
        };
      },
    },
    {
      check: 'provider-cycle',
      how: 'a root made the child of its own child',
      plant: async () => {
        await q('UPDATE resource_providers SET parent_provider_id = $1 WHERE id = $2', [
          ids.c,
          ids.a,
        ]);
        return {
          subjects: [f.a, f.c].sort(),
          undo: () =>
            q('UPDATE resource_providers SET parent_provider_id = NULL WHERE id = $1', [ids.a]),
        };
      },
    },
    {
      check: 'provider-generation-invalid',
      how: 'a negative provider generation',
      plant: async () => {
        const [{ generation }] = await q(
          'SELECT generation FROM resource_providers WHERE id = $1',
          [ids.b],
        );
        await q('UPDATE resource_providers SET generation = -1 WHERE id = $1', [ids.b]);
        return {
          subjects: [f.b],
          undo: () =>
            q('UPDATE resource_providers SET generation = $1 WHERE id = $2', [generation, ids.b]),
        };
      },
    },
    {
      check: 'consumer-generation-invalid',
      how: 'a negative consumer generation',
      plant: async () => {
        await q('UPDATE consumers SET generation = -3 WHERE uuid = $1', [f.c1]);
        return {
          subjects: [f.c1],
          undo: () => q('UPDATE consumers SET generation = 1 WHERE uuid = $1', [f.c1]),
        };
      },
    },
    {
      check: 'inventory-invalid',
      how: 'reserved above total on an unused inventory',
      plant: async () => {
        const where = `resource_provider_id = ${idOf(f.e)}`;
        await q(`UPDATE inventories SET reserved = total + 1 WHERE ${where}`);
        return {
          subjects: [f.e],
          undo: () => q(`UPDATE inventories SET reserved = 0 WHERE ${where}`),
        };
      },
    },
    // Numbers the API refuses but a database can hold (an import used to copy them): the check
    // must name the inventory, and must not skip or crash on what it computes from them.
    ...[
      ['allocation_ratio Infinity under allocations', "allocation_ratio = 'Infinity'"],
      ['allocation_ratio NaN under allocations', "allocation_ratio = 'NaN'"],
      ['allocation_ratio 1e300 (the API stops at 3.40282e38)', 'allocation_ratio = 1e300'],
      ['step_size 0 under allocations (no division by zero)', 'step_size = 0'],
    ].map(([how, set]) => ({
      check: 'inventory-invalid',
      how: how!,
      plant: async () => {
        const where = `resource_provider_id = ${idOf(f.a)} AND resource_class_id = (SELECT id FROM resource_classes WHERE name = 'VCPU')`;
        await q(`UPDATE inventories SET ${set} WHERE ${where}`);
        const undo = 'allocation_ratio = 1, step_size = 1';
        return { subjects: [f.a], undo: () => q(`UPDATE inventories SET ${undo} WHERE ${where}`) };
      },
    })),
    {
      check: 'move-amounts-not-held',
      how: "a moving consumer's allocations replaced behind the move's back (PUT /allocations)",
      plant: async () => {
        const put = async (hosts: string[]) => {
          const { generation } = (await s.allocations.findConsumer(f.m))!;
          await s.allocations.set([
            {
              consumerUuid: f.m,
              consumerGeneration: generation,
              projectId: 'proj',
              userId: 'user',
              allocations: hosts.map((h) => ({ providerUuid: h, resources: { VCPU: 2 } })),
            },
          ]);
        };
        await put([f.a]);
        return { subjects: [f.m], undo: () => put([f.a, f.b]) };
      },
    },
    {
      check: 'server-group-member-without-consumer',
      how: 'a member whose consumer no longer exists',
      plant: async () => {
        // addMembers takes only existing consumers; a member whose consumer went away since
        // (its allocations deleted) is what is left behind.
        const ghost = randomUUID();
        await q(
          `INSERT INTO server_group_members (group_id, consumer_uuid)
           SELECT id, $2 FROM server_groups WHERE uuid = $1`,
          [f.group, ghost],
        );
        return {
          subjects: [ghost],
          undo: () => s.serverGroups.removeMembers(f.group, [ghost]).then(() => undefined),
        };
      },
    },
  ];

  it('has a planted case for every check', () => {
    expect([...new Set(cases.map((c) => c.check))].sort()).toEqual(
      CONSISTENCY_CHECKS.map((c) => c.name).sort(),
    );
  });

  it.each(cases)('flags $check alone when $how', async ({ check, plant }) => {
    const planted = await plant();
    try {
      expect(await failing()).toEqual([{ check, examples: planted.subjects }]);
    } finally {
      await planted.undo();
    }
    expect(await failing()).toEqual([]);
  });
});
