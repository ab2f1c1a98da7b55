// A write whose connection is lost while COMMIT is in flight is never answered as what it was not.
// A TCP proxy in front of the test database cuts the connection at the COMMIT message: either
// before passing it on (the server rolls back) or after the server answered it (the server
// committed; the client never hears). writeTransaction settles the outcome with the transaction's
// commit marker on a new connection: the first answers success, the second berth.unavailable
// with nothing written; a database it cannot ask answers berth.commit_unknown.
import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { DataSource } from 'typeorm';
import { resolveCommit } from '../../src/db/commit-outcome';
import { createDataSource } from '../../src/db/data-source';
import { ChangeBus, writeTransaction } from '../../src/placement/change-bus';
import { CommitUnknownError, UnavailableError } from '../../src/placement/errors';
import { createTestDb, type TestDb, testDatabaseUrl } from '../support/db';

/** The simple-protocol Query message node-postgres sends for `COMMIT`. */
const COMMIT = Buffer.concat([Buffer.from([0x51, 0, 0, 0, 11]), Buffer.from('COMMIT\0')]);

type Cut = 'before-commit' | 'after-commit-answered';

/** A loopback proxy that, once armed, cuts the next connection that sends COMMIT. */
class CommitCutter {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private armed: Cut | undefined;
  private refuse = false;
  /** COMMIT messages seen while armed (the cut happened). */
  cuts = 0;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = createServer((client) => this.pipe(client));
    await new Promise<void>((ok) => this.server?.listen(0, '127.0.0.1', ok));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Cuts the next connection sending COMMIT; `refuse`: then stop accepting connections. */
  arm(cut: Cut, refuse = false): void {
    this.armed = cut;
    this.refuse = refuse;
  }

  /** Accepts connections again on the same port. */
  async reopen(): Promise<void> {
    this.server = createServer((client) => this.pipe(client));
    await new Promise<void>((ok) => this.server?.listen(this.port, '127.0.0.1', ok));
  }

  private pipe(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    let cutting = false;
    const destroy = () => {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    };
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', destroy);
    }
    client.on('data', (chunk: Buffer) => {
      const cut = this.armed;
      if (cut && chunk.includes(COMMIT)) {
        this.armed = undefined;
        this.cuts++;
        cutting = true;
        if (this.refuse) {
          this.server?.close();
        }
        if (cut === 'before-commit') {
          destroy();
          return;
        }
        // Pass COMMIT on; the server's answer is dropped and the connection cut.
        upstream.once('data', destroy);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!cutting) {
        client.write(chunk);
      }
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) {
      s.destroy();
    }
    await new Promise((ok) => this.server?.close(ok));
  }
}

describe('a write whose COMMIT gets no answer', () => {
  let db: TestDb;
  let cutter: CommitCutter;
  let proxied: DataSource;
  const bus = new ChangeBus(`commit_${process.pid}`);

  beforeAll(async () => {
    db = await createTestDb();
    await db.dataSource.query('CREATE TABLE written (id uuid PRIMARY KEY)');
    const url = new URL(testDatabaseUrl());
    cutter = new CommitCutter({ host: url.hostname, port: Number(url.port || 5432) });
    await cutter.open();
    url.host = `127.0.0.1:${cutter.port}`;
    proxied = createDataSource({ url: url.toString(), schema: db.schema, poolSize: 2 });
    await proxied.initialize();
  });
  afterAll(async () => {
    await proxied.destroy().catch(() => undefined);
    await cutter.close();
    await db.drop();
  });

  const write = (id: string) =>
    writeTransaction(proxied, bus, async (em) => {
      await em.query('INSERT INTO written (id) VALUES ($1)', [id]);
      return id;
    });
  const isWritten = async (id: string) =>
    (await db.dataSource.query('SELECT 1 FROM written WHERE id = $1', [id])).length === 1;

  it('answers success when the server committed but its answer was lost', async () => {
    const id = randomUUID();
    cutter.arm('after-commit-answered');
    const cuts = cutter.cuts;
    await expect(write(id)).resolves.toBe(id);
    expect(cutter.cuts).toBe(cuts + 1);
    expect(await isWritten(id)).toBe(true);
  });

  it('answers berth.unavailable, with nothing written, when COMMIT never reached the server', async () => {
    const id = randomUUID();
    cutter.arm('before-commit');
    const cuts = cutter.cuts;
    const err = await write(id).catch((e: unknown) => e);
    expect(cutter.cuts).toBe(cuts + 1);
    expect(err).toBeInstanceOf(UnavailableError);
    expect(await isWritten(id)).toBe(false);
    // The marker was fenced: the same write can be retried, and commits.
    await expect(write(id)).resolves.toBe(id);
    expect(await isWritten(id)).toBe(true);
  });

  it('writes every commit marker in the same transaction as the write', async () => {
    const before = await db.dataSource.query('SELECT count(*)::int AS n FROM commit_markers');
    const id = randomUUID();
    await write(id);
    const after = await db.dataSource.query('SELECT count(*)::int AS n FROM commit_markers');
    expect(after[0].n).toBe(before[0].n + 1);
    // A rolled-back write leaves no marker.
    await expect(
      writeTransaction(proxied, bus, async (em) => {
        await em.query('INSERT INTO written (id) VALUES ($1)', [id]);
      }),
    ).rejects.toThrow();
    const last = await db.dataSource.query('SELECT count(*)::int AS n FROM commit_markers');
    expect(last[0].n).toBe(after[0].n);
  });

  it('answers berth.commit_unknown when the database cannot be asked in time, and the marker tells later', async () => {
    const id = randomUUID();
    bus.commitResolveTimeoutMs = 1500;
    try {
      cutter.arm('after-commit-answered', true);
      const err = await write(id).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CommitUnknownError);
      expect((err as CommitUnknownError).code).toBe('berth.commit_unknown');
      expect((err as CommitUnknownError).status).toBe(503);
    } finally {
      bus.commitResolveTimeoutMs = undefined;
      await cutter.reopen();
    }
    // It had committed: asked again once the database is reachable, the marker says so.
    expect(await isWritten(id)).toBe(true);
    const marker: { marker: string }[] = await db.dataSource.query(
      'SELECT marker FROM commit_markers ORDER BY at DESC LIMIT 1',
    );
    expect(await resolveCommit(proxied, marker[0]!.marker, { timeoutMs: 5000 })).toBe('committed');
    expect(await resolveCommit(proxied, randomUUID(), { timeoutMs: 5000 })).toBe('not-committed');
  });
});
