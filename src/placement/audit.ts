// The audit trail (berth extension; Placement keeps none): every committed write appends one row
// to `audit_events` in its own transaction, so a write that rolls back leaves no event and an
// event always means the write committed.
//
// How it is wired:
// - The adapters (REST router, GraphQL mutation fields, CLI commands) run each write request in
//   an AuditContext (who, what operation, request id) held in an AsyncLocalStorage; the domain
//   reads only this plain object, never an HTTP or GraphQL type.
// - writeTransaction (change-bus.ts), and auditedTransaction for the few writes outside it, open
//   an AuditJournal for the transaction and write it just before COMMIT. The journal starts with
//   one entry per caller; the write notes its targets into it (consumer uuids, provider uuids,
//   projects), and the providers the ChangeSet recorded by id are added by the INSERT itself.
// - Admin writes also note `details` (noteAuditDetails): what changed, as a small JSON object
//   (token id/name/role, quota old->new limits, inventory totals, class/trait names, import
//   counts). Never a secret. Claims and allocation writes note none (their targets say it all),
//   except a GraphQL `schedule` call, whose context starts with its input (schema/audit-plugin.ts).
// - Group commit (group-commit.ts) writes the claims of several requests in one transaction: it
//   captures each caller's store when the write is queued and runs the batch in a batch store,
//   so the journal has one entry per caller, in input order, and the allocation write notes each
//   input's targets into its own entry. One multi-row INSERT per transaction either way.
// - Without a context (internal jobs, tests calling services) the actor is 'system'.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

/** Who wrote. Never a secret: token ids and names, user and project ids only. */
export interface AuditActor {
  /** token: berth API token; keystone: Keystone token; noauth: Placement noauth2; cli; system. */
  readonly kind: 'token' | 'keystone' | 'noauth' | 'anonymous' | 'cli' | 'system';
  /** Token id (berth `tok_…` or Keystone `ks-…` digest prefix). */
  readonly id?: string | null;
  /** Token name or CLI user; berth token names are looked up when the event is written. */
  readonly name?: string | null;
  /** Keystone or noauth2 user id. */
  readonly userId?: string | null;
  readonly projectId?: string | null;
  readonly role?: string | null;
}

/** What the adapters tell the domain about a write request. */
export interface AuditContext {
  readonly actor: AuditActor;
  /** e.g. 'PUT /resource_providers/{uuid}/inventories', 'mutation setInventories', 'cli import'. */
  readonly operation: string;
  /** The id the logs carry (x-openstack-request-id on REST, x-request-id on GraphQL). */
  readonly requestId?: string | null;
  /**
   * Details every event of this request starts with (e.g. a `schedule` call's input, so a
   * simulation can replay it: src/planning/trace-audit.ts). Never a secret.
   */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Targets a write names (uuids as stored, projects as external ids). */
export interface AuditTargets {
  readonly consumers?: Iterable<string>;
  readonly providers?: Iterable<string>;
  readonly projects?: Iterable<string>;
}

const SYSTEM: AuditContext = { actor: { kind: 'system' }, operation: 'internal' };
/** Arrays longer than this are cut (an import touching every provider). */
const MAX_TARGETS = 1000;

class Entry {
  readonly consumers = new Set<string>();
  readonly providers = new Set<string>();
  readonly projects = new Set<string>();
  details: Record<string, unknown> | undefined;
  constructor(readonly ctx: AuditContext) {
    this.details = ctx.details ? { ...ctx.details } : undefined;
  }

  add(t: AuditTargets): void {
    for (const c of t.consumers ?? []) this.consumers.add(c);
    for (const p of t.providers ?? []) this.providers.add(p);
    for (const p of t.projects ?? []) this.projects.add(p);
  }
}

interface Store {
  readonly ctx?: AuditContext;
  /** The callers of a group-commit batch, in input order. */
  readonly batch?: readonly (AuditContext | undefined)[];
  readonly journal?: AuditJournal;
}

const als = new AsyncLocalStorage<Store>();

/** Runs `fn` as a write request of `ctx` (adapters). */
export function runAudited<T>(ctx: AuditContext, fn: () => T): T {
  return als.run({ ctx }, fn);
}

/** The audit context of the running request, if any. */
export function currentAudit(): AuditContext | undefined {
  return als.getStore()?.ctx;
}

/** Captures the caller's context when a write is queued (group commit). */
export function captureAudit(): AuditContext | undefined {
  return currentAudit();
}

/** Runs a queued write in the context of the caller that queued it. */
export function resumeAudit<T>(ctx: AuditContext | undefined, fn: () => T): T {
  return als.run(ctx ? { ctx } : {}, fn);
}

/** Runs one transaction that writes the inputs of several callers (one event each). */
export function runAuditBatch<T>(ctxs: readonly (AuditContext | undefined)[], fn: () => T): T {
  return als.run({ batch: ctxs }, fn);
}

/** Notes targets of the running write (every entry of a batch: use noteAuditInputs for inputs). */
export function noteAudit(targets: AuditTargets): void {
  const journal = als.getStore()?.journal;
  if (journal) {
    for (const e of journal.entries) {
      e.add(targets);
    }
  }
}

/**
 * Notes what an admin write changed (merged key by key into the running event's details). Keep
 * it small, and never put a secret in it: it is stored as is and shown to admins.
 */
export function noteAuditDetails(details: Readonly<Record<string, unknown>>): void {
  const journal = als.getStore()?.journal;
  if (journal) {
    for (const e of journal.entries) {
      e.details = { ...e.details, ...details };
    }
  }
}

/**
 * Notes the consumers written by an allocation write, input i into the entry of caller i when
 * the transaction is a group-commit batch (inputs are in batch order).
 */
export function noteAuditInputs(
  inputs: readonly {
    readonly consumerUuid: string;
    readonly projectId?: string | null;
    readonly allocations: readonly { readonly providerUuid: string }[];
  }[],
): void {
  const journal = als.getStore()?.journal;
  if (!journal) {
    return;
  }
  const perCaller = journal.entries.length > 1 && journal.entries.length === inputs.length;
  for (const [i, input] of inputs.entries()) {
    const t: AuditTargets = {
      consumers: [input.consumerUuid],
      providers: input.allocations.map((a) => a.providerUuid),
      projects: input.projectId ? [input.projectId] : [],
    };
    if (perCaller) {
      journal.entries[i]!.add(t);
    } else {
      for (const e of journal.entries) e.add(t);
    }
  }
}

/** The events of one transaction. */
export class AuditJournal {
  readonly entries: Entry[];

