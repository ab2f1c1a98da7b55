// A database that answers but cannot write (a standby reached during a failover, or a crashed
// primary restarting read-only before it is promoted again: SQLSTATE 25006) makes /readyz say
// not ready, and a write answer the retryable berth.unavailable, never a 500. The read-only server
// is a real PostgreSQL session with default_transaction_read_only on (PGlite's socket server
// ignores startup options: real PostgreSQL only).
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type App, createApp } from '../../src/app/app';
import { MemoryCache } from '../../src/cache/memory-cache';
import { loadConfig } from '../../src/config/config';
import { createDataSource } from '../../src/db/data-source';
import { createLogger } from '../../src/observability/logger';
import { createTestDb, realPostgresIt, type TestDb, testDatabaseUrl } from '../support/db';

describe('a read-only database', () => {
  let db: TestDb;
  let readOnly: DataSource | undefined;
  let app: App | undefined;

  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await app?.close();
    await readOnly?.destroy();
    await db.drop();
  });

  realPostgresIt('is not ready, and a write answers berth.unavailable', async () => {
    const url = new URL(testDatabaseUrl());
    url.searchParams.set('options', '-c default_transaction_read_only=on');
    readOnly = createDataSource({ url: url.toString(), schema: db.schema, poolSize: 2 });
    await readOnly.initialize();
    app = await createApp(
      loadConfig({ NODE_ENV: 'test', BERTH_REST_AUTH: 'noauth2' }),
      createLogger('silent'),
      { dataSource: readOnly, cache: new MemoryCache(), changeChannel: `ro_${db.schema}` },
    );
    const ready = await app.readiness();
    expect(ready.ready).toBe(false);
    expect(ready.checks.database).toMatch(/^read-only/);

    const res = await app.graphql.fetch('http://test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `mutation { createResourceProvider(input: { name: "ro-${randomUUID()}" }) { name } }`,
      }),
    });
    const body = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['berth.unavailable']);

    // The same schema through a writable session is ready.
    const writable = await createApp(
      loadConfig({ NODE_ENV: 'test', BERTH_REST_AUTH: 'noauth2' }),
      createLogger('silent'),
      { dataSource: db.dataSource, cache: new MemoryCache(), changeChannel: `rw_${db.schema}` },
    );
    try {
      expect((await writable.readiness()).ready).toBe(true);
    } finally {
      await writable.close();
    }
  });
});
