// GraphQL allocationCandidates with the shared filter syntax (src/placement/query-syntax.ts):
// member_of and required terms, group suffixes, and the placement.query.bad_value errors of
// malformed terms (gabbits allocation-candidates-member-of.yaml, granular.yaml).
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const CANDIDATES = `query C($r: AllocationCandidatesRequest!) {
  allocationCandidates(request: $r) { allocationRequests { allocations { provider { uuid } } } }
}`;

describe('allocationCandidates request syntax', () => {
  let t: TestApp;
  const agg = randomUUID();
  let member: string;
  beforeAll(async () => {
    t = await createTestApp();
    member = (
      await buildResourceProvider(t.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 4 }],
        aggregates: [agg],
      })
    ).uuid;
    await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const ask = (group: Record<string, unknown>) =>
    gql(t.app, CANDIDATES, {
      r: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }], ...group }] },
    });
  const uuids = (r: Awaited<ReturnType<typeof ask>>) =>
    r.data.allocationCandidates.allocationRequests.flatMap(
      (a: { allocations: { provider: { uuid: string } }[] }) =>
        a.allocations.map((x) => x.provider.uuid),
    );

  it('filters by member_of in any accepted uuid spelling, and by !in:', async () => {
    expect(uuids(await ask({ memberOf: [`in:${agg.toUpperCase()}`] }))).toEqual([member]);
    const others = uuids(await ask({ memberOf: [`!in:${agg},${randomUUID()}`] }));
    expect(others).not.toContain(member);
    expect(others.length).toBeGreaterThan(0);
  });

  it.each([
    { name: "'!' inside in:", group: { memberOf: [`in:${randomUUID()},!${randomUUID()}`] } },
    { name: 'several aggregates without in:', group: { memberOf: [`${agg},${randomUUID()}`] } },
    { name: 'a trait required and forbidden', group: { required: ['CUSTOM_A', '!CUSTOM_A'] } },
    { name: "'!' inside a trait in:", group: { required: ['in:CUSTOM_A,!CUSTOM_B'] } },
    { name: 'a suffix with a bad character', group: { suffix: 'bad!' } },
  ])('answers berth.invalid_input for $name', async ({ group }) => {
    const r = await ask(group);
    expect(r.data).toBeNull();
    expect(firstError(r)).toMatchObject({ code: 'berth.invalid_input', status: 400 });
  });

  it.each([
    {
      name: 'no group asks for resources',
      request: { groups: [{ resources: [], required: ['CUSTOM_A'] }] },
      code: 'berth.candidates.no_resources',
      message: 'At least one request group must ask for resources.',
    },
    {
      name: 'two suffixed groups without groupPolicy',
      request: {
        groups: ['1', '2'].map((suffix) => ({
          suffix,
          resources: [{ resourceClass: 'VCPU', amount: 1 }],
        })),
      },
      code: 'berth.candidates.invalid_request',
      message: 'groupPolicy is required when more than one request group asks for resources.',
    },
    {
      name: 'an unknown resource class',
      request: { groups: [{ resources: [{ resourceClass: 'CUSTOM_NOPE', amount: 1 }] }] },
      code: 'berth.resource_class.not_found',
      message: 'No such resource class CUSTOM_NOPE.',
    },
  ])('speaks GraphQL, not REST, when $name', async ({ request, code, message }) => {
    const r = await gql(t.app, CANDIDATES, { r: request });
    expect(firstError(r)).toEqual({ code, status: 400, message });
  });
});
