// GraphQL subscriptions over Server-Sent Events across two replicas on one PostgreSQL: a write on
// replica A reaches a subscriber on replica B (LISTEN/NOTIFY), filtered by provider filter and by
// project; capacity rollups are re-sent after changes; project-scoped tokens only watch their own
// project; the number of open subscriptions per caller is capped.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { type App, createApp } from '../../src/app/app';
import { MemoryCache } from '../../src/cache/memory-cache';
import { loadConfig } from '../../src/config/config';
import { createDataSource } from '../../src/db/data-source';
import { createLogger } from '../../src/observability/logger';
import { allocationInput } from '../support/allocation-input';
import { createTestApp, type TestApp } from '../support/app';
import { onEmbedded, testDatabaseUrl } from '../support/db';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';
import { subscribe } from '../support/sse';

// Events between replicas travel by LISTEN/NOTIFY, which needs real PostgreSQL (DATABASE_URL):
// those tests are skipped visibly on embedded PGlite.
const acrossReplicas = onEmbedded() ? it.skip : it;

describe('subscriptions across two replicas', () => {
  let a: TestApp; // writes
  let bData: DataSource;
  let b: App; // subscribers (auth on, at most 3 subscriptions per caller)
  let server: Server;
  let bUrl: string;
  let host: string;
  let reader: string;
  let scoped: string;

  beforeAll(async () => {
    a = await createTestApp();
    bData = createDataSource({ url: testDatabaseUrl(), schema: a.db.schema, poolSize: 4 });
    await bData.initialize();
    b = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        BERTH_AUTH: 'on',
        BERTH_RATE_LIMIT: '0',
        BERTH_MAX_SUBSCRIPTIONS: '3',
      }),
      createLogger('silent'),
      {
        dataSource: bData,
        cache: new MemoryCache(),
        changeChannel: `berth_changes_${a.db.schema}`,
        listenUrl: testDatabaseUrl(),
      },
    );
    server = createServer((req, res) => b.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    bUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    reader = (await a.app.tokens.create({ role: 'reader' })).token;
    scoped = (await a.app.tokens.create({ role: 'reader', project: 'p-own' })).token;
    host = (
      await buildResourceProvider(a.app.services, {
        name: 'live-host',
        inventories: [{ resourceClass: 'VCPU', total: 64 }],
      })
    ).uuid;
    // B has heard of the host before the tests subscribe.
    for (let i = 0; i < 50 && (await b.services.capacity.ofTree(host)).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await b.close();
    await bData.destroy();
    await a.close();
  });

  const claimOn = (projectId: string, vcpu = 1) =>
    gql(
      a.app,
      'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
      {
        i: [allocationInput(host, { VCPU: vcpu }, { projectId })],
      },
    );

  acrossReplicas(
    'delivers a claim made on replica A to providerChanged and allocationsChanged on B',
    async () => {
      const providers = await subscribe(
        bUrl,
        'subscription { providerChanged(filter: { nameContains: "live-" }) { resync providerUuids providers { name } } }',
        {},
        reader,
      );
      const mine = await subscribe(
        bUrl,
        'subscription($p: String!) { allocationsChanged(projectId: $p) { projectId resync providerUuids } }',
        { p: 'p-watch' },
        reader,
      );
      try {
        await new Promise((r) => setTimeout(r, 300)); // subscriptions are open on B
        expect((await claimOn('p-other')).errors).toBeUndefined();
        expect((await claimOn('p-watch')).errors).toBeUndefined();
        const p1 = await providers.next();
        expect(p1).toEqual({
          data: {
            providerChanged: {
              resync: false,
              providerUuids: [host],
              providers: [{ name: 'live-host' }],
            },
          },
        });
        // The other project's claim is not this subscription's business: the first event is p-watch.
        expect(await mine.next()).toEqual({
          data: {
            allocationsChanged: { projectId: 'p-watch', resync: false, providerUuids: [host] },
          },
        });
        expect(await mine.next(1000)).toBe('timeout');
      } finally {
        await providers.close();
        await mine.close();
      }
    },
  );

  acrossReplicas('sends the capacity rollup at once and again after a change', async () => {
    const s = await subscribe(
      bUrl,
      `subscription { capacityChanged(filter: { nameContains: "live-" }, minIntervalMs: 100) {
        groups { providerCount lines { resourceClass used capacity } } } }`,
      {},
      reader,
    );
    try {
      const first = (await s.next()) as { data: any };
      const used0 = first.data.capacityChanged.groups[0].lines[0].used as number;
      expect(first.data.capacityChanged.groups[0].lines[0]).toMatchObject({
        resourceClass: 'VCPU',
        capacity: 64,
      });
      expect((await claimOn('p-cap', 2)).errors).toBeUndefined();
      const second = (await s.next()) as { data: any };
      expect(second.data.capacityChanged.groups[0].lines[0].used).toBe(used0 + 2);
    } finally {
      await s.close();
    }
  });

  it('refuses a project-scoped token another project', async () => {
    const other = await subscribe(
      bUrl,
      'subscription { allocationsChanged(projectId: "p-watch") { projectId } }',
      {},
      scoped,
    );
    const refused = await other.next();
    await other.close();
    expect(refused).toMatchObject({ errors: [{ extensions: { code: 'berth.forbidden' } }] });
  });

  acrossReplicas('lets a project-scoped token watch its own project', async () => {
    const own = await subscribe(
      bUrl,
      'subscription { allocationsChanged(projectId: "p-own") { projectId } }',
      {},
      scoped,
    );
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect((await claimOn('p-own')).errors).toBeUndefined();
      expect(await own.next()).toEqual({ data: { allocationsChanged: { projectId: 'p-own' } } });
    } finally {
      await own.close();
    }
  });

  it('caps open subscriptions per caller and frees the slot when one closes', async () => {
    const token = (await a.app.tokens.create({ role: 'reader' })).token;
    const q = 'subscription { providerChanged { resync } }';
    const open = [
      await subscribe(bUrl, q, {}, token),
      await subscribe(bUrl, q, {}, token),
      await subscribe(bUrl, q, {}, token),
    ];
    await new Promise((r) => setTimeout(r, 200));
    const fourth = await subscribe(bUrl, q, {}, token);
    expect(await fourth.next()).toMatchObject({
      errors: [{ extensions: { code: 'berth.too_many_subscriptions' } }],
    });
    await fourth.close();
    await open[0]!.close();
    for (let i = 0; i < 50 && b.services.live.openFor(`token:${token.split('_')[1]}`) > 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(b.services.live.openFor(`token:${token.split('_')[1]}`)).toBe(2);
    const again = await subscribe(bUrl, q, {}, token);
    await new Promise((r) => setTimeout(r, 200));
    expect(b.services.live.openFor(`token:${token.split('_')[1]}`)).toBe(3);
    await Promise.all([again, ...open.slice(1)].map((s) => s.close()));
  });

  it('refuses a subscription without a token when auth is on', async () => {
    const s = await subscribe(bUrl, 'subscription { providerChanged { resync } }');
    expect(await s.next()).toMatchObject({
      errors: [{ extensions: { code: 'berth.unauthenticated' } }],
    });
    await s.close();
  });
});
