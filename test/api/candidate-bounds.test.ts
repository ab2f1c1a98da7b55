// Allocation candidates are bounded: the attack run's request (6 suffixed groups, group_policy
// none, a root with 12 children of one class, no limit: 12^6 ≈ 3 M combinations) is refused with
// berth.too_many_candidates instead of enumerating until the heap dies; a limit or randomize
// answers a bounded body; the replica keeps serving other requests.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const HEADERS = {
  'x-auth-token': 'admin',
  accept: 'application/json',
  'openstack-api-version': 'placement 1.39',
};
const SIX_GROUPS = [1, 2, 3, 4, 5, 6].map((n) => `resources${n}=VCPU:1`).join('&');

describe('allocation-candidate bounds', () => {
  let t: TestApp;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ BERTH_REST_AUTH: 'noauth2' });
    const root = await buildResourceProvider(t.app.services, {});
    for (let i = 0; i < 12; i++) {
      await buildResourceProvider(t.app.services, {
        parentUuid: root.uuid,
        inventories: [{ resourceClass: 'VCPU', total: 8 }],
      });
    }
    server = createServer((req, res) => t.app.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const get = (query: string) =>
    fetch(`${base}/placement/allocation_candidates?${query}`, { headers: HEADERS });

  it('refuses the unlimited request with a clear 400 while another request is served', async () => {
    const [big, health] = await Promise.all([
      get(`${SIX_GROUPS}&group_policy=none`),
      fetch(`${base}/healthz`),
    ]);
    expect(health.status).toBe(200);
    expect(big.status).toBe(400);
    const body = (await big.json()) as { errors: { code: string; detail: string }[] };
    expect(body.errors[0]!.code).toBe('berth.too_many_candidates');
    expect(body.errors[0]!.detail).toMatch(/pass limit/);
  });

  it('answers a limited request with exactly `limit` candidates', async () => {
    const r = await get(`${SIX_GROUPS}&group_policy=none&limit=7`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { allocation_requests: unknown[] };
    expect(body.allocation_requests).toHaveLength(7);
  });

  it('lowers a limit above BERTH_CANDIDATE_MAX_RESULTS to it', async () => {
    const r = await get(`${SIX_GROUPS}&group_policy=none&limit=50000`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { allocation_requests: unknown[] };
    expect(body.allocation_requests).toHaveLength(10_000);
  });

  it('bounds GraphQL the same way', async () => {
    const groups = [1, 2, 3, 4, 5, 6].map((n) => ({
      suffix: String(n),
      resources: [{ resourceClass: 'VCPU', amount: 1 }],
    }));
    const q = `query($r: AllocationCandidatesRequest!) { allocationCandidates(request: $r) {
      allocationRequests { allocations { provider { uuid } } } } }`;
    const none = await gql(t.app, q, { r: { groups, groupPolicy: 'NONE' } });
    expect(none.errors?.[0]?.extensions?.code).toBe('berth.too_many_candidates');
    const limited = await gql(t.app, q, { r: { groups, groupPolicy: 'NONE', limit: 2 } });
    expect(limited.data.allocationCandidates.allocationRequests).toHaveLength(2);
    // randomize samples from a bounded walk (BERTH_CANDIDATE_MAX_EXAMINED), not the whole stream.
    const sampled = await gql(t.app, q, {
      r: { groups, groupPolicy: 'NONE', limit: 3, randomize: true },
    });
    expect(sampled.data.allocationCandidates.allocationRequests).toHaveLength(3);
    const unlimitedSample = await gql(t.app, q, {
      r: { groups, groupPolicy: 'NONE', randomize: true },
    });
    expect(unlimitedSample.errors?.[0]?.extensions?.code).toBe('berth.too_many_candidates');
  });
});
