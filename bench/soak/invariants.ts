// The checks made from the database after a run: capacity, allocations against the ledger
// (consumer by consumer, resource by resource), consumer generations, orphan consumers, and the
// audit trail against the writes sent (audit-check.ts).
import { Client } from 'pg';
import { type AuditReport, checkAudit, type EventRow } from './audit-check';
import { type Holding, holdingKey, type Ledger } from './ledger';

/** What the database says about the run. */
export interface InvariantReport {
  /** (provider, class) pairs used beyond (total - reserved) * allocation_ratio. */
  readonly overCapacity: number;
  /** Acknowledged claims not in the database (or with other amounts). */
  readonly lostClaims: number;
  /** Allocations in the database that no answer allows (never acknowledged, or released). */
  readonly phantomAllocations: number;
  /** Consumers whose generation is below their acknowledged writes, or not the one returned. */
  readonly generationErrors: number;
  /** Consumers with no allocations left behind (Placement deletes them). */
  readonly orphanConsumers: number;
  /** Consumers with a write whose answer was lost (retryable / network / timeout). */
  readonly inDoubtConsumers: number;
  /** Of those, consumers never settled by a later answer (their database state must be one of the allowed ones). */
  readonly inDoubtUnsettled: number;
  /** Consumers holding allocations at the end. */
  readonly consumersHolding: number;
  /** The audit trail against the writes the clients sent and what their answers proved. */
  readonly audit: AuditReport;
  /** Examples for the log. */
  readonly examples: string[];
}

/** Reads the database at `url` and compares it with `ledger`. */
export async function checkInvariants(url: string, ledger: Ledger): Promise<InvariantReport> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const over = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT 1 FROM inventories i
         JOIN allocations a ON a.resource_provider_id = i.resource_provider_id
                           AND a.resource_class_id = i.resource_class_id
         GROUP BY i.resource_provider_id, i.resource_class_id, i.total, i.reserved, i.allocation_ratio
         HAVING sum(a.used) > (i.total - i.reserved) * i.allocation_ratio) x`,
    );
    const rows = await db.query<{ c: string; rp: string; rc: string; used: number }>(
      `SELECT c.uuid AS c, rp.uuid AS rp, rc.name AS rc, a.used
         FROM allocations a
         JOIN consumers c ON c.id = a.consumer_id
         JOIN resource_providers rp ON rp.id = a.resource_provider_id
         JOIN resource_classes rc ON rc.id = a.resource_class_id`,
    );
    const gens = await db.query<{ c: string; generation: number; n: number }>(
      `SELECT c.uuid AS c, c.generation,
              (SELECT count(*)::int FROM allocations a WHERE a.consumer_id = c.id) AS n
         FROM consumers c`,
    );
    const actual = new Map<string, Record<string, Record<string, number>>>();
    for (const r of rows.rows) {
      const h = actual.get(r.c) ?? {};
      h[r.rp] = { ...(h[r.rp] ?? {}), [r.rc]: r.used };
      actual.set(r.c, h);
    }
    const examples: string[] = [];
    const note = (m: string) => {
      if (examples.length < 20) {
        examples.push(m);
      }
    };
    let lost = 0;
    let phantom = 0;
    let inDoubt = 0;
    let unsettled = 0;
    for (const e of ledger.consumers.values()) {
      const h: Holding | null = actual.get(e.uuid) ?? null;
      if (e.everInDoubt) {
        inDoubt++;
      }
      if (e.possible.length > 1) {
        unsettled++;
      }
      if (ledger.allows(e, h)) {
        continue;
      }
      const known = ledger.known(e);
      if (known && (!h || holdingKey(h) !== holdingKey(known))) {
        lost++;
        note(
          `lost: ${e.uuid} (${e.via}) acknowledged ${holdingKey(known)}, database ${holdingKey(h)}`,
        );
      } else {
        phantom++;
        note(
          `phantom: ${e.uuid} (${e.via}) database ${holdingKey(h)}, allowed ${e.possible.map(holdingKey).join(' | ')}`,
        );
      }
    }
    for (const c of actual.keys()) {
      if (!ledger.consumers.has(c)) {
        phantom++;
        note(`phantom: ${c} was never written by a client`);
      }
    }
    let generationErrors = 0;
    let orphans = 0;
    for (const g of gens.rows) {
      if (g.n === 0) {
        orphans++;
        note(`orphan consumer ${g.c} (generation ${g.generation})`);
        continue;
      }
      const e = ledger.consumers.get(g.c);
      if (!e) {
        continue;
      }
      const settled = e.possible.length === 1;
      if (
        (settled && g.generation < e.ackWrites) ||
        (settled && e.generation !== undefined && g.generation !== e.generation)
      ) {
        generationErrors++;
        note(
          `generation: ${g.c} database ${g.generation}, acknowledged writes ${e.ackWrites}, last returned ${e.generation}`,
        );
      }
    }
    const query = async (sql: string) => (await db.query<EventRow>(sql)).rows;
    const audit = await checkAudit(query, ledger, new Set(actual.keys()), note);
    return {
      overCapacity: over.rows[0]!.n,
      lostClaims: lost,
      phantomAllocations: phantom,
      generationErrors,
      orphanConsumers: orphans,
      inDoubtConsumers: inDoubt,
      inDoubtUnsettled: unsettled,
      consumersHolding: actual.size,
      audit,
      examples,
    };
  } finally {
    await db.end();
  }
}
