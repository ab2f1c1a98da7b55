// Label cardinality stays bounded: 10,000 requests for distinct provider uuids make one request
// series per route, method and status class, 300 distinct GraphQL operation names make at most
// 100 named series plus `other`, the lowest roles cannot use up those 100 labels, and the
// capacity gauges have series for the BERTH_METRICS_AGGREGATES largest aggregates plus `other`.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { MAX_OPERATION_NAMES } from '../../src/observability/graphql-metrics';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';
import { sampleLines, scrape, seriesOf, served } from '../support/metrics';

describe('/metrics label cardinality', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('10,000 distinct provider uuids make one series per route, method and status', async () => {
    const text = await served(t.app, async (base) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      const one = (path: string) =>
        new Promise<number>((resolve, reject) => {
          // An unsupported microversion is refused before any database work: the request is
          // routed, answered 406 and timed like any other.
          const req = request(
            `${base}${path}`,
            { agent, headers: { 'openstack-api-version': 'placement 9.99' } },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end();
        });
      let next = 0;
      const statuses = new Set<number>();
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < 10_000) {
            next++;
            statuses.add(
              await one(`${t.app.config.restPrefix}/resource_providers/${randomUUID()}`),
            );
          }
        }),
      );
      agent.destroy();
      expect([...statuses]).toEqual([406]);
      return scrape(base);
    });
    const lines = sampleLines(text);
    expect(seriesOf(lines, 'berth_http_request_duration_seconds')).toEqual([
      {
        route: `${t.app.config.restPrefix}/resource_providers/{uuid}`,
        method: 'GET',
        status: '4xx',
      },
    ]);
    const buckets = lines.filter((l) => l.name === 'berth_http_request_duration_seconds_bucket');
    expect(buckets.length).toBeLessThan(20);
    expect(lines.find((l) => l.name === 'berth_http_request_duration_seconds_count')?.value).toBe(
      10_000,
    );
  }, 120_000); // 10,000 HTTP requests: seconds on a quiet machine, a minute on a busy one

  it('keeps the first operation names and counts the rest as other', async () => {
    for (let i = 0; i < 3 * MAX_OPERATION_NAMES; i++) {
      const res = await gql(t.app, `query Op${i} { __typename }`);
      expect(res.errors).toBeUndefined();
    }
    await gql(t.app, '{ __typename }');
    const text = await served(t.app, scrape);
    const names = seriesOf(sampleLines(text), 'berth_graphql_operation_duration_seconds').map(
      (l) => l.operation_name,
    );
    expect(names).toHaveLength(MAX_OPERATION_NAMES + 2);
    expect(names).toEqual(
      expect.arrayContaining(['Op0', `Op${MAX_OPERATION_NAMES - 1}`, 'other', 'anonymous']),
    );
    expect(names).not.toContain(`Op${MAX_OPERATION_NAMES}`);
  });
});

describe('/metrics operation labels with auth on', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on', BERTH_METRICS_OPERATION_NAMES: 'ConsoleVersion' });
    tokens.member = (await t.app.tokens.create({ role: 'member', project: 'p' })).token;
    tokens.reader = (await t.app.tokens.create({ role: 'reader' })).token;
    tokens.scheduler = (await t.app.tokens.create({ role: 'scheduler' })).token;
  });
  afterAll(async () => {
    await t.close();
  });

  const run = async (role: string, name: string) => {
    const res = await gql(
      t.app,
      `query ${name} { version { berth } }`,
      {},
      {
        authorization: `Bearer ${tokens[role]}`,
      },
    );
    expect(res.errors).toBeUndefined();
  };

  it('gives member and reader tokens no labels of their own: random names read other', async () => {
    await run('scheduler', 'NovaPlace');
    for (let i = 0; i < 3 * MAX_OPERATION_NAMES; i++) {
      await run(i % 2 === 0 ? 'member' : 'reader', `Random${randomUUID().replaceAll('-', '')}`);
    }
    // Names a trusted caller used, and the configured ones, keep their labels for everyone.
    await run('member', 'NovaPlace');
    await run('member', 'ConsoleVersion');
    await run('scheduler', 'LaterName');
    const text = await served(t.app, scrape);
    const counts = Object.fromEntries(
      sampleLines(text)
        .filter((l) => l.name === 'berth_graphql_operation_duration_seconds_count')
        .map((l) => [l.labels.operation_name, l.value]),
    );
    expect(counts).toEqual({
      NovaPlace: 2,
      ConsoleVersion: 1,
      LaterName: 1,
      other: 3 * MAX_OPERATION_NAMES,
    });
  });
});

describe('/metrics capacity series per aggregate', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BERTH_METRICS_AGGREGATES: '3' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the 3 largest aggregates and sums the providers of the other 5 once as other', async () => {
    // Aggregate i has i + 1 hosts of 8 VCPU; one host is in the two smallest aggregates.
    const aggs = Array.from({ length: 8 }, () => randomUUID());
    for (const [i, agg] of aggs.entries()) {
      for (let h = 0; h <= i; h++) {
        await buildResourceProvider(t.app.services, {
          inventories: [{ resourceClass: 'VCPU', total: 8 }],
          aggregates: i === 1 && h === 0 ? [agg, aggs[0]!] : [agg],
        });
      }
    }
    await t.app.services.aggregates.setMetadata(aggs[7]!, 'rack-7', []);
    const lines = sampleLines(await served(t.app, scrape));
    const allocatable = lines.filter(
      (l) => l.name === 'berth_aggregate_capacity_allocatable_units',
    );
    expect(Object.fromEntries(allocatable.map((l) => [l.labels.aggregate, l.value]))).toEqual({
      [aggs[7]!]: 64,
      [aggs[6]!]: 56,
      [aggs[5]!]: 48,
      // aggregates 0 to 4: 1 + 2 + 3 + 4 + 5 hosts (aggregate 0 also holds one of 1's, counted once).
      other: 8 * 15,
    });
    expect(allocatable.every((l) => l.labels.resource_class === 'VCPU')).toBe(true);
    for (const name of [
      'berth_aggregate_capacity_used_units',
      'berth_aggregate_capacity_free_units',
    ]) {
      expect(lines.filter((l) => l.name === name)).toHaveLength(4);
    }
    expect(
      lines
        .filter((l) => l.name === 'berth_aggregate_info')
        .map((l) => l.labels.aggregate)
        .sort(),
    ).toEqual([aggs[5]!, aggs[6]!, aggs[7]!, 'other'].sort());
    const info = lines.filter((l) => l.name === 'berth_aggregate_info');
    expect(Object.fromEntries(info.map((l) => [l.labels.aggregate, l.labels.name]))).toEqual({
      [aggs[7]!]: 'rack-7',
      [aggs[6]!]: '',
      [aggs[5]!]: '',
      other: '(other aggregates)',
    });
    expect(lines.find((l) => l.name === 'berth_capacity_allocatable_units')?.value).toBe(8 * 36);
  });
});
