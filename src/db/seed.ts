// Standard resource classes and traits (os-resource-classes 1.1.0, os-traits 2.9.0), and the
// database reset used by tests and the conformance runner (upstream: placement/db_api.py sync).
import type { EntityManager } from 'typeorm';
import standardClasses from './data/os-resource-classes.json';
import standardTraits from './data/os-traits.json';

/** Standard resource class names, in os-resource-classes order. */
export const STANDARD_RESOURCE_CLASSES: readonly string[] = standardClasses.resourceClasses;
/** Standard trait names (sorted). */
export const STANDARD_TRAITS: readonly string[] = standardTraits.traits;

/** Every table berth owns, children before parents. */
export const ALL_TABLES = [
  'quota_limits',
  'resource_provider_traits',
  'aggregate_metadata',
  'resource_provider_aggregates',
  'placement_aggregates',
  'allocations',
  'consumers',
  'inventories',
  'resource_providers',
  'consumer_types',
  'users',
  'projects',
  'traits',
  'resource_classes',
] as const;

/**
 * Inserts any missing standard resource classes and traits (idempotent).
 * Standard classes keep os-resource-classes order so their ids are stable after a reset.
 */
export async function seedStandard(em: EntityManager): Promise<void> {
  await em.query(
    `INSERT INTO resource_classes (name)
     SELECT name FROM unnest($1::text[]) WITH ORDINALITY AS s(name, ord)
     ORDER BY ord
     ON CONFLICT (name) DO NOTHING`,
    [STANDARD_RESOURCE_CLASSES],
  );
  await em.query(
    `INSERT INTO traits (name)
     SELECT name FROM unnest($1::text[]) WITH ORDINALITY AS s(name, ord)
     ORDER BY ord
     ON CONFLICT (name) DO NOTHING`,
    [STANDARD_TRAITS],
  );
}

/**
 * Empties every table, restarts ids and re-seeds the standard classes and traits, atomically,
 * and tells running servers (NOTIFY on `channel`, delivered at commit) to drop what they cached.
 */
export async function resetDatabase(em: EntityManager, channel = 'berth_changes'): Promise<void> {
  await em.query(`TRUNCATE ${ALL_TABLES.join(', ')} RESTART IDENTITY CASCADE`);
  await seedStandard(em);
  await em.query('SELECT pg_notify($1, $2)', [
    channel,
    JSON.stringify({ o: 'reset', c: { kind: 'all' } }),
  ]);
}
