// The audit trail on a real database: each committed write appends exactly one event in its own
// transaction, a refused write leaves none, batched claims get one event per caller, `berth audit
// log` filters, and the retention prune deletes only old events.
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import { runAuditLog } from '../../src/cli/audit-command';
import { type AuditContext, runAudited } from '../../src/placement/audit';
import { listAuditEvents, pruneAuditEvents } from '../../src/placement/audit-log';
import { ChangeBus } from '../../src/placement/change-bus';
import { type ClaimInput, ClaimService } from '../../src/placement/claims';
import { ConflictError } from '../../src/placement/errors';
import { ClaimBatcher } from '../../src/scheduler/claiming/claim-batcher';
import { createTestDb, type TestDb } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';

interface EventRow {
  id: string;
  request_id: string | null;
  actor_kind: string;
  actor_id: string | null;
  role: string | null;
  operation: string;
  consumers: string[];
  providers: string[];
  projects: string[];
}

describe('audit trail', () => {
  let db: TestDb;
  let s: Services;
  let claims: ClaimService;

  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`));
    claims = new ClaimService(db.dataSource, s.changes, s.allocations, s.providers);
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    await db.dataSource.query('DELETE FROM audit_events');
  });

  const events = (): Promise<EventRow[]> =>
    db.dataSource.query('SELECT * FROM audit_events ORDER BY id');

  const ctx = (
    requestId: string,
    operation = 'PUT /allocations/{consumer_uuid}',
  ): AuditContext => ({
    actor: { kind: 'token', id: 'tok_test', role: 'scheduler' },
    operation,
    requestId,
  });

  it('records one event per write with its actor, operation, request id and targets', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    await db.dataSource.query('DELETE FROM audit_events');
    const input = claim(rp.uuid, { VCPU: 2 });
    await runAudited(ctx('req-1'), () => s.allocations.set([input]));
    const rows = await events();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      request_id: 'req-1',
      actor_kind: 'token',
      actor_id: 'tok_test',
      role: 'scheduler',
      operation: 'PUT /allocations/{consumer_uuid}',
      consumers: [input.consumerUuid],
      providers: [rp.uuid],
      projects: ['proj'],
    });
  });

  it('leaves no event and no write when the write is refused', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 2 }],
    });
    await db.dataSource.query('DELETE FROM audit_events');
    const over = claim(rp.uuid, { VCPU: 3 });
    await expect(runAudited(ctx('req-over'), () => s.allocations.set([over]))).rejects.toThrow(
      ConflictError,
    );
    // A stale provider generation (409 on REST).
    await expect(
      runAudited(ctx('req-gen', 'PUT /resource_providers/{uuid}/inventories'), () =>
        s.inventories.setAll(rp.uuid, rp.generation + 5, [{ resourceClass: 'VCPU', total: 9 }]),
      ),
    ).rejects.toThrow(ConflictError);
    expect(await events()).toEqual([]);
    expect(await s.allocations.findConsumer(over.consumerUuid)).toBeNull();
  });

  it('leaves no event when an inventory in use cannot be deleted', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    await s.allocations.set([claim(rp.uuid, { VCPU: 1 })]);
    await db.dataSource.query('DELETE FROM audit_events');
    const fresh = await s.providers.get(rp.uuid);
    await expect(
      runAudited(ctx('req-inuse', 'DELETE /resource_providers/{uuid}/inventories'), () =>
        s.inventories.deleteAll(rp.uuid, fresh.generation),
      ),
    ).rejects.toThrow(ConflictError);
    expect(await events()).toEqual([]);
  });

  it('gives each claim of a group-commit batch its own event', async () => {
    const hosts = await Promise.all(
      Array.from({ length: 6 }, () =>
        buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total: 4 }] }),
      ),
    );
    await db.dataSource.query('DELETE FROM audit_events');
    const batcher = new ClaimBatcher(claims, 32, 1);
    const inputs: ClaimInput[] = hosts.flatMap((h, i) =>
      [1, 2].map((n) => ({
        consumerUuid: randomUUID(),
        projectId: `p${i}-${n}`,
        userId: 'u1',
        consumerType: 'INSTANCE',
        hostUuid: h.uuid,
        allocations: [{ providerUuid: h.uuid, resources: { VCPU: n } }],
      })),
    );
    await Promise.all(
      inputs.map((input, i) =>
        runAudited(ctx(`req-claim-${i}`, 'mutation schedule'), () => batcher.claim(input)),
      ),
    );
    expect(batcher.stats.batchedClaims).toBeGreaterThan(1);
    const rows = await events();
    expect(rows).toHaveLength(inputs.length);
    const byRequest = new Map(rows.map((r) => [r.request_id, r]));
    for (const [i, input] of inputs.entries()) {
      expect(byRequest.get(`req-claim-${i}`)).toMatchObject({
        operation: 'mutation schedule',
        consumers: [input.consumerUuid],
        providers: [input.hostUuid],
        projects: [input.projectId],
      });
    }
  });

  it('records a deleted provider and a write without context as system', async () => {
    const rp = await buildResourceProvider(s);
    await db.dataSource.query('DELETE FROM audit_events');
    await s.providers.delete(rp.uuid);
    const rows = await events();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor_kind: 'system', providers: [rp.uuid] });
  });

  it('records catalogue writes only when they write', async () => {
    const name = `CUSTOM_AUDIT_${process.pid}`;
    await runAudited(ctx('req-trait', 'PUT /traits/{name}'), () => s.traits.ensure(name));
    await runAudited(ctx('req-trait-2', 'PUT /traits/{name}'), () => s.traits.ensure(name));
    expect((await events()).map((e) => e.request_id)).toEqual(['req-trait']);
  });

  it('filters `berth audit log` by consumer, provider, actor and time', async () => {
    const [a, b] = await Promise.all([
      buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total: 8 }] }),
      buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total: 8 }] }),
    ]);
    await db.dataSource.query('DELETE FROM audit_events');
    const onA = claim(a!.uuid, { VCPU: 1 });
    const onB = claim(b!.uuid, { VCPU: 1 });
    await runAudited(ctx('req-a'), () => s.allocations.set([onA]));
    await runAudited(
      {
        actor: { kind: 'token', id: 'tok_other', role: 'admin' },
        operation: 'x',
        requestId: 'req-b',
      },
      () => s.allocations.set([onB]),
    );
    const out: string[] = [];
    const sink = { write: (c: string) => out.push(c) };
    const ids = async (o: Parameters<typeof runAuditLog>[1]) =>
      (await runAuditLog(db.dataSource, o, sink)).map((e) => e.requestId);
    expect(await ids({ limit: 10 })).toEqual(['req-b', 'req-a']);
    expect(await ids({ limit: 10, consumer: onA.consumerUuid })).toEqual(['req-a']);
    expect(await ids({ limit: 10, provider: b!.uuid })).toEqual(['req-b']);
    expect(await ids({ limit: 10, actor: 'tok_other' })).toEqual(['req-b']);
    expect(await ids({ limit: 1 })).toEqual(['req-b']);
    expect(await ids({ limit: 10, since: '2999-01-01T00:00:00Z' })).toEqual([]);
    expect(await ids({ limit: 10, since: '1h' })).toEqual(['req-b', 'req-a']);
    expect(out[0]).toMatch(/^time\s+actor\s+role\s+operation\s+request\s+targets\s+details\n/);
    expect(out[0]).toContain(`rp:${b!.uuid}`);
  });

  it('prunes only events older than the retention, in batches', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 64 }],
    });
    for (let i = 0; i < 5; i++) {
      await runAudited(ctx(`req-${i}`), () => s.allocations.set([claim(rp.uuid, { VCPU: 1 })]));
    }
    await db.dataSource.query(
      `UPDATE audit_events SET created_at = now() - interval '100 days'
       WHERE request_id IN ('req-0', 'req-1', 'req-2')`,
    );
    expect(await pruneAuditEvents(db.dataSource, 90, 2)).toBe(3);
    const left = await listAuditEvents(db.dataSource, { limit: 100 });
    expect(left.map((e) => e.requestId).filter((r) => r?.startsWith('req-'))).toEqual([
      'req-4',
      'req-3',
    ]);
    expect(await pruneAuditEvents(db.dataSource, 90)).toBe(0);
  });
});
