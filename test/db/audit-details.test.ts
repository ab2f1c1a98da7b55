// The `details` of audit events on a real database: admin writes say what they changed (token id
// and role but never its secret, quota limits old -> new, inventories as written, class and trait
// names), claims say nothing beyond their targets, and `berth audit log` shows them.

import { createServices, type Services } from '../../src/app/services';
import { TokenStore } from '../../src/auth/token-store';
import { runAuditLog } from '../../src/cli/audit-command';
import { type AuditContext, runAudited } from '../../src/placement/audit';
import { ChangeBus } from '../../src/placement/change-bus';
import { createTestDb, type TestDb } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';

interface EventRow {
  request_id: string | null;
  operation: string;
  details: Record<string, unknown> | null;
}

describe('audit event details', () => {
  let db: TestDb;
  let s: Services;

  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`));
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    await db.dataSource.query('DELETE FROM audit_events');
  });

  const events = (): Promise<EventRow[]> =>
    db.dataSource.query('SELECT request_id, operation, details FROM audit_events ORDER BY id');

  const as = (requestId: string, operation: string): AuditContext => ({
    actor: { kind: 'cli', name: 'cli' },
    operation,
    requestId,
  });

  it('names the token created or revoked, never its secret', async () => {
    const tokens = new TokenStore(db.dataSource);
    const { token, info } = await runAudited(as('req-create', 'cli token create'), () =>
      tokens.create({ role: 'scheduler', project: 'p-tok', name: 'nova-sched' }),
    );
    expect(
      await runAudited(as('req-revoke', 'cli token revoke'), () => tokens.revoke(info.id)),
    ).toBe(true);
    // Already revoked: nothing written, no event.
    expect(
      await runAudited(as('req-again', 'cli token revoke'), () => tokens.revoke(info.id)),
    ).toBe(false);
    const rows = await events();
    const expected = { id: info.id, name: 'nova-sched', role: 'scheduler', project: 'p-tok' };
    expect(rows).toEqual([
      { request_id: 'req-create', operation: 'cli token create', details: { token: expected } },
      {
        request_id: 'req-revoke',
        operation: 'cli token revoke',
        details: { token: { ...expected, revoked: true } },
      },
    ]);
    const all = JSON.stringify(await db.dataSource.query('SELECT * FROM audit_events'));
    const secret = token.slice(token.lastIndexOf('_') + 1);
    expect(secret.length).toBeGreaterThan(8);
    expect(all).not.toContain(secret);
    const [hash] = await db.dataSource.query('SELECT secret_sha256 FROM api_tokens WHERE id = $1', [
      info.id,
    ]);
    expect(all).not.toContain(hash.secret_sha256);
  });

  it('records quota limits as old -> new (null = no limit)', async () => {
    const set = (requestId: string, limits: { resource: string; limit: number }[]) =>
      runAudited(as(requestId, 'mutation setQuotaLimits'), () =>
        s.quota.setLimits({ projectId: 'p-quota', limits }),
      );
    await set('req-q1', [{ resource: 'VCPU', limit: 10 }]);
    await set('req-q2', [
      { resource: 'VCPU', limit: 20 },
      { resource: 'MEMORY_MB', limit: 4096 },
    ]);
    await set('req-q3', [{ resource: 'VCPU', limit: -1 }]);
    const details = (await events()).map((e) => e.details);
    expect(details).toEqual([
      { quota: { project: 'p-quota', limits: { VCPU: { from: null, to: 10 } } } },
      {
        quota: {
          project: 'p-quota',
          limits: { VCPU: { from: 10, to: 20 }, MEMORY_MB: { from: null, to: 4096 } },
        },
      },
      { quota: { project: 'p-quota', limits: { VCPU: { from: 20, to: null } } } },
    ]);
  });

  it('records inventories as written, and removed classes', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [
        { resourceClass: 'VCPU', total: 8 },
        { resourceClass: 'DISK_GB', total: 100 },
      ],
    });
    await db.dataSource.query('DELETE FROM audit_events');
    const op = 'PUT /resource_providers/{uuid}/inventories';
    // Capacity 0: reserved = total.
    const after = await runAudited(as('req-inv', op), () =>
      s.inventories.setAll(rp.uuid, rp.generation, [
        { resourceClass: 'VCPU', total: 8, reserved: 8, allocationRatio: 2 },
      ]),
    );
    await runAudited(as('req-del', 'DELETE /resource_providers/{uuid}/inventories/{rc}'), () =>
      s.inventories.delete(rp.uuid, 'VCPU', after.provider.generation),
    );
    expect((await events()).map((e) => e.details)).toEqual([
      {
        inventories: {
          provider: rp.uuid,
          set: { VCPU: { total: 8, reserved: 8, allocation_ratio: 2 } },
          removed: ['DISK_GB'],
        },
      },
      { inventories: { provider: rp.uuid, set: {}, removed: ['VCPU'] } },
    ]);
  });

  it('names created and deleted classes and traits; claims carry no details', async () => {
    const rc = `CUSTOM_AUDIT_RC_${process.pid}`;
    const trait = `CUSTOM_AUDIT_TRAIT_${process.pid}`;
    await s.resourceClasses.create(rc);
    await s.resourceClasses.delete(rc);
    await s.traits.create(trait);
    await s.traits.delete(trait);
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    await db.dataSource.query(
      'DELETE FROM audit_events WHERE NOT coalesce(details ? $1 OR details ? $2, false)',
      ['resource_class', 'trait'],
    );
    await s.allocations.set([claim(rp.uuid, { VCPU: 1 })]);
    expect((await events()).map((e) => e.details)).toEqual([
      { resource_class: rc },
      { resource_class: rc },
      { trait },
      { trait },
      null,
    ]);
  });

  it('shows details in `berth audit log` (a trailing column, whole in --json)', async () => {
    await runAudited(as('req-q', 'mutation setQuotaLimits'), () =>
      s.quota.setLimits({ projectId: 'p-log', limits: [{ resource: 'VCPU', limit: 7 }] }),
    );
    const out: string[] = [];
    const sink = { write: (c: string) => out.push(c) };
    await runAuditLog(db.dataSource, { limit: 5 }, sink);
    const [header, line] = out[0]!.split('\n');
    expect(header).toMatch(/\btargets\s+details$/);
    expect(line).toMatch(
      /project:p-log\s+\{"quota":\{"limits":\{"VCPU":\{"to":7,"from":null\}\},"project":"p-log"\}\}$/,
    );
    const [json] = await runAuditLog(db.dataSource, { limit: 5, json: true }, sink);
    expect(json!.details).toEqual({
      quota: { project: 'p-log', limits: { VCPU: { from: null, to: 7 } } },
    });
    expect(JSON.parse(out[1]!)[0].details).toEqual(json!.details);
  });
});
