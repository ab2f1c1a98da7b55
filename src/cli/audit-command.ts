// `berth audit log`: the audit trail (src/placement/audit.ts), newest first, as a table or JSON.

import { type Command, InvalidArgumentError } from 'commander';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../config/config';
import { migrateDatabase } from '../db/migrate';
import { alignedRows, escapeForTerminal, jsonForTerminal } from '../lib/text-table';
import { type AuditEventRecord, listAuditEvents, parseSinceOrThrow } from '../placement/audit-log';
import { isPlacementError } from '../placement/errors';
import { type CliDatabase, openDatabase } from './database';
import { exitWithStartupError } from './errors';
import { positiveInt } from './int-options';

/** Options of `berth audit log`. */
export interface AuditLogOptions {
  readonly since?: string;
  readonly consumer?: string;
  readonly provider?: string;
  readonly actor?: string;
  readonly limit: number;
  readonly json?: boolean;
}

const who = (e: AuditEventRecord): string =>
  e.actorKind === 'token' || e.actorKind === 'keystone'
    ? `${e.actorName || e.actorId}${e.userId ? ` (${e.userId})` : ''}`
    : e.actorKind === 'noauth'
      ? `noauth:${e.userId ?? '-'}`
      : e.actorKind;

const targets = (e: AuditEventRecord): string => {
  const parts = [
    ...e.providers.map((p) => `rp:${p}`),
    ...e.consumers.map((c) => `consumer:${c}`),
    ...e.projects.map((p) => `project:${p}`),
  ];
  return parts.length > 4
    ? `${parts.slice(0, 4).join(' ')} (+${parts.length - 4})`
    : parts.join(' ') || '-';
};

/** The details as compact JSON, cut at 200 characters (--json prints them whole). */
const details = (e: AuditEventRecord): string => {
  const text = e.details ? JSON.stringify(e.details) : '';
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
};

/** The events as an aligned table, one per line (details last, when there are any). */
export function renderAuditTable(events: readonly AuditEventRecord[]): string {
  const rows = [
    ['time', 'actor', 'role', 'operation', 'request', 'targets', 'details'],
    ...events.map((e) => [
      e.createdAt.toISOString(),
      who(e),
      e.role ?? '-',
      e.operation,
      e.requestId ?? '-',
      targets(e),
      details(e),
    ]),
  ];
  return alignedRows(rows).join('\n');
}

/**
 * Lists events per `opts` to `out`.
 * @throws BadRequestError for a bad --since, --consumer or --provider.
 */
export async function runAuditLog(
  ds: DataSource,
  opts: AuditLogOptions,
  out: { write(chunk: string): unknown },
): Promise<AuditEventRecord[]> {
  const events = (
    await listAuditEvents(ds, {
      since: opts.since ? parseSinceOrThrow(opts.since) : null,
      consumer: opts.consumer ?? null,
      provider: opts.provider ?? null,
      actor: opts.actor ?? null,
      limit: opts.limit,
    })
  ).slice(0, opts.limit);
  out.write(`${opts.json ? jsonForTerminal(events) : renderAuditTable(events)}\n`);
  return events;
}

/** Adds `audit log` to the berth program. */
export function registerAuditCommand(program: Command): void {
  const audit = program.command('audit').description('the audit trail of writes');
  audit
    .command('log')
    .description('list audit events, newest first')
    .option('--since <time>', 'ISO 8601 time, or a duration back from now: 30m, 1h, 7d')
    .option('--consumer <uuid>', 'only events writing this consumer')
    .option('--provider <uuid>', 'only events writing this resource provider')
    .option('--actor <name-or-id>', 'only events by this token id, token name or user id')
    .option('--limit <n>', 'at most this many events', limitOption, 50)
    .option('--json', 'print JSON instead of a table')
    .action(async (opts: AuditLogOptions) => {
      let db: CliDatabase;
      try {
        db = await openDatabase(loadConfig());
        await migrateDatabase(db.dataSource);
      } catch (err) {
        exitWithStartupError(err);
      }
      try {
        await runAuditLog(db.dataSource, opts, process.stdout);
      } catch (err) {
        if (!isPlacementError(err)) {
          throw err;
        }
        process.stderr.write(`berth: ${escapeForTerminal((err as Error).message)}\n`);
        process.exitCode = 1;
      } finally {
        await db.close();
      }
    });
}

function limitOption(v: string): number {
  const n = positiveInt(v);
  if (n > 10000) {
    throw new InvalidArgumentError('at most 10000.');
  }
  return n;
}
