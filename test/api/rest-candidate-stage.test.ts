// GET /allocation_candidates with berth's `Berth-Explain: candidates` header: the answer gains
// `berth_candidate_stage` (which constraint removed every host, the closest misses); without
// the header the bytes are exactly Placement's, and a bad value is a clear 400.
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { ADMIN_LATEST, type RestClient, restClient } from '../support/rest';

describe('GET /allocation_candidates with Berth-Explain: candidates', () => {
  let t: TestApp;
  let rest: RestClient;
  beforeAll(async () => {
    t = await createTestApp();
    rest = await restClient(t.app);
    for (let i = 1; i <= 6; i++) {
      await buildResourceProvider(t.app.services, {
        name: `cn-${i}`,
        inventories: [
          { resourceClass: 'VCPU', total: 16 },
          { resourceClass: 'MEMORY_MB', total: i * 8192 },
        ],
      });
    }
  });
  afterAll(async () => {
    await rest.close();
    await t.close();
  });

  const explain = { ...ADMIN_LATEST, 'berth-explain': 'candidates' };

  it('names the blocking constraint and the closest host of a request nothing fits', async () => {
    const r = await rest.call('GET', '/allocation_candidates?resources=VCPU:2,MEMORY_MB:60000', {
      headers: explain,
    });
    expect(r.status).toBe(200);
    expect(r.json.allocation_requests).toEqual([]);
    const stage = r.json.berth_candidate_stage;
    expect(stage.hosts_total).toBe(6);
    expect(stage.hosts_with_candidates).toBe(0);
    expect(stage.blocking).toEqual([
      expect.objectContaining({
        kind: 'RESOURCE_CAPACITY',
        code: 'candidate.resource.capacity',
        resource_class: 'MEMORY_MB',
        amount: 60000,
        hosts_alone: 0,
      }),
    ]);
    expect(stage.closest_misses[0]).toMatchObject({
      host_name: 'cn-6',
      misses: [{ kind: 'RESOURCE_CAPACITY', message: 'MEMORY_MB 60000 requested, 49152 free' }],
    });
    expect(stage.summary).toMatch(/^no allocation candidates: no host has MEMORY_MB: 60000;/);
  });

  it('adds only its own member: the rest is byte for byte the answer without the header', async () => {
    const path = '/allocation_candidates?resources=VCPU:2,MEMORY_MB:20000&limit=2';
    const plain = await rest.call('GET', path);
    const extended = await rest.call('GET', path, { headers: explain });
    expect(plain.status).toBe(200);
    expect(plain.text).not.toContain('berth_candidate_stage');
    expect(plain.json.allocation_requests).toHaveLength(2);
    const at = extended.text.indexOf(',"berth_candidate_stage":');
    expect(at).toBeGreaterThan(0);
    expect(`${extended.text.slice(0, at)}}`).toBe(plain.text);
    expect(extended.json.berth_candidate_stage).toMatchObject({
      hosts_total: 6,
      hosts_with_candidates: 2,
      closest_misses: [],
    });
  });

  it('refuses another value with a clear 400, not a 500', async () => {
    const r = await rest.call('GET', '/allocation_candidates?resources=VCPU:1', {
      headers: { ...ADMIN_LATEST, 'berth-explain': 'everything' },
    });
    expect(r.status).toBe(400);
    // The facade sends Placement's own code for a 400 (src/placement/errors.ts restCode).
    expect(r.json.errors[0].code).toBe('placement.undefined_code');
    expect(r.json.errors[0].detail).toContain('the only value is "candidates"');
  });
});