  constructor(store: Store | undefined) {
    const batch = store?.batch;
    this.entries =
      batch && batch.length > 0
        ? batch.map((c) => new Entry(c ?? SYSTEM))
        : [new Entry(store?.ctx ?? SYSTEM)];
  }

  /** Runs the transaction body with this journal current. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return als.run({ ...als.getStore(), journal: this }, fn);
  }

  /**
   * Writes the events (one INSERT). `providerIds`/`projects`: what the ChangeSet recorded,
   * added to a lone event (a batch's entries carry their own inputs' targets). `notify`: change
   * notifications sent in the same round trip; `notify.marker`: the transaction's commit marker
   * (src/db/commit-outcome.ts), inserted in the same statement.
   */
  async write(
    em: EntityManager,
    providerIds: readonly number[] = [],
    projects: readonly string[] = [],
    notify?: {
      readonly channel: string;
      readonly payloads: readonly string[];
      readonly marker?: string;
    },
  ): Promise<void> {
    const lone = this.entries.length === 1;
    const rows = this.entries.map((e, n) => {
      const a = e.ctx.actor;
      return {
        n,
        request_id: e.ctx.requestId ?? null,
        actor_kind: a.kind,
        actor_id: a.id ?? null,
        actor_name: a.name ?? null,
        user_id: a.userId ?? null,
        project_id: a.projectId ?? null,
        role: a.role ?? null,
        operation: e.ctx.operation.slice(0, 255),
        consumers: [...e.consumers].slice(0, MAX_TARGETS),
        providers: [...e.providers].slice(0, MAX_TARGETS),
        provider_ids: lone ? providerIds.slice(0, MAX_TARGETS) : [],
        projects: [...new Set([...e.projects, ...(lone ? projects : [])])].slice(0, MAX_TARGETS),
        details: e.details && Object.keys(e.details).length > 0 ? e.details : null,
      };
    });
    const marker = notify?.marker;
    if (notify && notify.payloads.length > 0) {
      // One round trip for the event(s), the commit marker and the change notifications
      // (delivered at commit).
      await em.query(
        `WITH audited AS (${INSERT_EVENTS})${marker ? `, ${MARK('$4')}` : ''}
         SELECT pg_notify($2, t.p) FROM unnest($3::text[]) WITH ORDINALITY AS t(p, i) ORDER BY t.i`,
        marker
          ? [JSON.stringify(rows), notify.channel, notify.payloads, marker]
          : [JSON.stringify(rows), notify.channel, notify.payloads],
      );
      return;
    }
    if (marker) {
      await em.query(`WITH ${MARK('$2')} ${INSERT_EVENTS}`, [JSON.stringify(rows), marker]);
      return;
    }
    await em.query(INSERT_EVENTS, [JSON.stringify(rows)]);
  }
}

/** The CTE that inserts a transaction's commit marker (parameter `p`). */
const MARK = (p: string) => `marked AS (INSERT INTO commit_markers (marker) VALUES (${p}::uuid))`;

const INSERT_EVENTS = `
  INSERT INTO audit_events (request_id, actor_kind, actor_id, actor_name, user_id, project_id,
    role, operation, consumers, providers, projects, details)
  SELECT x.request_id, x.actor_kind, x.actor_id,
    CASE WHEN x.actor_kind = 'token'
      THEN (SELECT t.name FROM api_tokens t WHERE t.id = x.actor_id) ELSE x.actor_name END,
    x.user_id, x.project_id, x.role, x.operation, x.consumers,
    ARRAY(SELECT DISTINCT u FROM (
      SELECT unnest(x.providers) UNION ALL
      SELECT rp.uuid::text FROM resource_providers rp WHERE rp.id = ANY(x.provider_ids)) s(u)
      ORDER BY u LIMIT ${MAX_TARGETS}),
    x.projects, x.details
  FROM jsonb_to_recordset($1::jsonb) AS x(request_id text, actor_kind text,
    actor_id text, actor_name text, user_id text, project_id text, role text, operation text,
    consumers text[], providers text[], provider_ids int[], projects text[], details jsonb, n int)
  ORDER BY x.n`;

/** Opens the journal of a transaction that is about to start (writeTransaction). */
export function openAuditJournal(): AuditJournal {
  return new AuditJournal(als.getStore());
}

/**
 * A transaction with its audit event, for writes outside writeTransaction (catalogue, server
 * groups, tokens): `fn` notes its targets with noteAudit. `wrote(value)` false: nothing was
 * written (an idempotent PUT of an existing name), so no event.
 */
export function auditedTransaction<T>(
  ds: DataSource,
  fn: (em: EntityManager) => Promise<T>,
  wrote: (value: T) => boolean = () => true,
): Promise<T> {
  const journal = openAuditJournal();
  return ds.transaction(async (em) => {
    const value = await journal.run(() => fn(em));
    if (wrote(value)) {
      await journal.write(em);
    }
    return value;
  });
}
