// /readyz: the database reachable, writable (a primary) and migrated (the cache is reported, never required), and what
// authentication each API really does.
import type { DataSource } from 'typeorm';
import type { Cache } from '../cache/cache';
import type { Config } from '../config/config';
import { isReadOnly } from '../db/primary';

/** What readiness is checked against. */
export interface ReadinessSources {
  readonly dataSource: DataSource;
  readonly cache: Cache;
  readonly config: Config;
  /** The LISTEN connection for other replicas' changes (absent: not started, e.g. embedded). */
  readonly listener?: { connected(): boolean };
}

/** Ready or not, with one line per check. */
export interface Readiness {
  readonly ready: boolean;
  readonly checks: Record<string, string>;
}

/**
 * What authentication each API really does, for the start-up banner and /readyz: GraphQL and
 * REST token mode verify berth tokens; REST noauth2 trusts the X-Auth-Token header (Placement's
 * test mode) whatever BERTH_AUTH says.
 */
export function authSummary(config: Config): string {
  const graphql = config.keystone
    ? `on (Keystone tokens via ${config.keystone.url}, and berth tokens)`
    : config.auth
      ? 'on'
      : config.authExplicit
        ? 'OFF (BERTH_AUTH=off: every caller is admin)'
        : 'OFF (embedded default: every caller is admin; BERTH_AUTH=on to enable)';
  const rest =
    config.restAuth === 'noauth2'
      ? 'OFF (BERTH_REST_AUTH=noauth2: X-Auth-Token is trusted unverified, as in Placement tests)'
      : config.keystone
        ? 'on (Keystone or berth tokens in X-Auth-Token)'
        : config.auth
          ? 'on (berth tokens in X-Auth-Token)'
          : 'OFF (follows BERTH_AUTH)';
  return `GraphQL ${graphql}; REST ${rest}`;
}

/** A database that does not answer within this is reported unreachable (a hung server). */
const DATABASE_CHECK_MS = 3000;

/**
 * 'ok', or why not: a standby (read-only: no primary reachable, e.g. during a failover) or
 * migrations pending.
 */
async function databaseState(ds: DataSource): Promise<string> {
  if (await isReadOnly(ds)) {
    return 'read-only (a standby, or a primary not yet promoted): writes would fail';
  }
  return (await ds.showMigrations()) ? 'migrations pending' : 'ok';
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Checks readiness now. */
export async function readiness(d: ReadinessSources): Promise<Readiness> {
  const checks: Record<string, string> = {};
  let ready = true;
  try {
    checks.database = await withTimeout(databaseState(d.dataSource), DATABASE_CHECK_MS);
    ready = checks.database === 'ok';
  } catch (err) {
    checks.database = `unreachable: ${(err as Error).message}`;
    ready = false;
  }
  checks.cache = (await d.cache.healthy())
    ? `${d.cache.kind} ok`
    : `${d.cache.kind} down (degraded: uncached)`;
  if (d.listener) {
    // Reported, never required: without it this replica still answers correctly (every claim is
    // checked in the database), only its candidate index may lag until it reconnects and reloads.
    checks.changes = d.listener.connected()
      ? 'listening'
      : "reconnecting (other replicas' changes reach this one when it is back)";
  }
  checks.auth = authSummary(d.config);
  return { ready, checks };
}
