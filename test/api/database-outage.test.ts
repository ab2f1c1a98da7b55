// A database outage (connections cut, new ones refused) through a TCP proxy in front of the test
// database: REST and GraphQL answer the retryable berth.unavailable (503), never a 500 or a
// masked error; /readyz says not ready; once the database is back, the pool reconnects.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { DataSource } from 'typeorm';
import { type App, createApp } from '../../src/app/app';
import { MemoryCache } from '../../src/cache/memory-cache';
import { loadConfig } from '../../src/config/config';
import { createDataSource } from '../../src/db/data-source';
import { createLogger } from '../../src/observability/logger';
import { createTestDb, type TestDb, testDatabaseUrl } from '../support/db';

/** A loopback TCP proxy to the database that can cut every connection and refuse new ones. */
class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Resets every open connection and stops listening (new connections are refused). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) {
      s.resetAndDestroy();
    }
    await new Promise((resolve) => server?.close(resolve));
  }
}

describe('database outage', () => {
  let db: TestDb;
  let proxied: DataSource;
  let proxy: CuttableProxy;
  let app: App;
  /** The same database with authentication on, and a token it has never looked up. */
  let authed: App;
  let uncachedToken: string;

  beforeAll(async () => {
    db = await createTestDb();
    const url = new URL(testDatabaseUrl());
    proxy = new CuttableProxy(url.hostname, Number(url.port || 5432));
    await proxy.open();
    url.host = `127.0.0.1:${proxy.port}`;
    proxied = createDataSource({ url: url.toString(), schema: db.schema, poolSize: 2 });
    await proxied.initialize();
    app = await createApp(
      loadConfig({ NODE_ENV: 'test', BERTH_REST_AUTH: 'noauth2' }),
      createLogger('silent'),
      { dataSource: proxied, cache: new MemoryCache(), changeChannel: `c_${db.schema}` },
    );
    authed = await createApp(
      loadConfig({ NODE_ENV: 'test', BERTH_AUTH: 'on', BERTH_REST_AUTH: 'token' }),
      createLogger('silent'),
      { dataSource: proxied, cache: new MemoryCache(), changeChannel: `a_${db.schema}` },
    );
    uncachedToken = (await authed.tokens.create({ role: 'reader' })).token;
  });
  afterAll(async () => {
    await authed.close();
    await app.close();
    await proxied.destroy().catch(() => undefined);
    await proxy.cut().catch(() => undefined);
    await db.drop();
  });

  async function rest(path: string) {
    const server = createHttpServer((req, res) => app.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const res = await fetch(`http://127.0.0.1:${port}/placement${path}`, {
        headers: {
          'x-auth-token': 'admin',
          accept: 'application/json',
          'openstack-api-version': 'placement 1.39',
        },
      });
      const body = (await res.json()) as { errors?: { code?: string }[] };
      return { status: res.status, code: body.errors?.[0]?.code };
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  async function graphql(query: string) {
    const res = await app.graphql.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await res.json()) as {
      data?: unknown;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
  }

  it('answers berth.unavailable while the database is unreachable and recovers after', async () => {
    const name = `outage-${randomUUID()}`;
    const create = `mutation { createResourceProvider(input: { name: "${name}" }) { name } }`;
    expect(await graphql(create)).toEqual({ data: { createResourceProvider: { name } } });

    await proxy.cut();
    const read = await graphql('{ resourceProviders(first: 5) { edges { node { name } } } }');
    const write = await graphql(
      `mutation { createResourceProvider(input: { name: "${name}-2" }) { name } }`,
    );
    const restRead = await rest('/resource_providers');
    const ready = await app.readiness();
    // A token not yet cached must be looked up: the answer is a JSON 503, not a stack trace.
    const authRes = await authed.graphql.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${uncachedToken}` },
      body: JSON.stringify({ query: '{ version { berth } }' }),
    });
    const authBody = (await authRes.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect({ status: authRes.status, code: authBody.errors?.[0]?.extensions?.code }).toEqual({
      status: 503,
      code: 'berth.unavailable',
    });
    expect({
      read: read.errors?.map((e) => e.extensions?.code),
      write: write.errors?.map((e) => e.extensions?.code),
      restRead,
      ready: ready.ready,
    }).toEqual({
      read: ['berth.unavailable'],
      write: ['berth.unavailable'],
      restRead: { status: 503, code: 'berth.unavailable' },
      ready: false,
    });

    await proxy.open();
    expect((await app.readiness()).ready).toBe(true);
    const after = await graphql('{ resourceProviders(first: 5) { edges { node { name } } } }');
    expect(after).toEqual({ data: { resourceProviders: { edges: [{ node: { name } }] } } });
    expect(await rest('/resource_providers')).toEqual({ status: 200, code: undefined });
  });
});
