// The audit trail's retention (BERTH_AUDIT_RETENTION_DAYS): `berth serve` deletes events older
// than the retention once soon after start and then hourly, in batches (pruneAuditEvents in
// src/placement/audit-log.ts). Every worker runs it; the deletes are idempotent and cheap.
import type { DataSource } from 'typeorm';
import type { Logger } from '../observability/logger';
import { pruneAuditEvents } from '../placement/audit-log';

/** How often the prune runs. */
export const AUDIT_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/** Starts the periodic prune (nothing when retention is 0); returns the function that stops it. */
export function startAuditPrune(ds: DataSource, retentionDays: number, log: Logger): () => void {
  if (retentionDays <= 0) {
    return () => undefined;
  }
  let running = false;
  const run = () => {
    if (running) {
      return;
    }
    running = true;
    pruneAuditEvents(ds, retentionDays)
      .then((deleted) => {
        if (deleted > 0) {
          log.info({ deleted, retentionDays }, 'audit events pruned');
        }
      })
      .catch((err: unknown) => log.warn({ err: String(err) }, 'audit prune failed; will retry'))
      .finally(() => {
        running = false;
      });
  };
  // A jittered first run keeps restarted replicas from pruning in step.
  const first = setTimeout(run, 60_000 + Math.floor(Math.random() * 60_000));
  const timer = setInterval(run, AUDIT_PRUNE_INTERVAL_MS);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
