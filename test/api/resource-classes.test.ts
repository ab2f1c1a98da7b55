// GraphQL resource classes and traits (mirrors gabbits resource-classes.yaml, traits.yaml).

import { createTestApp, type TestApp } from '../support/app';
import { codes, gql } from '../support/graphql';

describe('resource-classes.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the 21 standard classes', async () => {
    const r = await gql(t.app, '{ resourceClasses { name custom } }');
    expect(r.errors).toBeUndefined();
    expect(r.data.resourceClasses).toHaveLength(21);
    expect(r.data.resourceClasses[0]).toEqual({ name: 'VCPU', custom: false });
  });

  it('creates a custom class, refuses a duplicate and deletes it', async () => {
    const c = await gql(
      t.app,
      'mutation { createResourceClass(name: "CUSTOM_IRON") { name custom } }',
    );
    expect(c.data).toEqual({ createResourceClass: { name: 'CUSTOM_IRON', custom: true } });
    const dup = await gql(t.app, 'mutation { createResourceClass(name: "CUSTOM_IRON") { name } }');
    expect(dup.errors?.[0]?.extensions?.status).toBe(409);
    const d = await gql(t.app, 'mutation { deleteResourceClass(name: "CUSTOM_IRON") }');
    expect(d.data).toEqual({ deleteResourceClass: 'CUSTOM_IRON' });
  });

  it('rejects a non-custom name with a 400-class error', async () => {
    const r = await gql(t.app, 'mutation { createResourceClass(name: "IRON") { name } }');
    expect(r.errors?.[0]?.extensions?.status).toBe(400);
    expect(r.errors?.[0]?.message).toMatch(/CUSTOM_/);
  });

  it('refuses to delete a standard class', async () => {
    const r = await gql(t.app, 'mutation { deleteResourceClass(name: "VCPU") }');
    expect(r.errors?.[0]?.extensions?.status).toBe(400);
  });

  it('returns not found for an unknown custom class', async () => {
    const r = await gql(t.app, 'mutation { deleteResourceClass(name: "CUSTOM_NOPE") }');
    expect(r.errors?.[0]?.extensions?.status).toBe(404);
    expect(codes(r)).toEqual(['berth.resource_class.not_found']);
  });
});

describe('traits.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('filters traits by prefix and by name list', async () => {
    const r = await gql(
      t.app,
      `{ a: traits(filter: { startsWith: "MISC_" }) { name }
         b: traits(filter: { nameIn: ["HW_CPU_X86_AVX2", "NOPE"] }) { name custom } }`,
    );
    expect(r.data.a).toEqual([{ name: 'MISC_SHARES_VIA_AGGREGATE' }]);
    expect(r.data.b).toEqual([{ name: 'HW_CPU_X86_AVX2', custom: false }]);
  });

  it('creates and deletes a custom trait; standard ones are immutable', async () => {
    const c = await gql(t.app, 'mutation { createTrait(name: "CUSTOM_GOLD") { name custom } }');
    expect(c.data).toEqual({ createTrait: { name: 'CUSTOM_GOLD', custom: true } });
    const std = await gql(t.app, 'mutation { deleteTrait(name: "HW_CPU_X86_AVX2") }');
    expect(std.errors?.[0]?.extensions?.status).toBe(400);
    const d = await gql(t.app, 'mutation { deleteTrait(name: "CUSTOM_GOLD") }');
    expect(d.data).toEqual({ deleteTrait: 'CUSTOM_GOLD' });
  });

  it('masks unexpected errors', async () => {
    const r = await gql(t.app, '{ traits(filter: { startsWith: 5 }) { name } }');
    expect(r.errors?.length).toBeGreaterThan(0);
  });
});
