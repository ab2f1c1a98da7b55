// GraphQL quota and setQuotaLimits (berth extension; seed 004 quota counting from placement).
// Registers schema/quota.ts before the app builds the schema (a no-op once schema/index.ts imports it).
import '../../schema/quota';
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../../src/placement/errors';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { codes, gql } from '../support/graphql';

const QUOTA = `query Q($p: String!, $u: String) {
  quota(projectId: $p, userId: $u) { projectId userId lines { resource limit used remaining } }
}`;
const SET = `mutation S($input: QuotaLimitsInput!) {
  setQuotaLimits(input: $input) { projectId userId lines { resource limit used remaining } }
}`;

describe('quota', () => {
  let t: TestApp;
  let host: { uuid: string };
  beforeAll(async () => {
    t = await createTestApp();
    host = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 64 }],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('returns usage with null limits for a project without limits', async () => {
    const p = `p-${randomUUID()}`;
    await t.app.services.allocations.set([{ ...claim(host.uuid, { VCPU: 3 }), projectId: p }]);
    const r = await gql(t.app, QUOTA, { p });
    expect(r).toEqual({
      data: {
        quota: {
          projectId: p,
          userId: null,
          lines: [
            { resource: 'INSTANCES', limit: null, used: 1, remaining: null },
            { resource: 'VCPU', limit: null, used: 3, remaining: null },
          ],
        },
      },
    });
  });

  it('sets project and user limits and reads them back with remaining', async () => {
    const p = `p-${randomUUID()}`;
    await t.app.services.allocations.set([{ ...claim(host.uuid, { VCPU: 2 }), projectId: p }]);
    const project = await gql(t.app, SET, {
      input: {
        projectId: p,
        limits: [
          { resource: 'VCPU', limit: 8 },
          { resource: 'INSTANCES', limit: 3 },
        ],
      },
    });
    expect(project.errors).toBeUndefined();
    expect(project.data.setQuotaLimits.lines).toEqual([
      { resource: 'INSTANCES', limit: 3, used: 1, remaining: 2 },
      { resource: 'VCPU', limit: 8, used: 2, remaining: 6 },
    ]);
    const user = await gql(t.app, SET, {
      input: { projectId: p, userId: 'user', limits: [{ resource: 'VCPU', limit: 10 }] },
    });
    expect(user.data.setQuotaLimits).toEqual({
      projectId: p,
      userId: 'user',
      lines: [
        { resource: 'INSTANCES', limit: null, used: 1, remaining: 2 },
        { resource: 'VCPU', limit: 10, used: 2, remaining: 6 },
      ],
    });
    expect((await gql(t.app, QUOTA, { p, u: 'user' })).data.quota).toEqual(
      user.data.setQuotaLimits,
    );
  });

  it('returns a 400 for an unknown resource class', async () => {
    const r = await gql(t.app, SET, {
      input: { projectId: 'p', limits: [{ resource: 'CUSTOM_UNKNOWN', limit: 1 }] },
    });
    expect(r.data).toBeNull();
    expect(r.errors?.[0]?.extensions).toEqual({
      code: 'berth.quota.unknown_resource',
      status: 400,
    });
    expect(r.errors?.[0]?.message).toMatch(/CUSTOM_UNKNOWN/);
  });

  it('reflects a refused claim: the limit holds and usage is unchanged', async () => {
    const p = `p-${randomUUID()}`;
    await gql(t.app, SET, { input: { projectId: p, limits: [{ resource: 'VCPU', limit: 2 }] } });
    await expect(
      t.app.services.allocations.set([{ ...claim(host.uuid, { VCPU: 3 }), projectId: p }]),
    ).rejects.toMatchObject({ code: ErrorCode.QUOTA_EXCEEDED });
    const r = await gql(t.app, QUOTA, { p });
    expect(codes(r)).toEqual([]);
    expect(r.data.quota.lines).toEqual([
      { resource: 'INSTANCES', limit: null, used: 0, remaining: null },
      { resource: 'VCPU', limit: 2, used: 0, remaining: 2 },
    ]);
  });
});
