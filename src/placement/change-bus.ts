// Change notifications: every write transaction records which providers it touched; after commit
// the change is published in-process at once and, through PostgreSQL NOTIFY (sent inside the
// transaction, so delivered only on commit and in commit order), to every other replica.
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { pruneCommitMarkers, resolveCommit } from '../db/commit-outcome';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailableError } from '../db/unavailable';
import { openAuditJournal } from './audit';
import {
  CommitUnknownError,
  ConcurrentUpdateError,
  ConflictError,
  ErrorCode,
  UnavailableError,
} from './errors';

/**
 * What changed. 'providers': rows, inventories, usage, traits or aggregates of these ids;
 * `projects`: the projects whose consumers' allocations the change wrote (when it wrote any).
 */
export type Change =
  | {
      readonly kind: 'providers';
      readonly ids: readonly number[];
      readonly projects?: readonly string[];
    }
  | { readonly kind: 'aggregates' }
  | { readonly kind: 'catalog' }
  | { readonly kind: 'all' };

/** PostgreSQL channel carrying changes between replicas. */
export const CHANGE_CHANNEL = 'berth_changes';
const MAX_PAYLOAD = 7000;

/** A listener of changes (the candidate index, caches). */
export type ChangeListener = (change: Change, origin: 'local' | 'remote') => void;

/** Fans changes out to in-process listeners and to other replicas. */
export class ChangeBus {
  /** Identifies this process in NOTIFY payloads, so it can ignore its own echoes. */
  readonly origin = randomUUID();

  /** @param channel NOTIFY channel (channels are per database; tests use one per schema). */
  constructor(readonly channel: string = CHANGE_CHANNEL) {}

  /**
   * How long a write whose COMMIT got no answer waits for the database to say whether it
   * committed before answering berth.commit_unknown (default {@link COMMIT_RESOLVE_TIMEOUT_MS}).
   */
  commitResolveTimeoutMs: number | undefined;
  private readonly listeners = new Set<ChangeListener>();

  /** Registers a listener; returns the function that removes it. */
  subscribe(fn: ChangeListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Delivers a change to in-process listeners. */
  publish(change: Change, origin: 'local' | 'remote'): void {
    for (const fn of this.listeners) {
      fn(change, origin);
    }
  }

  /** Payload for NOTIFY; oversized provider lists degrade to 'all'. */
  encode(change: Change): string {
    const body = JSON.stringify({ o: this.origin, c: change });
    return body.length <= MAX_PAYLOAD
      ? body
      : JSON.stringify({ o: this.origin, c: { kind: 'all' } });
  }

  /** Parses a NOTIFY payload; undefined for our own echoes or garbage. */
  decode(payload: string): Change | undefined {
    try {
      const msg = JSON.parse(payload) as { o?: string; c?: Change };
      if (!msg.c || msg.o === this.origin) {
        return undefined;
      }
      return msg.c;
    } catch {
      return undefined;
    }
  }
}

/** Collects the changes of one transaction. */
export class ChangeSet {
  private readonly ids = new Set<number>();
  private readonly projectIds = new Set<string>();
  private aggregates = false;
  private catalog = false;
  private all = false;

  /** Marks providers as changed. */
  providers(ids: Iterable<number>, projects: Iterable<string> = []): void {
    for (const id of ids) {
      this.ids.add(id);
    }
    for (const p of projects) {
      this.projectIds.add(p);
    }
  }

  /** Marks aggregate metadata as changed. */
  aggregateMetadata(): void {
    this.aggregates = true;
  }

  /** Marks resource classes or traits as created or deleted. */
  catalogChanged(): void {
    this.catalog = true;
  }

  /** Marks everything as changed (reset). */
  everything(): void {
    this.all = true;
  }

