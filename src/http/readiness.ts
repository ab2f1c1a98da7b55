// /readyz: the database reachable and migrated (the cache is reported, never required), and what
// authentication each API really does.
import type { DataSource } from 'typeorm';
import type { Cache } from '../cache/cache';
import type { Config } from '../config/config';

/** What readiness is checked against. */
export interface ReadinessSources {
  readonly dataSource: DataSource;
  readonly cache: Cache;
  readonly config: Config;
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

/** Checks readiness now. */
export async function readiness(d: ReadinessSources): Promise<Readiness> {
  const checks: Record<string, string> = {};
  let ready = true;
  try {
    const pending = await d.dataSource.showMigrations();
    checks.database = pending ? 'migrations pending' : 'ok';
    ready = !pending;
  } catch (err) {
    checks.database = `unreachable: ${(err as Error).message}`;
    ready = false;
  }
  checks.cache = (await d.cache.healthy())
    ? `${d.cache.kind} ok`
    : `${d.cache.kind} down (degraded: uncached)`;
  checks.auth = authSummary(d.config);
  return { ready, checks };
}
