// Label cardinality stays bounded: 10,000 requests for distinct provider uuids make one request
// series per route, method and status class, 300 distinct GraphQL operation names make at most
// 100 named series plus `other`, and the lowest roles cannot use up those 100 labels.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { MAX_OPERATION_NAMES } from '../../src/observability/graphql-metrics';
import { createTestApp, type TestApp } from '../support/app';
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