  /** The changes to publish, coarsest first. */
  changes(): Change[] {
    if (this.all) {
      return [{ kind: 'all' }];
    }
    const out: Change[] = [];
    if (this.ids.size > 0) {
      out.push({
        kind: 'providers',
        ids: [...this.ids].sort((a, b) => a - b),
        ...(this.projectIds.size > 0 ? { projects: [...this.projectIds].sort() } : {}),
      });
    }
    if (this.aggregates) {
      out.push({ kind: 'aggregates' });
    }
    if (this.catalog) {
      out.push({ kind: 'catalog' });
    }
    return out;
  }
}

/**
 * Tells candidate indexes, here and on other replicas, that the class or trait catalogue changed
 * (after a write outside {@link writeTransaction}; no-op without a bus).
 */
export async function announceCatalogChange(
  ds: DataSource,
  bus: ChangeBus | undefined,
): Promise<void> {
  if (!bus) {
    return;
  }
  await ds.query('SELECT pg_notify($1, $2)', [bus.channel, bus.encode({ kind: 'catalog' })]);
  bus.publish({ kind: 'catalog' }, 'local');
}

/**
 * Runs `fn` in a transaction, NOTIFYing the changes it records before commit and publishing them
 * in-process after commit (so this replica reads its own writes at once). The transaction's
 * audit event(s) are inserted just before commit (src/placement/audit.ts).
 */
export async function writeTransaction<T>(
  ds: DataSource,
  bus: ChangeBus,
  fn: (em: EntityManager, changes: ChangeSet) => Promise<T>,
): Promise<T> {
  const changes = new ChangeSet();
  const journal = openAuditJournal();
  const marker = randomUUID();
  let committing = false;
  let value: T | undefined;
  try {
    await ds.transaction(async (em) => {
      value = await journal.run(() => fn(em, changes));
      const touched = changes.changes();
      const p = touched.find((c) => c.kind === 'providers');
      await journal.write(em, p?.ids, p?.projects, {
        channel: bus.channel,
        payloads: touched.map((c) => bus.encode(c)),
        marker,
      });
      committing = true;
    });
  } catch (err) {
    if (!committing || !isDatabaseUnavailableError(err)) {
      throw translateDatabaseError(err);
    }
    // The connection was lost while COMMIT was in flight: settle the outcome before answering.
    const outcome = await resolveCommit(ds, marker, {
      timeoutMs: bus.commitResolveTimeoutMs ?? COMMIT_RESOLVE_TIMEOUT_MS,
    });
    if (outcome === 'not-committed') {
      throw new UnavailableError(DATABASE_UNAVAILABLE);
    }
    if (outcome === 'unknown') {
      throw new CommitUnknownError(
        'The database connection was lost while this write was committing and the database could not be asked since: it may or may not have been written. Re-read the consumer (its generation) before retrying.',
      );
    }
  }
  for (const change of changes.changes()) {
    bus.publish(change, 'local');
  }
  prunePeriodically(ds);
  return value as T;
}

/**
 * How long a write whose COMMIT got no answer waits, by default, for the database to say whether
 * it committed (a Patroni failover takes ~4-10 s), before answering berth.commit_unknown.
 */
export const COMMIT_RESOLVE_TIMEOUT_MS = 20_000;
const PRUNE_EVERY_MS = 60_000;
let lastPrune = Date.now();

/** Prunes old commit markers at most once a minute per process, in the background. */
function prunePeriodically(ds: DataSource): void {
  const now = Date.now();
  if (now - lastPrune < PRUNE_EVERY_MS) {
    return;
  }
  lastPrune = now;
  pruneCommitMarkers(ds).catch(() => {
    // Best effort: the next minute tries again.
  });
}

/**
 * Maps the database errors a correct write can still meet under concurrency to domain errors:
 * deadlock/serialization -> concurrent update (retryable), a row deleted under us -> conflict,
 * a lost connection -> unavailable (retryable). Anything else is returned unchanged.
 */
export function translateDatabaseError(err: unknown): unknown {
  const code = (err as { code?: string }).code;
  switch (code) {
    case '40P01':
    case '40001':
      return new ConcurrentUpdateError(
        'Inventory and/or allocations changed while attempting to write (concurrent transaction); retry.',
      );
    case '23503':
      return new ConflictError(
        'A referenced object was deleted concurrently; re-read and retry.',
        ErrorCode.CONCURRENT_DELETE,
      );
    default:
      return isDatabaseUnavailableError(err) ? new UnavailableError(DATABASE_UNAVAILABLE) : err;
  }
}
