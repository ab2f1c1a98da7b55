// Build results end to end (nova/compute/manager.py _build_failed / _build_succeeded and
// BuildFailureWeigher): reportBuildFailure / reportBuildSuccess keep each host's count of
// consecutive failed builds as Nova's compute stats do, write an audit event when the count
// changes, and the change reaches the scheduler's host views at once — on this replica and,
// through NOTIFY, on another one — so BuildFailureWeigher ranks the failing host last.
import { randomUUID } from 'node:crypto';
import { createApp } from '../../src/app/app';
import { createLogger } from '../../src/observability/logger';
import { createTestApp, createTestCache, type TestApp } from '../support/app';
import { realPostgresIt, testDatabaseUrl } from '../support/db';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const FAILURE = `mutation F($input: BuildResultInput!) {
  reportBuildFailure(input: $input) { host { uuid } failedBuilds }
}`;
const SUCCESS = `mutation S($input: BuildResultInput!) {
  reportBuildSuccess(input: $input) { host { uuid } failedBuilds }
}`;
const EXPLAIN = `query E($i: ScheduleInput!) { explainPlacement(input: $i) {
  ranking { host { uuid } weight weights { weigher raw multiplier } }
} }`;
const AUDIT = `query A($p: ID) { auditEvents(first: 10, provider: $p) {
  edges { node { operation providers details } }
} }`;

describe('build results (reportBuildFailure / reportBuildSuccess)', () => {
  let t: TestApp;
  let a = '';
  let b = '';
  let child = '';

  type Ranked = { host: { uuid: string }; weight: number; weights: { raw: number }[] };

  /** The ranking of a 1-VCPU request: host uuid -> [raw failed builds, weight], best first. */
  async function ranking(app = t.app): Promise<[string, number, number][]> {
    const r = await gql(app, EXPLAIN, {
      i: {
        consumerUuids: [randomUUID()],
        projectId: 'p',
        userId: 'u',
        request: { groups: [{ suffix: '', resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
      },
    });
    expect(r.errors).toBeUndefined();
    return r.data.explainPlacement.ranking.map((h: Ranked) => [
      h.host.uuid,
      h.weights[0]!.raw,
      h.weight,
    ]);
  }

  async function report(mutation: string, providerUuid: string) {
    return gql(t.app, mutation, { input: { providerUuid } });
  }

  beforeAll(async () => {
    t = await createTestApp({
      BERTH_SCHEDULER_FILTERS: 'ComputeFilter',
      BERTH_SCHEDULER_WEIGHERS: 'BuildFailureWeigher',
      BERTH_SCHEDULER_CONFIG: JSON.stringify({ BuildFailureWeigher: { multiplier: 1000 } }),
    });
    const inv = [{ resourceClass: 'VCPU', total: 8 }];
    a = (await buildResourceProvider(t.app.services, { name: 'bf-a', inventories: inv })).uuid;
    b = (await buildResourceProvider(t.app.services, { name: 'bf-b', inventories: inv })).uuid;
    child = (await buildResourceProvider(t.app.services, { name: 'bf-a-numa', parentUuid: a }))
      .uuid;
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts failures, resets on success, and the weigher sees each change at once', async () => {
    expect((await ranking()).map(([, raw]) => raw)).toEqual([0, 0]);
    for (const want of [1, 2]) {
      const r = await report(FAILURE, a);
      expect(r.errors).toBeUndefined();
      expect(r.data.reportBuildFailure).toEqual({ host: { uuid: a }, failedBuilds: want });
    }
    expect(await ranking()).toEqual([
      [b, 0, 0],
      [a, 2, -1000],
    ]);
    const ok = await report(SUCCESS, a);
    expect(ok.data.reportBuildSuccess).toEqual({ host: { uuid: a }, failedBuilds: 0 });
    expect((await ranking()).map(([, raw, weight]) => [raw, weight])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });

  it('shows the count on the provider', async () => {
    await report(FAILURE, b);
    const r = await gql(
      t.app,
      `query Q($a: ID!, $b: ID!, $c: ID!) { a: resourceProvider(uuid: $a) { failedBuilds }
        b: resourceProvider(uuid: $b) { failedBuilds } c: resourceProvider(uuid: $c) { failedBuilds } }`,
      { a, b, c: child },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({
      a: { failedBuilds: 0 },
      b: { failedBuilds: 1 },
      c: { failedBuilds: 0 },
    });
    await report(SUCCESS, b);
  });

  it('audits a change, and writes nothing for a success on a host without failures', async () => {
    const host = (await buildResourceProvider(t.app.services, { name: `bf-audit-${randomUUID()}` }))
      .uuid;
    const events = async () =>
      (await gql(t.app, AUDIT, { p: host })).data.auditEvents.edges.map(
        (e: { node: object }) => e.node,
      );
    const before = (await events()).length;
    expect((await report(SUCCESS, host)).data.reportBuildSuccess.failedBuilds).toBe(0);
    expect(await events()).toHaveLength(before);
    await report(FAILURE, host);
    await report(SUCCESS, host);
    expect((await events()).slice(0, 2)).toEqual([
      {
        operation: 'mutation reportBuildSuccess',
        providers: [host],
        details: { failed_builds: { provider: host, old: 1, new: 0 } },
      },
      {
        operation: 'mutation reportBuildFailure',
        providers: [host],
        details: { failed_builds: { provider: host, old: 0, new: 1 } },
      },
    ]);
  });

  it.each([
    {
      what: 'an unknown provider',
      uuid: () => randomUUID(),
      code: 'placement.resource_provider.not_found',
    },
    { what: 'a provider that is not a root', uuid: () => child, code: 'berth.invalid_input' },
    { what: 'a malformed uuid', uuid: () => 'not-a-uuid', code: 'berth.invalid_uuid' },
  ])('refuses $what', async ({ uuid, code }) => {
    for (const mutation of [FAILURE, SUCCESS]) {
      const r = await report(mutation, uuid());
      expect(r.errors?.map((e: { extensions?: { code?: string } }) => e.extensions?.code)).toEqual([
        code,
      ]);
    }
  });

  // PGlite is one session: a NOTIFY reaches only the connection that sent it, never another
  // replica's listener. Real PostgreSQL only (skipped, visibly, on the embedded database).
  realPostgresIt('reaches another replica through the change notifications', async () => {
    const other = await createApp(t.app.config, createLogger('silent'), {
      dataSource: t.db.dataSource,
      cache: createTestCache(),
      changeChannel: `berth_changes_${t.db.schema}`,
      listenUrl: testDatabaseUrl(),
    });
    try {
      expect((await ranking(other)).map(([, raw]) => raw)).toEqual([0, 0]);
      await report(FAILURE, b);
      let seen: [string, number, number][] = [];
      // The notification's delay is the machine's: wait for it up to 20 s, however busy.
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
        seen = await ranking(other);
        if (seen.some(([, raw]) => raw === 1)) {
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(seen).toEqual([
        [a, 0, 0],
        [b, 1, -1000],
      ]);
    } finally {
      await other.close();
      await report(SUCCESS, b);
    }
  });

  it('forgets the count with the provider', async () => {
    const host = await buildResourceProvider(t.app.services, {
      name: `bf-gone-${randomUUID()}`,
    });
    await report(FAILURE, host.uuid);
    await t.app.services.providers.delete(host.uuid);
    const rows = await t.app.services.dataSource.query(
      'SELECT count(*)::int AS n FROM build_failures',
    );
    expect(rows[0].n).toBe(0);
  });
});
