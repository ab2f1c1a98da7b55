// The audit check after a run: the audit trail agrees with what the clients were told, write by
// write. Every write a claimer sent is in the ledger (WriteRecord) with the request id its event
// must carry and what its answer proves; the events naming consumers are matched against them.
import type { Ledger, WriteRecord } from './ledger';

/** What the audit trail says about the run. */
export interface AuditReport {
  /** Events naming a consumer. */
  readonly events: number;
  /** Acknowledged writes with no event (their request id never audited). */
  readonly missing: number;
  /**
   * Events no committed-or-unanswered write explains: a consumer no client wrote, the request
   * id of a refused write, a second event for one request, another operation than the one sent.
   */
  readonly unexpected: number;
  /** Consumers whose final allocations disagree with the kind of their last event. */
  readonly stateMismatch: number;
}

/** One audit event naming consumers. */
export interface EventRow {
  readonly id: string;
  readonly request_id: string | null;
  readonly operation: string;
  readonly consumers: string[];
}

/** Runs a query, returning its rows (pg Client or TypeORM DataSource). */
export type QueryRows = (sql: string) => Promise<EventRow[]>;

interface Slot {
  readonly w: WriteRecord;
  matched: number;
}

/**
 * Matches the audit events with the ledger; `holding` = consumers holding allocations now.
 * `note` receives one line per violation.
 */
export async function checkAudit(
  query: QueryRows,
  ledger: Ledger,
  holding: ReadonlySet<string>,
  note: (m: string) => void,
): Promise<AuditReport> {
  const rows = await query(
    `SELECT id::text, request_id, operation, consumers FROM audit_events
      WHERE consumers <> '{}' ORDER BY audit_events.id`,
  );
  // Per consumer: its writes by request id, and those whose id the client never learnt (a REST
  // write whose answer was lost), acknowledged ones first.
  const byId = new Map<string, Map<string, Slot>>();
  const anonymous = new Map<string, Slot[]>();
  for (const e of ledger.consumers.values()) {
    const ids = new Map<string, Slot>();
    const anon: Slot[] = [];
    for (const w of e.writes) {
      if (w.requestId) {
        ids.set(w.requestId, { w, matched: 0 });
      } else if (w.outcome !== 'none') {
        anon.push({ w, matched: 0 });
      }
    }
    anon.sort((a, b) => Number(b.w.outcome === 'committed') - Number(a.w.outcome === 'committed'));
    byId.set(e.uuid, ids);
    anonymous.set(e.uuid, anon);
  }
  let unexpected = 0;
  const lastHolds = new Map<string, boolean>();
  const fail = (m: string) => {
    unexpected++;
    note(`audit: ${m}`);
  };
  for (const r of rows) {
    const what = `event ${r.id} (${r.operation}, request ${r.request_id ?? '-'})`;
    for (const c of r.consumers) {
      const ids = byId.get(c);
      if (!ids) {
        fail(`${what} names ${c}, which no client wrote`);
        continue;
      }
      let slot = r.request_id ? ids.get(r.request_id) : undefined;
      if (!slot) {
        slot = anonymous.get(c)!.find((s) => s.matched === 0 && s.w.operation === r.operation);
      }
      if (!slot) {
        fail(`${what} on ${c} matches no write that committed or went unanswered`);
        continue;
      }
      if (slot.w.outcome === 'none') {
        fail(`${what} on ${c}: the client was told nothing was written`);
      } else if (slot.matched > 0) {
        fail(`${what} on ${c}: a second event for one request`);
      } else if (slot.w.operation !== r.operation) {
        fail(`${what} on ${c}: the client sent ${slot.w.operation}`);
      }
      slot.matched++;
      lastHolds.set(c, slot.w.holds);
    }
  }
  let missing = 0;
  let stateMismatch = 0;
  for (const e of ledger.consumers.values()) {
    const slots = [...byId.get(e.uuid)!.values(), ...anonymous.get(e.uuid)!];
    for (const s of slots) {
      if (s.w.outcome === 'committed' && s.matched === 0) {
        missing++;
        note(`audit: ${e.uuid} ${s.w.operation} (request ${s.w.requestId ?? '-'}) has no event`);
      }
    }
    // Writes to one consumer commit one after another (row locks), so event ids are in commit
    // order: the last event says whether the consumer ends up holding allocations.
    const holds = holding.has(e.uuid);
    if (holds !== (lastHolds.get(e.uuid) ?? false)) {
      stateMismatch++;
      const last = lastHolds.has(e.uuid)
        ? lastHolds.get(e.uuid)
          ? 'a claim'
          : 'a release'
        : 'none';
      note(`audit: ${e.uuid} ${holds ? 'holds allocations' : 'holds none'}; last event ${last}`);
    }
  }
  return { events: rows.length, missing, unexpected, stateMismatch };
}
