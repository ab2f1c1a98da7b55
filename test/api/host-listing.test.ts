// hostList through yoga.fetch with authentication on: the rows a reader sees (zone and aggregate
// names from aggregate metadata, tree usage, instances, disabled state), sorting, filters and
// paging, the stable codes of bad arguments, and a member token refused.
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { codes, gql } from '../support/graphql';

const LIST = `query($filter: HostListFilter, $orderBy: HostListOrder, $first: Int, $offset: Int) {
  hostList(filter: $filter, orderBy: $orderBy, first: $first, offset: $offset) {
    totalCount
    hosts {
      name uuid disabled availabilityZone instances maxUtilisation children
      provider { uuid name }
      aggregates { uuid name }
      usage { resourceClass capacity used utilisation }
    }
  }
}`;

describe('hostList', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const rack = randomUUID();
  const prefix = `hl-${process.pid}-`;
  let numaUuid: string;

  const as = (role: string, variables: Record<string, unknown>) =>
    gql(t.app, LIST, variables, { authorization: `Bearer ${tokens[role]}` });
  /** The names of the hosts of this file a reader gets for `variables`. */
  const names = async (variables: Record<string, unknown>) => {
    const filter = { nameContains: prefix, ...(variables.filter as object) };
    const r = await as('reader', { ...variables, filter });
    expect(r.errors).toBeUndefined();
    return r.data.hostList.hosts.map((h: { name: string }) => h.name.slice(prefix.length));
  };

  beforeAll(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on' });
    for (const role of ['admin', 'reader']) {
      tokens[role] = (await t.app.tokens.create({ role })).token;
    }
    tokens.member = (await t.app.tokens.create({ role: 'member', project: 'proj' })).token;
    const meta = await gql(
      t.app,
      'mutation($i: SetAggregateMetadataInput) { setAggregateMetadata(input: $i) { uuid } }',
      { i: { uuid: rack, name: 'rack-1', metadata: [{ key: 'availability_zone', value: 'az1' }] } },
      { authorization: `Bearer ${tokens.admin}` },
    );
    expect(meta.errors).toBeUndefined();
    const s = t.app.services;
    const a = await buildResourceProvider(s, {
      name: `${prefix}a`,
      aggregates: [rack],
      inventories: [{ resourceClass: 'VCPU', total: 10 }],
    });
    const b = await buildResourceProvider(s, {
      name: `${prefix}b`,
      traits: ['COMPUTE_STATUS_DISABLED'],
      inventories: [{ resourceClass: 'VCPU', total: 10 }],
    });
    const numa = await buildResourceProvider(s, { name: `${prefix}c` });
    numaUuid = numa.uuid;
    const cell = await buildResourceProvider(s, {
      name: `${prefix}c-cell0`,
      parentUuid: numa.uuid,
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    await s.allocations.set([claim(a.uuid, { VCPU: 9 }), claim(b.uuid, { VCPU: 2 })]);
    await s.allocations.set([claim(cell.uuid, { VCPU: 4 }), claim(cell.uuid, { VCPU: 1 })]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a reader with each host’s tree, zone, aggregates, instances and state', async () => {
    const r = await as('reader', { filter: { nameContains: prefix } });
    expect(r.errors).toBeUndefined();
    expect(r.data.hostList.totalCount).toBe(3);
    const [a, b, c] = r.data.hostList.hosts;
    expect(a).toMatchObject({
      name: `${prefix}a`,
      disabled: false,
      availabilityZone: 'az1',
      aggregates: [{ uuid: rack, name: 'rack-1' }],
      instances: 1,
      children: 0,
      usage: [{ resourceClass: 'VCPU', capacity: 10, used: 9, utilisation: 0.9 }],
    });
    expect(a.maxUtilisation).toBeCloseTo(0.9);
    expect(a.provider).toEqual({ uuid: a.uuid, name: a.name });
    expect(b).toMatchObject({ disabled: true, availabilityZone: null, aggregates: [] });
    expect(c).toMatchObject({
      uuid: numaUuid,
      children: 1,
      instances: 2,
      usage: [{ resourceClass: 'VCPU', capacity: 8, used: 5 }],
    });
  });

  it('sorts by a usage column in either direction', async () => {
    const orderBy = { field: 'UTILISATION', resourceClass: 'VCPU' };
    expect(await names({ orderBy: { ...orderBy, direction: 'DESC' } })).toEqual(['a', 'c', 'b']);
    expect(await names({ orderBy: { ...orderBy, direction: 'ASC' } })).toEqual(['b', 'c', 'a']);
    expect(await names({ orderBy: { field: 'INSTANCES', direction: 'DESC' } })).toEqual([
      'c',
      'a',
      'b',
    ]);
  });

  it('filters by state, zone, aggregate and trait', async () => {
    expect(await names({ filter: { state: 'DISABLED' } })).toEqual(['b']);
    expect(await names({ filter: { state: 'ENABLED' } })).toEqual(['a', 'c']);
    expect(await names({ filter: { state: 'FULL' } })).toEqual(['a']);
    expect(await names({ filter: { availabilityZone: 'az1' } })).toEqual(['a']);
    expect(await names({ filter: { aggregate: rack } })).toEqual(['a']);
    expect(await names({ filter: { trait: 'COMPUTE_STATUS_DISABLED' } })).toEqual(['b']);
  });

  it('pages with offset and keeps the total', async () => {
    const r = await as('reader', { filter: { nameContains: prefix }, first: 2, offset: 2 });
    expect(r.data.hostList.totalCount).toBe(3);
    expect(r.data.hostList.hosts.map((h: { name: string }) => h.name)).toEqual([`${prefix}c`]);
  });

  it.each([
    { name: 'first above 1000', v: { first: 1001 }, code: 'berth.invalid_input' },
    { name: 'a negative offset', v: { offset: -5 }, code: 'berth.invalid_input' },
    {
      name: 'a per-class sort without a class',
      v: { orderBy: { field: 'USED' } },
      code: 'berth.invalid_input',
    },
    {
      name: 'an unknown resource class',
      v: { orderBy: { field: 'USED', resourceClass: 'CUSTOM_NOPE' } },
      code: 'berth.resource_class.not_found',
    },
    {
      name: 'an unknown trait',
      v: { filter: { trait: 'CUSTOM_NOPE' } },
      code: 'berth.trait.not_found',
    },
    { name: 'an unknown sort column', v: { orderBy: { field: 'COLOUR' } }, code: 'BAD_USER_INPUT' },
  ])('refuses $name with a stable code and no data', async ({ v, code }) => {
    const r = await as('reader', v);
    expect(codes(r)).toEqual([code]);
    expect(r.data?.hostList ?? null).toBeNull();
  });

  it('refuses a member token (project members read only their own project)', async () => {
    const r = await as('member', {});
    expect(codes(r)).toEqual(['berth.forbidden']);
    expect(r.data?.hostList ?? null).toBeNull();
  });
});
