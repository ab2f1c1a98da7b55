// GraphQL resourceProviders filters (mirrors the listing steps of gabbits resource-provider.yaml,
// resource-provider-aggregates.yaml, resource-provider-any-traits.yaml).
import { randomUUID } from 'node:crypto';
import type { Services } from '../../src/app/services';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { firstError, type GqlResponse, gql } from '../support/graphql';

const LIST = `query L($filter: ResourceProviderFilter, $first: Int, $after: String) {
  resourceProviders(filter: $filter, first: $first, after: $after) {
    edges { cursor node { uuid name traits root { uuid } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

type Node = { uuid: string; name: string; traits: string[]; root: { uuid: string } };

async function list(t: TestApp, filter: Record<string, unknown>): Promise<GqlResponse> {
  return gql(t.app, LIST, { filter });
}

/** The uuids of a successful list response, sorted (Placement does not promise an order). */
function uuidsOf(r: GqlResponse): string[] {
  expect(r.errors).toBeUndefined();
  return (r.data.resourceProviders.edges as { node: Node }[]).map((e) => e.node.uuid).sort();
}

describe('resource-provider.yaml', () => {
  let t: TestApp;
  let parent: { uuid: string };
  let rp: { uuid: string; name: string };
  let alt: { uuid: string };
  beforeAll(async () => {
    t = await createTestApp();
    const s: Services = t.app.services;
    parent = await buildResourceProvider(s, { name: 'parent' });
    rp = await buildResourceProvider(s, {
      name: 'child',
      parentUuid: parent.uuid,
      traits: ['HW_CPU_X86_SGX', 'STORAGE_DISK_SSD'],
    });
    alt = await buildResourceProvider(s, {
      name: 'altwparent',
      traits: ['MISC_SHARES_VIA_AGGREGATE', 'STORAGE_DISK_SSD'],
      inventories: [
        { resourceClass: 'IPV4_ADDRESS', total: 253 },
        { resourceClass: 'DISK_GB', total: 1024 },
      ],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('filter out all resource providers by name', async () => {
    expect(uuidsOf(await list(t, { name: 'flubblebubble' }))).toEqual([]);
  });

  it('filter out all resource providers by uuid', async () => {
    expect(uuidsOf(await list(t, { uuid: 'd67370b5-4dc0-470d-a4fa-85e8e89abc6c' }))).toEqual([]);
  });

  it('list one resource provider filtering by name', async () => {
    const r = await list(t, { name: 'child' });
    expect(r.data.resourceProviders.edges.map((e: { node: Node }) => e.node)).toEqual([
      {
        uuid: rp.uuid,
        name: 'child',
        traits: ['HW_CPU_X86_SGX', 'STORAGE_DISK_SSD'],
        root: { uuid: parent.uuid },
      },
    ]);
  });

  it('list resource providers filtering by invalid uuid', async () => {
    const r = await list(t, { uuid: 'spameggs' });
    expect(r.data).toBeNull();
    expect(firstError(r)).toMatchObject({ status: 400, message: expect.stringMatching(/UUID/) });
  });

  it('list all resource providers in a tree that does not exist', async () => {
    expect(uuidsOf(await list(t, { inTree: randomUUID() }))).toEqual([]);
  });

  it('list all resource providers in a tree with multiple providers in tree', async () => {
    const r = await list(t, { inTree: rp.uuid });
    expect(uuidsOf(r)).toEqual([parent.uuid, rp.uuid].sort());
    for (const e of r.data.resourceProviders.edges) {
      expect(e.node.root).toEqual({ uuid: parent.uuid });
    }
  });

  it('list all resource providers in a tree', async () => {
    expect(uuidsOf(await list(t, { inTree: alt.uuid }))).toEqual([alt.uuid]);
  });

  it('filter providers by traits none of them have', async () => {
    expect(uuidsOf(await list(t, { required: ['HW_CPU_X86_SGX,HW_CPU_X86_SHA'] }))).toEqual([]);
  });

  it('filter providers with multiple traits where no provider has all of them', async () => {
    const r = await list(t, { required: ['HW_CPU_X86_SGX', 'MISC_SHARES_VIA_AGGREGATE'] });
    expect(uuidsOf(r)).toEqual([]);
  });

  it('filter providers with a trait some of them have', async () => {
    const r = await list(t, { required: ['STORAGE_DISK_SSD'] });
    expect(uuidsOf(r)).toEqual([alt.uuid, rp.uuid].sort());
  });

  it("list providers with 'required' parameter filters cumulatively with in_tree", async () => {
    const r = await list(t, { required: ['STORAGE_DISK_SSD'], inTree: rp.uuid });
    expect(uuidsOf(r)).toEqual([rp.uuid]);
  });

  it('list providers for full count', async () => {
    expect(uuidsOf(await list(t, {}))).toHaveLength(3);
  });

  it('list providers forbidden 1.22', async () => {
    expect(uuidsOf(await list(t, { required: ['!STORAGE_DISK_SSD'] }))).toEqual([parent.uuid]);
  });

  it('list providers forbidden again', async () => {
    const r = await list(t, { required: ['!MISC_SHARES_VIA_AGGREGATE'] });
    expect(uuidsOf(r)).toEqual([parent.uuid, rp.uuid].sort());
  });

  it('mixed required and forbidden', async () => {
    const r = await list(t, { required: ['!HW_CPU_X86_SGX', 'STORAGE_DISK_SSD'] });
    expect(r.data.resourceProviders.edges.map((e: { node: Node }) => e.node.traits)).toEqual([
      ['MISC_SHARES_VIA_AGGREGATE', 'STORAGE_DISK_SSD'],
    ]);
  });

  it('multiple forbidden', async () => {
    const r = await list(t, { required: ['!MISC_SHARES_VIA_AGGREGATE,!HW_CPU_X86_SGX'] });
    expect(r.data.resourceProviders.edges.map((e: { node: Node }) => e.node)).toEqual([
      { uuid: parent.uuid, name: 'parent', traits: [], root: { uuid: parent.uuid } },
    ]);
  });

  it('forbidden no apply', async () => {
    expect(uuidsOf(await list(t, { required: ['!HW_CPU_X86_VMX'] }))).toHaveLength(3);
  });

  it("list providers with 'required' parameter filters cumulatively with resources", async () => {
    const r = await list(t, {
      required: ['STORAGE_DISK_SSD'],
      resources: [{ resourceClass: 'IPV4_ADDRESS', amount: 10 }],
    });
    expect(uuidsOf(r)).toEqual([alt.uuid]);
  });

  it('excludes providers that cannot fit the resources on their own', async () => {
    const r = await list(t, { resources: [{ resourceClass: 'IPV4_ADDRESS', amount: 254 }] });
    expect(uuidsOf(r)).toEqual([]);
  });

  it("invalid 'required' parameter - blank", async () => {
    const r = await list(t, { required: [''] });
    expect(firstError(r)).toMatchObject({ code: 'berth.invalid_input', status: 400 });
  });

  it("invalid 'required' parameter - contains an empty trait name", async () => {
    const r = await list(t, { required: ['STORAGE_DISK_SSD,,MISC_SHARES_VIA_AGGREGATE'] });
    expect(firstError(r)).toMatchObject({ code: 'berth.invalid_input', status: 400 });
  });

  it("invalid 'required' parameter - contains a nonexistent trait", async () => {
    const r = await list(t, {
      required: ['STORAGE_DISK_SSD,BOGUS_TRAIT,MISC_SHARES_VIA_AGGREGATE'],
    });
    expect(firstError(r)).toEqual({
      code: 'berth.trait.not_found',
      status: 400,
      message: 'No such trait(s): BOGUS_TRAIT.',
    });
  });

  it('rejects an unknown resource class or a zero amount in the resources filter', async () => {
    const unknown = await list(t, { resources: [{ resourceClass: 'CUSTOM_NOPE', amount: 1 }] });
    expect(firstError(unknown)).toMatchObject({
      status: 400,
      message: expect.stringContaining('No such resource class CUSTOM_NOPE'),
    });
    const zero = await list(t, { resources: [{ resourceClass: 'DISK_GB', amount: 0 }] });
    expect(firstError(zero)).toMatchObject({ code: 'berth.invalid_input', status: 400 });
  });
});

describe('resource-provider-aggregates.yaml', () => {
  const AGG_83 = '83a3d69d-8920-48e2-8914-cadfd8fa2f91';
  const AGG_99 = '99652f11-9f77-46b9-80b7-4b1989be9f8c';
  const AGG_28 = '282d469e-29e2-4a8a-8f2e-31b3202b696a';
  let t: TestApp;
  let rp1: { uuid: string };
  let rp2: { uuid: string };
  let rp3: { uuid: string };
  beforeAll(async () => {
    t = await createTestApp();
    // The aggregate map the negative-membership steps of the gabbit run against.
    rp1 = await buildResourceProvider(t.app.services, {
      name: 'rp_1',
      aggregates: [AGG_83, AGG_28],
    });
    rp2 = await buildResourceProvider(t.app.services, {
      name: 'rp_2',
      aggregates: [AGG_83, AGG_99],
    });
    rp3 = await buildResourceProvider(t.app.services, { name: 'rp_3' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('get by aggregates no result', async () => {
    expect(uuidsOf(await list(t, { memberOf: [`in:${randomUUID()}`] }))).toEqual([]);
  });

  it('get by aggregates one result no in', async () => {
    expect(uuidsOf(await list(t, { memberOf: [AGG_28] }))).toEqual([rp1.uuid]);
  });

  it('get by aggregates no result not a uuid', async () => {
    const r = await list(t, { memberOf: ['not a uuid'] });
    expect(firstError(r)).toMatchObject({
      code: 'berth.invalid_input',
      status: 400,
      message: 'memberOf must contain valid aggregate UUID(s). Got: not a uuid',
    });
  });

  it('get by both aggregates two', async () => {
    const r = await list(t, { memberOf: [`in:${AGG_28},${AGG_99}`] });
    expect(uuidsOf(r)).toEqual([rp1.uuid, rp2.uuid].sort());
  });

  it('multiple member_of params AND together to result in one provider', async () => {
    expect(uuidsOf(await list(t, { memberOf: [AGG_83, AGG_99] }))).toEqual([rp2.uuid]);
  });

  it("two AND'd member_ofs with one OR'd member_of", async () => {
    const r = await list(t, { memberOf: [AGG_83, `in:${AGG_99},${AGG_28}`] });
    expect(uuidsOf(r)).toEqual([rp1.uuid, rp2.uuid].sort());
  });

  it('negative agg error on invalid agg', async () => {
    const r = await list(t, { memberOf: ['!(^o^)'] });
    expect(firstError(r)).toMatchObject({ code: 'berth.invalid_input', status: 400 });
  });

  it('negative agg error on invalid usage of in prefix', async () => {
    const r = await list(t, { memberOf: [`in:${AGG_99},!${AGG_28}`] });
    expect(firstError(r)).toMatchObject({ code: 'berth.invalid_input', status: 400 });
  });

  it('negative agg', async () => {
    const r = await list(t, { memberOf: [`!${AGG_28}`] });
    expect(uuidsOf(r)).toEqual([rp2.uuid, rp3.uuid].sort());
  });

  it('negative agg multiple', async () => {
    expect(uuidsOf(await list(t, { memberOf: [`!${AGG_28}`, `!${AGG_99}`] }))).toEqual([rp3.uuid]);
  });

  it('negative agg with in prefix', async () => {
    expect(uuidsOf(await list(t, { memberOf: [`!in:${AGG_28},${AGG_99}`] }))).toEqual([rp3.uuid]);
  });

  it('negative agg with positive agg', async () => {
    expect(uuidsOf(await list(t, { memberOf: [`!${AGG_28}`, AGG_83] }))).toEqual([rp2.uuid]);
  });

  it('negative agg multiple with positive agg', async () => {
    const r = await list(t, { memberOf: [`!in:${AGG_28},${AGG_83}`, AGG_99] });
    expect(uuidsOf(r)).toEqual([]);
  });

  it('negative agg with the same agg on positive no rp', async () => {
    expect(uuidsOf(await list(t, { memberOf: [`!${AGG_28}`, AGG_28] }))).toEqual([]);
  });
});

describe('resource-provider-any-traits.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const s = t.app.services;
    await s.traits.create('CUSTOM_FOO');
    await s.traits.create('CUSTOM_DISK_SSD');
    // A reduced GranularFixture: only the traits these steps read.
    await buildResourceProvider(s, {
      name: 'cn_left',
      traits: ['HW_GPU_API_DXVA', 'HW_CPU_X86_AVX', 'CUSTOM_FOO'],
    });
    await buildResourceProvider(s, {
      name: 'cn_middle',
      traits: ['HW_NIC_ACCEL_TLS', 'HW_CPU_X86_AVX', 'HW_CPU_X86_MMX'],
    });
    await buildResourceProvider(s, {
      name: 'cn_right',
      traits: ['HW_GPU_API_DXVA', 'HW_CPU_X86_MMX', 'CUSTOM_DISK_SSD'],
    });
    await buildResourceProvider(s, { name: 'shr_disk_1', traits: ['CUSTOM_DISK_SSD'] });
  });
  afterAll(async () => {
    await t.close();
  });

  const names = (r: GqlResponse) =>
    r.data.resourceProviders.edges.map((e: { node: Node }) => e.node.name);

  it('list providers with both OR, AND, and NOT trait queries', async () => {
    const r = await list(t, {
      required: ['in:HW_GPU_API_DXVA,HW_NIC_ACCEL_TLS', 'HW_CPU_X86_AVX,!CUSTOM_FOO'],
    });
    expect(names(r)).toEqual(['cn_middle']);
  });

  it('have multiple OR queries', async () => {
    const r = await list(t, {
      required: ['in:HW_CPU_X86_MMX,HW_NIC_ACCEL_TLS', 'in:CUSTOM_DISK_SSD,CUSTOM_FOO'],
    });
    expect(names(r)).toEqual(['cn_right']);
  });
});
