// The embedded database (PGlite behind pglite-socket, src/db/embedded-pg.ts) under concurrent
// connections: PGlite is one session, and the socket server once interleaved the connections'
// extended-protocol messages, so a query could bind another's unnamed statement (its parameters
// or rows went to the wrong caller) and an autocommit write could join, and be rolled back with,
// another connection's transaction. Runs its own embedded server (in a child process: PGlite
// cannot start inside jest's vm), so it runs whether DATABASE_URL is set or not.
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { Client } from 'pg';
import { createDataSource } from '../../src/db/data-source';

const root = path.resolve(__dirname, '../..');

const SERVER = `
const { startEmbeddedPg } = require('./src/db/embedded-pg');
startEmbeddedPg('memory://', { maxConnections: 32 }).then((pg) => {
  process.stdout.write(pg.url + '\\n');
  process.stdin.on('end', () => pg.stop().then(() => process.exit(0)));
  process.stdin.resume();
}, (err) => { console.error(err); process.exit(1); });
`;

let server: ChildProcess;
let url: string;

beforeAll(async () => {
  server = spawn(
    process.execPath,
    ['-r', path.join(root, 'test/support/swc-register.cjs'), '-e', SERVER],
    {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout?.on('data', (d) => {
      out += String(d);
      const line = out.split('\n');
      if (line.length > 1) {
        resolve(line[0].trim());
      }
    });
    server.on('exit', (code) => reject(new Error(`embedded server exited (${code})`)));
  });
}, 120_000);

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((r) => server.on('exit', r));
    server.stdin?.end();
    const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A connected client whose queries fail rather than hang (a lost answer is a failure here). */
async function client(): Promise<Client> {
  const c = new Client({ connectionString: url, query_timeout: 15_000 });
  // After a timeout pg drops the connection: the failing query reports it.
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

it('answers each connection its own query while others wait behind a transaction', async () => {
  const clients = await Promise.all(Array.from({ length: 6 }, client));
  const holder = await client();
  await holder.query('CREATE TABLE iso (id int PRIMARY KEY, v text)');
  // A connection that keeps taking transactions makes the others' messages wait together.
  let stop = false;
  const wrong: string[] = [];
  const holding = (async () => {
    for (let i = 0; !stop; i++) {
      await holder.query('BEGIN');
      const { rows } = await holder.query('SELECT $1::text AS h', [`h${i}`]);
      if (rows[0]?.h !== `h${i}`) {
        wrong.push(`holder ${i}: ${JSON.stringify(rows)}`);
      }
      await sleep(2);
      await holder.query('COMMIT');
      await sleep(1);
    }
  })().catch((err) => {
    wrong.push(`holder: ${(err as Error).message}`);
  });
  try {
    await Promise.all(
      clients.map(async (c, k) => {
        for (let r = 0; r < 30; r++) {
          const id = k * 1000 + r;
          try {
            if (k % 3 === 0) {
              const { rows } = await c.query('SELECT $1::int[] AS a', [[k, r]]);
              if (JSON.stringify(rows) !== JSON.stringify([{ a: [k, r] }])) {
                wrong.push(`int[] c${k}r${r}: ${JSON.stringify(rows)}`);
              }
            } else if (k === 1) {
              const { rows } = await c.query('SELECT $1::uuid AS u', [uuidOf(id)]);
              if (JSON.stringify(rows) !== JSON.stringify([{ u: uuidOf(id) }])) {
                wrong.push(`uuid c${k}r${r}: ${JSON.stringify(rows)}`);
              }
            } else if (k === 4) {
              const { rows } = await c.query('SELECT $1::uuid[]::text AS u', [[uuidOf(id)]]);
              if (JSON.stringify(rows) !== JSON.stringify([{ u: `{${uuidOf(id)}}` }])) {
                wrong.push(`uuid[] c${k}r${r}: ${JSON.stringify(rows)}`);
              }
            } else if (r % 2 === 0) {
              await c.query('BEGIN');
              await c.query('INSERT INTO iso VALUES ($1, $2)', [id, 'rolled back']);
              await sleep(1);
              await c.query('ROLLBACK');
            } else {
              await c.query('INSERT INTO iso VALUES ($1, $2)', [id, 'committed']);
            }
          } catch (err) {
            wrong.push(`c${k}r${r}: ${(err as Error).message}`);
            await c.query('ROLLBACK').catch(() => undefined);
          }
        }
      }),
    );
  } finally {
    stop = true;
    await holding;
  }
  expect(wrong.slice(0, 12)).toEqual([]);
  // Two writers (k = 2, 5), 15 autocommit inserts each; none of the rolled-back ones.
  const { rows } = await holder.query('SELECT v, count(*)::int AS n FROM iso GROUP BY v');
  expect(rows).toEqual([{ v: 'committed', n: 30 }]);
  await Promise.all([...clients, holder].map((c) => c.end()));
}, 60_000);

it('keeps berth pool transactions isolated and array queries their own (TypeORM)', async () => {
  const ds = createDataSource({ url, poolSize: 6 });
  await ds.initialize();
  try {
    await ds.query('CREATE TABLE pool_iso (id int PRIMARY KEY, u uuid)');
    const wrong: string[] = [];
    await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        if (i % 3 === 0) {
          // A transaction that fails after writing: its row must not survive.
          await ds
            .transaction(async (em) => {
              await em.query('INSERT INTO pool_iso VALUES ($1, $2)', [i, uuidOf(i)]);
              await sleep(2);
              throw new Error('roll back');
            })
            .catch(() => undefined);
        } else if (i % 3 === 1) {
          await ds.transaction((em) =>
            em.query('INSERT INTO pool_iso SELECT $1, u FROM unnest($2::uuid[]) AS u', [
              i,
              [uuidOf(i)],
            ]),
          );
        } else {
          const rows: { ids: number[] }[] = await ds.query(
            'SELECT array_agg(x ORDER BY x) AS ids FROM unnest($1::int[]) AS x',
            [[i, i + 1]],
          );
          if (JSON.stringify(rows) !== JSON.stringify([{ ids: [i, i + 1] }])) {
            wrong.push(`${i}: ${JSON.stringify(rows)}`);
          }
        }
      }),
    );
    expect(wrong).toEqual([]);
    const rows: { id: number; u: string }[] = await ds.query(
      'SELECT id, u FROM pool_iso ORDER BY id',
    );
    const expected = Array.from({ length: 30 }, (_, i) => i)
      .filter((i) => i % 3 === 1)
      .map((i) => ({ id: i, u: uuidOf(i) }));
    expect(rows).toEqual(expected);
  } finally {
    await ds.destroy();
  }
}, 60_000);

