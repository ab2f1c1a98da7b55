// REST facade over HTTP: inventories, allocations, usages and allocation candidates across
// microversions (ports of gabbits inventory.yaml, allocations.yaml, usage.yaml,
// allocation-candidates.yaml).
import { createTestApp, type TestApp } from '../support/app';
import { ADMIN_LATEST, type RestClient, restClient } from '../support/rest';

const RP = '0c4f8d0e-1b1a-4a61-8f6e-2d3f4a5b6c01';
const CONSUMER = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const PROJECT = 'p-rest';
const USER = 'u-rest';

describe('REST facade: allocations.yaml, inventory.yaml, usage.yaml', () => {
  let t: TestApp;
  let rest: RestClient;

  const call = (method: string, path: string, version = 'latest', body?: unknown) =>
    rest.call(method, path, {
      headers: { ...ADMIN_LATEST, 'openstack-api-version': `placement ${version}` },
      body,
    });

  beforeAll(async () => {
    t = await createTestApp({ BERTH_REST_AUTH: 'noauth2' });
    rest = await restClient(t.app);
    await call('POST', '/resource_providers', 'latest', { name: 'cn-rest', uuid: RP });
  });
  afterAll(async () => {
    await rest.close();
    await t.close();
  });

  it('sets inventories with the generation and reports them', async () => {
    const stale = await call('PUT', `/resource_providers/${RP}/inventories`, 'latest', {
      resource_provider_generation: 5,
      inventories: { VCPU: { total: 8 } },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.errors[0].code).toBe('placement.concurrent_update');
    const r = await call('PUT', `/resource_providers/${RP}/inventories`, 'latest', {
      resource_provider_generation: 0,
      inventories: { VCPU: { total: 8, allocation_ratio: 2 }, MEMORY_MB: { total: 2048 } },
    });
    expect(r.status).toBe(200);
    expect(r.json.resource_provider_generation).toBe(1);
    expect(r.json.inventories.VCPU).toEqual({
      total: 8,
      reserved: 0,
      min_unit: 1,
      max_unit: 2147483647,
      step_size: 1,
      allocation_ratio: 2,
    });
  });

  it('refuses reserved == total before 1.26 and accepts it from 1.26', async () => {
    const old = await call('PUT', `/resource_providers/${RP}/inventories/MEMORY_MB`, '1.25', {
      resource_provider_generation: 1,
      total: 2048,
      reserved: 2048,
    });
    expect(old.status).toBe(400);
    expect(old.json.errors[0].detail).toContain(
      'The reserved value is greater than or equal to total.',
    );
    const ok = await call('PUT', `/resource_providers/${RP}/inventories/MEMORY_MB`, '1.26', {
      resource_provider_generation: 1,
      total: 2048,
      reserved: 0,
    });
    expect(ok.status).toBe(200);
    expect(ok.json.resource_provider_generation).toBe(2);
  });

  it('writes allocations in the 1.38 dict form and reads them back', async () => {
    const put = await call('PUT', `/allocations/${CONSUMER}`, 'latest', {
      allocations: { [RP]: { resources: { VCPU: 2, MEMORY_MB: 512 } } },
      project_id: PROJECT,
      user_id: USER,
      consumer_generation: null,
      consumer_type: 'INSTANCE',
    });
    expect(put.status).toBe(204);
    const get = await call('GET', `/allocations/${CONSUMER}`);
    expect(get.json).toEqual({
      allocations: { [RP]: { resources: { VCPU: 2, MEMORY_MB: 512 }, generation: 3 } },
      project_id: PROJECT,
      user_id: USER,
      consumer_generation: 1,
      consumer_type: 'INSTANCE',
    });
    const old = await call('GET', `/allocations/${CONSUMER}`, '1.11');
    expect(Object.keys(old.json)).toEqual(['allocations']);
  });

  it('requires consumer_type from 1.38 and a matching consumer generation from 1.28', async () => {
    const noType = await call('PUT', `/allocations/${CONSUMER}`, '1.38', {
      allocations: { [RP]: { resources: { VCPU: 1 } } },
      project_id: PROJECT,
      user_id: USER,
      consumer_generation: 1,
    });
    expect(noType.status).toBe(400);
    const staleGen = await call('PUT', `/allocations/${CONSUMER}`, '1.28', {
      allocations: { [RP]: { resources: { VCPU: 1 } } },
      project_id: PROJECT,
      user_id: USER,
      consumer_generation: null,
    });
    expect(staleGen.status).toBe(409);
    expect(staleGen.json.errors[0].detail).toContain('consumer generation conflict');
  });

  it('reports usages per provider and per project grouped by consumer type from 1.38', async () => {
    const rp = await call('GET', `/resource_providers/${RP}/usages`);
    expect(rp.json.usages).toEqual({ VCPU: 2, MEMORY_MB: 512 });
    const flat = await call('GET', `/usages?project_id=${PROJECT}`, '1.9');
    expect(flat.json).toEqual({ usages: { VCPU: 2, MEMORY_MB: 512 } });
    const grouped = await call('GET', `/usages?project_id=${PROJECT}`, '1.38');
    expect(grouped.json).toEqual({
      usages: { INSTANCE: { VCPU: 2, MEMORY_MB: 512, consumer_count: 1 } },
    });
  });

  it('lists allocation candidates in the shape of the microversion', async () => {
    const latest = await call('GET', '/allocation_candidates?resources=VCPU:2');
    expect(latest.json.allocation_requests).toEqual([
      { allocations: { [RP]: { resources: { VCPU: 2 } } }, mappings: { '': [RP] } },
    ]);
    expect(latest.json.provider_summaries[RP]).toMatchObject({
      resources: { VCPU: { capacity: 16, used: 2 }, MEMORY_MB: { capacity: 2048, used: 512 } },
      traits: [],
      root_provider_uuid: RP,
      parent_provider_uuid: null,
    });
    const v110 = await call('GET', '/allocation_candidates?resources=VCPU:2', '1.10');
    expect(v110.json).toEqual({
      allocation_requests: [
        { allocations: [{ resource_provider: { uuid: RP }, resources: { VCPU: 2 } }] },
      ],
      provider_summaries: { [RP]: { resources: { VCPU: { capacity: 16, used: 2 } } } },
    });
    const tooOld = await call('GET', '/allocation_candidates?resources=VCPU:2', '1.9');
    expect(tooOld.status).toBe(404);
  });

  it('parses suffixed groups and rejects a missing group_policy', async () => {
    const r = await call(
      'GET',
      '/allocation_candidates?resources_A=VCPU:1&resources_B=MEMORY_MB:1',
    );
    expect(r.status).toBe(400);
    expect(r.json.errors[0].detail).toContain('The "group_policy" parameter is required');
    const ok = await call(
      'GET',
      '/allocation_candidates?resources_A=VCPU:1&resources_B=MEMORY_MB:1&group_policy=none',
    );
    expect(ok.json.allocation_requests[0].mappings).toEqual({ _A: [RP], _B: [RP] });
  });

  it('deletes allocations, then answers 404 for the consumer', async () => {
    expect((await call('DELETE', `/allocations/${CONSUMER}`)).status).toBe(204);
    const again = await call('DELETE', `/allocations/${CONSUMER}`);
    expect(again.status).toBe(404);
    expect(again.json.errors[0].detail).toContain(`No allocations for consumer '${CONSUMER}'`);
    expect((await call('GET', `/allocations/${CONSUMER}`)).json).toEqual({ allocations: {} });
  });

  it('accepts an inventory below current usage as Placement does; the domain default refuses', async () => {
    const put = await call('PUT', `/allocations/${CONSUMER}`, 'latest', {
      allocations: { [RP]: { resources: { VCPU: 4 } } },
      project_id: PROJECT,
      user_id: USER,
      consumer_generation: null,
      consumer_type: 'INSTANCE',
    });
    expect(put.status).toBe(204);
    const rp = await call('GET', `/resource_providers/${RP}`);
    await expect(
      t.app.services.inventories.update(RP, rp.json.generation, {
        resourceClass: 'VCPU',
        total: 1,
      }),
    ).rejects.toMatchObject({ code: 'placement.inventory.inuse' });
    const shrink = await call('PUT', `/resource_providers/${RP}/inventories/VCPU`, 'latest', {
      resource_provider_generation: rp.json.generation,
      total: 1,
    });
    expect(shrink.status).toBe(200);
    expect(shrink.json.total).toBe(1);
    expect((await call('GET', `/resource_providers/${RP}/usages`)).json.usages.VCPU).toBe(4);
  });
});
