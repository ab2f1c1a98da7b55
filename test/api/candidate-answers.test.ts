// Allocation-candidate answers kept per index revision (src/app/candidate-answers.ts): a request
// asked again on unchanged data is answered from the kept answer, and every write (allocations,
// inventories, traits, a new provider) shows in the next answer, over REST and GraphQL alike.
import { createTestApp, type TestApp } from '../support/app';
import { gql } from '../support/graphql';
import { ADMIN_LATEST, type RestClient, restClient } from '../support/rest';

const RP = '5c1f9a2e-7b3d-4e8f-9a0b-1c2d3e4f5a01';
const RP2 = '5c1f9a2e-7b3d-4e8f-9a0b-1c2d3e4f5a02';
const CONSUMER = '5c1f9a2e-7b3d-4e8f-9a0b-1c2d3e4f5a10';
const QUERY = '/allocation_candidates?resources=VCPU:2';
const GQL = `query($r: AllocationCandidatesRequest!) { allocationCandidates(request: $r) {
  allocationRequests { allocations { provider { uuid } resources { resourceClass amount } } }
  providerSummaries { provider { uuid } resources { resourceClass capacity used } traits } } }`;
const GQL_VARS = { r: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 2 }] }] } };

describe('allocation-candidate answers kept per index revision', () => {
  let t: TestApp;
  let rest: RestClient;

  const call = (method: string, path: string, body?: unknown) =>
    rest.call(method, path, { headers: ADMIN_LATEST, body });
  /** The VCPU used and the traits of each provider in the REST answer, asked three times. */
  const restView = async () => {
    const views = [];
    for (let i = 0; i < 3; i++) {
      const r = await call('GET', QUERY);
      expect(r.status).toBe(200);
      views.push(
        Object.fromEntries(
          Object.entries(
            r.json.provider_summaries as Record<
              string,
              { resources: { VCPU: { used: number } }; traits: string[] }
            >,
          ).map(([uuid, s]) => [uuid, { used: s.resources.VCPU.used, traits: s.traits }]),
        ),
      );
    }
    expect(views[1]).toEqual(views[0]);
    expect(views[2]).toEqual(views[0]);
    return views[0];
  };
  const gqlView = async () => {
    const views = [];
    for (let i = 0; i < 3; i++) {
      const r = await gql(t.app, GQL, GQL_VARS);
      expect(r.errors).toBeUndefined();
      views.push(
        Object.fromEntries(
          (
            r.data.allocationCandidates.providerSummaries as {
              provider: { uuid: string };
              resources: { resourceClass: string; used: number }[];
              traits: string[];
            }[]
          ).map((s) => [
            s.provider.uuid,
            { used: s.resources.find((x) => x.resourceClass === 'VCPU')!.used, traits: s.traits },
          ]),
        ),
      );
    }
    expect(views[1]).toEqual(views[0]);
    expect(views[2]).toEqual(views[0]);
    return views[0];
  };

  beforeAll(async () => {
    t = await createTestApp({ BERTH_REST_AUTH: 'noauth2' });
    rest = await restClient(t.app);
    expect((await call('POST', '/resource_providers', { name: 'ka-1', uuid: RP })).status).toBe(
      200,
    );
    const inv = await call('PUT', `/resource_providers/${RP}/inventories`, {
      resource_provider_generation: 0,
      inventories: { VCPU: { total: 8 } },
    });
    expect(inv.status).toBe(200);
  });
  afterAll(async () => {
    await rest.close();
    await t.close();
  });

  it('answers repeated reads from the kept answer and shows every write in the next one', async () => {
    const hits = t.app.services.candidateAnswers.stats.hits;
    expect(await restView()).toEqual({ [RP]: { used: 0, traits: [] } });
    expect(await gqlView()).toEqual({ [RP]: { used: 0, traits: [] } });
    expect(t.app.services.candidateAnswers.stats.hits).toBeGreaterThan(hits);

    // An allocation.
    const put = await call('PUT', `/allocations/${CONSUMER}`, {
      allocations: { [RP]: { resources: { VCPU: 2 } } },
      project_id: 'p',
      user_id: 'u',
      consumer_generation: null,
      consumer_type: 'INSTANCE',
    });
    expect(put.status).toBe(204);
    expect(await restView()).toEqual({ [RP]: { used: 2, traits: [] } });
    expect(await gqlView()).toEqual({ [RP]: { used: 2, traits: [] } });

    // A trait.
    const gen = (await call('GET', `/resource_providers/${RP}`)).json.generation as number;
    const traits = await call('PUT', `/resource_providers/${RP}/traits`, {
      resource_provider_generation: gen,
      traits: ['HW_CPU_X86_AVX2'],
    });
    expect(traits.status).toBe(200);
    expect(await restView()).toEqual({ [RP]: { used: 2, traits: ['HW_CPU_X86_AVX2'] } });
    expect(await gqlView()).toEqual({ [RP]: { used: 2, traits: ['HW_CPU_X86_AVX2'] } });

    // A new provider with room, and the first one's inventory shrunk below the request.
    expect((await call('POST', '/resource_providers', { name: 'ka-2', uuid: RP2 })).status).toBe(
      200,
    );
    const inv2 = await call('PUT', `/resource_providers/${RP2}/inventories`, {
      resource_provider_generation: 0,
      inventories: { VCPU: { total: 4 } },
    });
    expect(inv2.status).toBe(200);
    const shrink = await call('PUT', `/resource_providers/${RP}/inventories`, {
      resource_provider_generation: gen + 1,
      inventories: { VCPU: { total: 3 } },
    });
    expect(shrink.status).toBe(200);
    expect(await restView()).toEqual({ [RP2]: { used: 0, traits: [] } });
    expect(await gqlView()).toEqual({ [RP2]: { used: 0, traits: [] } });

    // Deleting the allocation gives the room back.
    expect((await call('DELETE', `/allocations/${CONSUMER}`)).status).toBe(204);
    expect(await restView()).toEqual({
      [RP]: { used: 0, traits: ['HW_CPU_X86_AVX2'] },
      [RP2]: { used: 0, traits: [] },
    });
  });

  it('keeps the answers of one microversion apart from another', async () => {
    const old = async () =>
      rest.call('GET', QUERY, {
        headers: { ...ADMIN_LATEST, 'openstack-api-version': 'placement 1.10' },
      });
    for (let i = 0; i < 3; i++) {
      const a = await old();
      expect(a.status).toBe(200);
      // 1.10: allocations as a list, no traits in summaries.
      expect(Array.isArray(a.json.allocation_requests[0].allocations)).toBe(true);
      expect(a.json.provider_summaries[RP].traits).toBeUndefined();
      const b = await call('GET', QUERY);
      expect(Array.isArray(b.json.allocation_requests[0].allocations)).toBe(false);
      expect(b.json.provider_summaries[RP].traits).toEqual(['HW_CPU_X86_AVX2']);
    }
  });
});
