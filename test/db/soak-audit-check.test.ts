// The soak's audit check (bench/soak/audit-check.ts) on a real audit_events table: it passes when
// the events match the writes the clients sent, and counts each kind of disagreement.
import { randomUUID } from 'node:crypto';
import { checkAudit } from '../../bench/soak/audit-check';
import { Ledger, type WriteRecord } from '../../bench/soak/ledger';
import { createTestDb, type TestDb } from '../support/db';

const PUT = 'PUT /allocations/{consumer_uuid}';
const SET = 'mutation setAllocations';
const DELETE = 'mutation deleteAllocations';

describe('soak audit check', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    await db.dataSource.query('DELETE FROM audit_events');
  });

  const event = (consumer: string, operation: string, requestId: string | null) =>
    db.dataSource.query(
      `INSERT INTO audit_events (actor_kind, operation, request_id, consumers)
       VALUES ('token', $1, $2, ARRAY[$3])`,
      [operation, requestId, consumer],
    );

  /** A ledger of one consumer with `writes`. */
  function ledgerOf(c: string, writes: WriteRecord[]): Ledger {
    const l = new Ledger();
    const e = l.create(c, 'setAllocations');
    for (const w of writes) l.sent(e, w);
    return l;
  }

  async function check(l: Ledger, holding: string[]) {
    const notes: string[] = [];
    const query = (sql: string) => db.dataSource.query(sql);
    const r = await checkAudit(query, l, new Set(holding), (m) => notes.push(m));
    return { ...r, notes: notes.length };
  }

  it('passes when every committed write has its event and unanswered ones have one or none', async () => {
    const c = randomUUID();
    const l = ledgerOf(c, [
      { operation: SET, requestId: 'r1', outcome: 'committed', holds: true },
      { operation: SET, requestId: 'r2', outcome: 'none', holds: true },
      { operation: DELETE, requestId: 'r3', outcome: 'doubt', holds: false },
      // A REST write whose answer was lost: its request id is unknown.
      { operation: PUT, outcome: 'doubt', holds: true },
      { operation: SET, requestId: 'r5', outcome: 'doubt', holds: true },
    ]);
    await event(c, SET, 'r1');
    await event(c, DELETE, 'r3');
    await event(c, PUT, 'req-lost');
    expect(await check(l, [c])).toEqual({
      events: 3,
      missing: 0,
      unexpected: 0,
      stateMismatch: 0,
      notes: 0,
    });
  });

  it('counts a committed write without event, and a final state its last event contradicts', async () => {
    const c = randomUUID();
    const l = ledgerOf(c, [
      { operation: SET, requestId: 'r1', outcome: 'committed', holds: true },
      { operation: DELETE, requestId: 'r2', outcome: 'committed', holds: false },
    ]);
    await event(c, SET, 'r1');
    // r2 released it but has no event: the last event is a claim while the consumer holds none.
    expect(await check(l, [])).toMatchObject({ missing: 1, unexpected: 0, stateMismatch: 1 });
  });

  it('takes the last event in id order (10 after 9), not text order', async () => {
    const c = randomUUID();
    const l = ledgerOf(c, [
      { operation: SET, requestId: 'r1', outcome: 'committed', holds: true },
      { operation: DELETE, requestId: 'r2', outcome: 'committed', holds: false },
    ]);
    await db.dataSource.query("SELECT setval(pg_get_serial_sequence('audit_events', 'id'), 8)");
    await event(c, SET, 'r1'); // id 9
    await event(c, DELETE, 'r2'); // id 10
    expect(await check(l, [])).toMatchObject({ missing: 0, unexpected: 0, stateMismatch: 0 });
  });

  it('counts events of refused writes, duplicates, other operations and unknown consumers', async () => {
    const c = randomUUID();
    const l = ledgerOf(c, [
      { operation: SET, requestId: 'r1', outcome: 'committed', holds: true },
      { operation: SET, requestId: 'r2', outcome: 'none', holds: true },
      { operation: SET, requestId: 'r3', outcome: 'doubt', holds: true },
    ]);
    await event(c, SET, 'r1');
    await event(c, SET, 'r2'); // refused, yet audited
    await event(c, SET, 'r1'); // twice
    await event(c, DELETE, 'r3'); // not what was sent
    await event(c, PUT, 'req-x'); // no REST write was sent
    await event(randomUUID(), SET, 'r9'); // a consumer no client wrote
    expect(await check(l, [c])).toMatchObject({
      missing: 0,
      unexpected: 5,
      stateMismatch: 0,
      notes: 5,
    });
  });
});