// Raw frontend messages, to leave a connection mid-batch as a crashed client does.
const cstr = (s: string) => Buffer.from(`${s}\0`);
const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
function int32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}
const msg = (type: string, ...body: Buffer[]) => {
  const b = Buffer.concat(body);
  return Buffer.concat([Buffer.from(type, 'latin1'), int32(b.length + 4), b]);
};
const startup = () => {
  const body = Buffer.concat([
    int32(196608),
    cstr('user'),
    cstr('postgres'),
    cstr('database'),
    cstr('postgres'),
    Buffer.from([0]),
  ]);
  return Buffer.concat([int32(body.length + 4), body]);
};
const parseBindExecute = (sql: string) =>
  Buffer.concat([
    msg('P', cstr(''), cstr(sql), int16(0)),
    msg('B', cstr(''), cstr(''), int16(0), int16(0), int16(0)),
    msg('E', cstr(''), int32(0)),
  ]);

/** Connects, sends `messages` (no Sync), waits for `answers` bytes of answers to them, closes. */
async function sendAndVanish(messages: Buffer[], answers: number): Promise<void> {
  const u = new URL(url);
  const s = net.connect(Number(u.port), u.hostname);
  let got = Buffer.alloc(0);
  s.on('data', (d) => {
    got = Buffer.concat([got, d]);
  });
  await new Promise((r) => s.once('connect', r));
  s.write(startup());
  // The startup answer ends with ReadyForQuery ('Z').
  const deadline = Date.now() + 15_000;
  while (!got.includes(Buffer.from('Z\0\0\0\x05I', 'latin1')) && Date.now() < deadline) {
    await sleep(20);
  }
  const before = got.length;
  for (const m of messages) {
    s.write(m);
  }
  while (got.length - before < answers && Date.now() < deadline) {
    await sleep(20);
  }
  s.destroy();
}

it('rolls back what a connection that vanishes mid-batch or mid-transaction left', async () => {
  const c = await client();
  await c.query('CREATE TABLE vanish (id int PRIMARY KEY)');
  // Parse/Bind/Execute of an INSERT, no Sync: a real server aborts it with the backend.
  await sendAndVanish([parseBindExecute('INSERT INTO vanish VALUES (1)')], 26);
  // BEGIN, then an INSERT inside the transaction, and gone.
  await sendAndVanish(
    [msg('Q', cstr('BEGIN')), parseBindExecute('INSERT INTO vanish VALUES (2)')],
    43,
  );
  // An error mid-batch (the session then skips messages until a Sync), and gone.
  await sendAndVanish([parseBindExecute('SELECT 1/0')], 40);
  await sleep(200);
  // The next connection's queries run normally, and nothing of the above was committed.
  expect((await c.query('SELECT $1::int[] AS a', [[4, 2]])).rows).toEqual([{ a: [4, 2] }]);
  expect((await c.query('SELECT count(*)::int AS n FROM vanish')).rows).toEqual([{ n: 0 }]);
  await c.end();
}, 60_000);
