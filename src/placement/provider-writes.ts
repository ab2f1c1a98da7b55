// Provider and class writes inside a caller's transaction: the statements the public services run
// in their own transactions (ResourceProviderService.create inserts through insertProvider), for
// callers that compose several domain steps in one transaction (the legacy compute-node import).
import type { DataSource, EntityManager } from 'typeorm';

/** The uuid of another provider already named `name` (not `uuid`), if any. */
export async function otherProviderNamed(
  em: EntityManager,
  name: string,
  uuid: string,
): Promise<string | undefined> {
  const rows: { uuid: string }[] = await em.query(
    'SELECT uuid FROM resource_providers WHERE name = $1 AND uuid <> $2',
    [name, uuid],
  );
  return rows[0]?.uuid;
}

/** The uuid of the provider named `name`, if any. */
export async function providerUuidByName(
  ds: DataSource | EntityManager,
  name: string,
): Promise<string | undefined> {
  const rows: { uuid: string }[] = await ds.query(
    'SELECT uuid FROM resource_providers WHERE name = $1',
    [name],
  );
  return rows[0]?.uuid;
}

/**
 * Inserts a provider in one statement and returns its id: a child of `parent`, or a root (its new
 * id is also its root id). A null `uuid` draws a random one.
 */
export async function insertProvider(
  em: EntityManager,
  p: {
    readonly uuid: string | null;
    readonly name: string;
    readonly parent?: { readonly id: number; readonly rootId: number };
  },
): Promise<number> {
  const rows: { id: number }[] = await em.query(
    `WITH n AS (SELECT nextval(pg_get_serial_sequence('resource_providers', 'id'))::int AS id)
     INSERT INTO resource_providers (id, uuid, name, generation, root_provider_id, parent_provider_id)
     SELECT n.id, COALESCE($1::uuid, gen_random_uuid()), $2, 0, COALESCE($3::int, n.id), $4::int FROM n
     RETURNING id`,
    [p.uuid, p.name, p.parent?.rootId ?? null, p.parent?.id ?? null],
  );
  return rows[0]!.id;
}

/** Locks the provider `uuid` for update; its id and name, or undefined when there is none. */
export async function lockProviderByUuid(
  em: EntityManager,
  uuid: string,
): Promise<{ id: number; name: string } | undefined> {
  const rows: { id: number; name: string }[] = await em.query(
    'SELECT id, name FROM resource_providers WHERE uuid = $1 FOR UPDATE',
    [uuid],
  );
  return rows[0];
}

/** Renames provider `id`. */
export async function renameProvider(em: EntityManager, id: number, name: string): Promise<void> {
  await em.query('UPDATE resource_providers SET name = $2, updated_at = now() WHERE id = $1', [
    id,
    name,
  ]);
}

/** Creates the custom resource classes of `names` that do not exist; returns the created ones. */
export async function createMissingClasses(
  em: EntityManager,
  names: readonly string[],
): Promise<string[]> {
  const created: { name: string }[] = await em.query(
    `INSERT INTO resource_classes (name) SELECT unnest($1::text[])
     ON CONFLICT (name) DO NOTHING RETURNING name`,
    [names],
  );
  return created.map((c) => c.name);
}
