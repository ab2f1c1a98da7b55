// The order of a provider's traits in allocation-candidate provider summaries, REST and GraphQL:
// trait id (creation) order, as Placement's `get_traits_by_provider_tree` returns them where the
// database reads resource_provider_traits by its index (SQLite, MySQL; upstream gabbit
// allocation-candidates-root-required.yaml "limit to multiattach-capable unsuffixed sharing",
// NUMANetworkFixture: numa1 has ['HW_NUMA_ROOT', 'CUSTOM_FOO']). Names sort the other way round.
import { createTestApp, type TestApp } from '../support/app';
import { gql } from '../support/graphql';
import { ADMIN_LATEST, type RestClient, restClient } from '../support/rest';

const AGG_A = '5e8b1b1c-9d1f-4c5e-8a57-6b1f0e3c2a01';
const SS1 = '5e8b1b1c-9d1f-4c5e-8a57-6b1f0e3c2a02';
const CN1 = '5e8b1b1c-9d1f-4c5e-8a57-6b1f0e3c2a03';
const NUMA0 = '5e8b1b1c-9d1f-4c5e-8a57-6b1f0e3c2a04';
const NUMA1 = '5e8b1b1c-9d1f-4c5e-8a57-6b1f0e3c2a05';
const CN2 = '5e8b1b1c-9d1f-4c5e-8a57-6b1f0e3c2a06';

describe('trait order in provider summaries', () => {
  let t: TestApp;
  let rest: RestClient;

  const call = async (method: string, path: string, body?: unknown) => {
    const r = await rest.call(method, path, { headers: ADMIN_LATEST, body });
    expect(r.status).toBeLessThan(300);
    return r.json;
  };
  const provider = async (uuid: string, name: string, parent?: string) =>
    call('POST', '/resource_providers', {
      uuid,
      name,
      ...(parent ? { parent_provider_uuid: parent } : {}),
    });
  const generation = async (uuid: string) =>
    (await call('GET', `/resource_providers/${uuid}`)).generation as number;
  const traits = async (uuid: string, list: string[]) =>
    call('PUT', `/resource_providers/${uuid}/traits`, {
      resource_provider_generation: await generation(uuid),
      traits: list,
    });
  const inventory = async (uuid: string, inventories: Record<string, { total: number }>) =>
    call('PUT', `/resource_providers/${uuid}/inventories`, {
      resource_provider_generation: await generation(uuid),
      inventories,
    });
  const aggregates = async (uuid: string) =>
    call('PUT', `/resource_providers/${uuid}/aggregates`, {
      resource_provider_generation: await generation(uuid),
      aggregates: [AGG_A],
    });

  beforeAll(async () => {
    t = await createTestApp({ BERTH_REST_AUTH: 'noauth2' });
    rest = await restClient(t.app);
    // NUMANetworkFixture, the part the gabbit reads (custom traits created after the standard
    // ones, in this order: CUSTOM_FOO, then CUSTOM_ZED before CUSTOM_ALPHA).
    await provider(SS1, 'ss1');
    await traits(SS1, ['MISC_SHARES_VIA_AGGREGATE']);
    await inventory(SS1, { DISK_GB: { total: 2000 } });
    await aggregates(SS1);
    await provider(CN1, 'cn1');
    await aggregates(CN1);
    await traits(CN1, ['COMPUTE_VOLUME_MULTI_ATTACH']);
    await provider(NUMA0, 'numa0', CN1);
    await traits(NUMA0, ['HW_NUMA_ROOT']);
    await inventory(NUMA0, { VCPU: { total: 4 } });
    await call('PUT', '/traits/CUSTOM_FOO');
    await provider(NUMA1, 'numa1', CN1);
    await traits(NUMA1, ['CUSTOM_FOO', 'HW_NUMA_ROOT']);
    await inventory(NUMA1, { VCPU: { total: 4 } });
    await call('PUT', '/traits/CUSTOM_ZED');
    await call('PUT', '/traits/CUSTOM_ALPHA');
    await provider(CN2, 'cn2');
    await traits(CN2, ['CUSTOM_ALPHA', 'CUSTOM_FOO', 'CUSTOM_ZED', 'HW_CPU_X86_AVX']);
    await inventory(CN2, { VCPU: { total: 8 }, DISK_GB: { total: 1000 } });
    await aggregates(CN2);
  });
  afterAll(async () => {
    await rest.close();
    await t.close();
  });

  it('limit to multiattach-capable unsuffixed sharing (REST): HW_NUMA_ROOT before CUSTOM_FOO', async () => {
    const body = await call(
      'GET',
      '/allocation_candidates?resources=VCPU:1,DISK_GB:10&root_required=COMPUTE_VOLUME_MULTI_ATTACH',
    );
    // cn1's NUMA nodes with ss1's disk; cn2 (not multiattach-capable) is left out.
    expect(Object.keys(body.provider_summaries).sort()).toEqual([SS1, CN1, NUMA0, NUMA1].sort());
    expect(body.provider_summaries[NUMA1].traits).toEqual(['HW_NUMA_ROOT', 'CUSTOM_FOO']);
    expect(body.provider_summaries[CN1].traits).toEqual(['COMPUTE_VOLUME_MULTI_ATTACH']);
  });

  it('lists standard traits in os-traits order, then custom ones in creation order', async () => {
    const body = await call('GET', '/allocation_candidates?resources=VCPU:1,DISK_GB:1');
    expect(body.provider_summaries[CN2].traits).toEqual([
      'HW_CPU_X86_AVX',
      'CUSTOM_FOO',
      'CUSTOM_ZED',
      'CUSTOM_ALPHA',
    ]);
    // The same order as the provider's own trait list.
    expect((await call('GET', `/resource_providers/${CN2}/traits`)).traits).toEqual(
      body.provider_summaries[CN2].traits,
    );
  });

  it('gives GraphQL summaries the same order', async () => {
    const r = await gql(
      t.app,
      `query C($r: AllocationCandidatesRequest!) { allocationCandidates(request: $r) {
        providerSummaries { provider { uuid } traits } } }`,
      {
        r: {
          groups: [
            {
              suffix: '',
              resources: [
                { resourceClass: 'VCPU', amount: 1 },
                { resourceClass: 'DISK_GB', amount: 10 },
              ],
            },
          ],
          rootRequired: ['COMPUTE_VOLUME_MULTI_ATTACH'],
        },
      },
    );
    expect(r.errors).toBeUndefined();
    const byUuid = Object.fromEntries(
      r.data.allocationCandidates.providerSummaries.map(
        (s: { provider: { uuid: string }; traits: string[] }) => [s.provider.uuid, s.traits],
      ),
    );
    expect(byUuid[NUMA1]).toEqual(['HW_NUMA_ROOT', 'CUSTOM_FOO']);
  });
});
