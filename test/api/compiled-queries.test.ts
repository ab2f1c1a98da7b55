// Queries run compiled (src/graphql/compiled-queries.ts): variables are coerced as graphql-js
// does (input-object defaults filled, the same errors for bad values), answers equal the
// interpreted ones, and a candidates answer that reads only provider uuids looks nothing up.
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';
import { QueryCounter } from '../support/query-counter';

const CANDIDATES = `query($r: AllocationCandidatesRequest!) { allocationCandidates(request: $r) {
  allocationRequests { allocations { provider { uuid } resources { resourceClass amount } } mappings { suffix providerUuids } }
  providerSummaries { provider { uuid } resources { resourceClass capacity used } traits } } }`;
const WITH_NAMES = CANDIDATES.replace(
  'providerSummaries { provider { uuid }',
  'providerSummaries { provider { uuid name }',
);
const request = { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 2 }] }] };

describe('compiled queries', () => {
  const counter = new QueryCounter();
  let t: TestApp;
  const names = new Map<string, string>();
  beforeAll(async () => {
    t = await createTestApp({}, { dbLogger: counter });
    for (let i = 0; i < 5; i++) {
      const rp = await buildResourceProvider(t.app.services, {
        name: `compiled-${i}`,
        inventories: [{ resourceClass: 'VCPU', total: 8 }],
        traits: ['HW_CPU_X86_AVX2'],
      });
      names.set(rp.uuid, `compiled-${i}`);
    }
    await t.app.services.candidates.current();
  });
  afterAll(async () => {
    await t.close();
  });

  it('fills input-object defaults of variables (a group without suffix is the unsuffixed one)', async () => {
    const r = await gql(t.app, CANDIDATES, { r: request });
    expect(r.errors).toBeUndefined();
    const c = r.data.allocationCandidates;
    expect(c.allocationRequests).toHaveLength(5);
    for (const ar of c.allocationRequests) {
      expect(ar.mappings).toEqual([
        { suffix: '', providerUuids: [ar.allocations[0].provider.uuid] },
      ]);
      expect(ar.allocations[0].resources).toEqual([{ resourceClass: 'VCPU', amount: 2 }]);
    }
    expect(
      c.providerSummaries.map((s: { provider: { uuid: string } }) => s.provider.uuid).sort(),
    ).toEqual([...names.keys()].sort());
  });

  it('reports a bad variable as graphql-js does, and runs nothing', async () => {
    const r = await gql(t.app, CANDIDATES, {
      r: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 'two' }] }] },
    });
    expect(r.data).toBeUndefined();
    expect(r.errors?.[0]?.message).toMatch(
      /^Variable "\$r" got invalid value "two" at "r\.groups\[0\]\.resources\[0\]\.amount"/,
    );
  });

  it('reads only provider uuids without a provider lookup, and loads them when more is asked', async () => {
    const uuidsOnly = await counter.count(() => gql(t.app, CANDIDATES, { r: request }));
    expect(uuidsOnly.result.errors).toBeUndefined();
    expect(uuidsOnly.queries.filter((q) => /resource_providers/.test(q))).toEqual([]);

    const named = await counter.count(() => gql(t.app, WITH_NAMES, { r: request }));
    expect(named.result.errors).toBeUndefined();
    expect(named.queries.some((q) => /resource_providers/.test(q))).toBe(true);
    for (const s of named.result.data.allocationCandidates.providerSummaries) {
      expect(s.provider.name).toBe(names.get(s.provider.uuid));
    }
  });

  it('answers a literal request as the same request in variables', async () => {
    const compiled = await gql(t.app, CANDIDATES, { r: request });
    const literal = await gql(
      t.app,
      CANDIDATES.replace('query($r: AllocationCandidatesRequest!)', 'query').replace(
        'request: $r',
        'request: { groups: [{ suffix: "", resources: [{ resourceClass: "VCPU", amount: 2 }] }] }',
      ),
      {},
    );
    expect(literal.errors).toBeUndefined();
    expect(literal.data).toEqual(compiled.data);
  });
});
