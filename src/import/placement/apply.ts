// Writes one batch of decided providers or consumers to berth inside the caller's transaction,
// set-based (a few statements per batch, whatever its size). Generations are copied from the
// source, never bumped: berth ends up holding what Placement held.
import type { EntityManager } from 'typeorm';
import { ConflictError, ErrorCode } from '../../placement/errors';
import { idsByKey } from './berth-state';
import type { ConsumerDecision, ProviderDecision } from './plan';

type Db = Pick<EntityManager, 'query'>;

/** Natural key -> berth id for the catalogue rows a batch refers to. */
export interface Catalog {
  readonly classes: Map<string, number>;
  readonly traits: Map<string, number>;
  readonly aggregates: Map<string, number>;
  readonly projects: Map<string, number>;
  readonly users: Map<string, number>;
  readonly consumerTypes: Map<string, number>;
}

function idOrThrow(m: Map<string, number>, k: string, what: string): number {
  const id = m.get(k);
  if (id === undefined) {
    throw new Error(`${what} ${k} is missing in berth (catalogue import incomplete)`);
  }
  return id;
}

async function newIds(em: Db, table: string, n: number): Promise<number[]> {
  if (n === 0) {
    return [];
  }
  const rows: { id: number }[] = await em.query(
    `SELECT nextval(pg_get_serial_sequence('${table}', 'id'))::int AS id FROM generate_series(1, $1)`,
    [n],
  );
  return rows.map((r) => r.id);
}

/** Deletes berth providers holding a source name under another uuid (only when unused). */
async function freeNames(em: Db, decisions: readonly ProviderDecision[]): Promise<void> {
  const holders = decisions.flatMap((d) => (d.nameHolder ? [d.nameHolder] : []));
  if (holders.length === 0) {
    return;
  }
  const ids = holders.map((h) => h.id);
  const busy: { uuid: string }[] = await em.query(
    `SELECT rp.uuid::text AS uuid FROM resource_providers rp WHERE rp.id = ANY($1::int[])
       AND (EXISTS (SELECT 1 FROM allocations a WHERE a.resource_provider_id = rp.id)
         OR EXISTS (SELECT 1 FROM resource_providers c WHERE c.parent_provider_id = rp.id))`,
    [ids],
  );
  if (busy.length > 0) {
    throw new ConflictError(
      `berth provider ${busy[0]!.uuid} holds a name the source gives another uuid, and has allocations or children: --replace will not delete it; remove it first`,
      ErrorCode.DUPLICATE_NAME,
    );
  }
  await em.query('DELETE FROM resource_providers WHERE id = ANY($1::int[])', [ids]);
}

/** Prefix of the temporary name a provider holds while names move between providers. */
export const PARKED_NAME_PREFIX = '~berth-import-renaming~';

/**
 * Moves out of the way every berth provider whose name changes in this batch, or which holds a
 * name this batch needs and gets its own new name in a later one (two providers swapping names):
 * a unique name is checked row by row, so the final names can only be set once none is held.
 */
async function parkNames(em: Db, decisions: readonly ProviderDecision[]): Promise<void> {
  const ids = new Set<number>();
  for (const d of decisions) {
    if (d.action === 'replace' && d.current && d.current.name !== d.source.name) {
      ids.add(d.current.id);
    }
    if (d.parked) {
      ids.add(d.parked.id);
    }
  }
  if (ids.size > 0) {
    await em.query(
      'UPDATE resource_providers SET name = $2 || uuid::text WHERE id = ANY($1::int[])',
      [[...ids], PARKED_NAME_PREFIX],
    );
  }
}

/**
 * Creates and replaces the providers of one batch (parents before children) with their
 * inventories, traits and aggregates.
 * @returns the berth ids of every provider written.
 */
export async function applyProviders(
  em: Db,
  decisions: readonly ProviderDecision[],
  cat: Catalog,
): Promise<number[]> {
  const todo = decisions.filter((d) => d.action === 'create' || d.action === 'replace');
  if (todo.length === 0) {
    return [];
  }
  await freeNames(em, todo);
  await parkNames(em, todo);
  const creates = todo.filter((d) => d.action === 'create');
  const fresh = await newIds(em, 'resource_providers', creates.length);
  const idOf = new Map<string, number>();
  creates.forEach((d, i) => {
    idOf.set(d.source.uuid, fresh[i]!);
  });
  for (const d of todo) {
    if (d.current) {
      idOf.set(d.source.uuid, d.current.id);
    }
  }
  const outside = [
    ...new Set(todo.flatMap((d) => [d.source.rootUuid, d.source.parentUuid ?? d.source.rootUuid])),
  ].filter((u) => !idOf.has(u));
  for (const [u, id] of await idsByKey(em, 'resource_providers', 'uuid', outside)) {
    idOf.set(u, id);
  }
  const link = (u: string) => idOrThrow(idOf, u, 'provider');
  const cols = (ds: readonly ProviderDecision[]) => [
    ds.map((d) => link(d.source.uuid)),
    ds.map((d) => d.source.uuid),
    ds.map((d) => d.source.name),
    ds.map((d) => d.source.generation),
    ds.map((d) => link(d.source.rootUuid)),
    ds.map((d) => (d.source.parentUuid ? link(d.source.parentUuid) : null)),
  ];
  const replaced = todo.filter((d) => d.action === 'replace');
  if (replaced.length > 0) {
    const ids = replaced.map((d) => d.current!.id);
    await em.query(
      `UPDATE resource_providers rp SET name = s.name, generation = s.gen, root_provider_id = s.root,
              parent_provider_id = s.parent, updated_at = now()
         FROM unnest($1::int[], $2::uuid[], $3::text[], $4::int[], $5::int[], $6::int[])
              AS s(id, uuid, name, gen, root, parent)
        WHERE rp.id = s.id`,
      cols(replaced),
    );
    for (const t of ['inventories', 'resource_provider_traits', 'resource_provider_aggregates']) {
      await em.query(`DELETE FROM ${t} WHERE resource_provider_id = ANY($1::int[])`, [ids]);
    }
  }
  if (creates.length > 0) {
    await em.query(
      `INSERT INTO resource_providers (id, uuid, name, generation, root_provider_id, parent_provider_id)
       SELECT * FROM unnest($1::int[], $2::uuid[], $3::text[], $4::int[], $5::int[], $6::int[])`,
      cols(creates),
    );
  }
  const inv = todo.flatMap((d) =>
    d.source.inventories.map((i) => ({ rp: link(d.source.uuid), i })),
  );
  if (inv.length > 0) {
    await em.query(
      `INSERT INTO inventories (resource_provider_id, resource_class_id, total, reserved, min_unit,
              max_unit, step_size, allocation_ratio)
       SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[],
              $7::int[], $8::float8[])`,
      [
        inv.map((x) => x.rp),
        inv.map((x) => idOrThrow(cat.classes, x.i.resourceClass, 'resource class')),
        inv.map((x) => x.i.total),
        inv.map((x) => x.i.reserved),
        inv.map((x) => x.i.minUnit),
        inv.map((x) => x.i.maxUnit),
        inv.map((x) => x.i.stepSize),
        inv.map((x) => x.i.allocationRatio),
      ],
    );
  }
  await insertPairs(
    em,
    'resource_provider_traits',
    'trait_id',
    todo,
    (d) => d.source.traits.map((t) => idOrThrow(cat.traits, t, 'trait')),
    link,
  );
  await insertPairs(
    em,
    'resource_provider_aggregates',
    'aggregate_id',
    todo,
    (d) => d.source.aggregates.map((a) => idOrThrow(cat.aggregates, a, 'aggregate')),
    link,
  );
  return todo.map((d) => link(d.source.uuid));
}

async function insertPairs(
  em: Db,
  table: string,
  column: string,
  todo: readonly ProviderDecision[],
  ids: (d: ProviderDecision) => number[],
  link: (uuid: string) => number,
): Promise<void> {
  const pairs = todo.flatMap((d) => [...new Set(ids(d))].map((id) => [link(d.source.uuid), id]));
  if (pairs.length > 0) {
    await em.query(
      `INSERT INTO ${table} (resource_provider_id, ${column}) SELECT * FROM unnest($1::int[], $2::int[])`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
  }
}

/**
 * Creates and replaces the consumers of one batch with their allocations (a replaced consumer's
 * berth move record goes with its old allocations).
 * @returns the berth ids of the providers whose usage was written.
 */
export async function applyConsumers(
  em: Db,
  decisions: readonly ConsumerDecision[],
  cat: Catalog,
): Promise<number[]> {
  const todo = decisions.filter((d) => d.action === 'create' || d.action === 'replace');
  if (todo.length === 0) {
    return [];
  }
  const creates = todo.filter((d) => d.action === 'create');
  const fresh = await newIds(em, 'consumers', creates.length);
  const idOf = new Map<string, number>();
  creates.forEach((d, i) => {
    idOf.set(d.source.uuid, fresh[i]!);
  });
  const replaced = todo.filter((d) => d.action === 'replace');
  for (const d of replaced) {
    idOf.set(d.source.uuid, d.current!.id);
  }
  const cols = (ds: readonly ConsumerDecision[]) => [
    ds.map((d) => idOf.get(d.source.uuid)!),
    ds.map((d) => d.source.uuid),
    ds.map((d) => idOrThrow(cat.projects, d.source.project, 'project')),
    ds.map((d) => idOrThrow(cat.users, d.source.user, 'user')),
    ds.map((d) =>
      d.source.consumerType === null
        ? null
        : idOrThrow(cat.consumerTypes, d.source.consumerType, 'consumer type'),
    ),
    ds.map((d) => d.source.generation),
  ];
  if (replaced.length > 0) {
    const ids = replaced.map((d) => d.current!.id);
    await em.query(
      `UPDATE consumers c SET project_id = s.project, user_id = s.usr, consumer_type_id = s.type,
              generation = s.gen, updated_at = now()
         FROM unnest($1::int[], $2::uuid[], $3::int[], $4::int[], $5::int[], $6::int[])
              AS s(id, uuid, project, usr, type, gen)
        WHERE c.id = s.id`,
      cols(replaced),
    );
    await em.query('DELETE FROM allocations WHERE consumer_id = ANY($1::int[])', [ids]);
    await em.query('DELETE FROM consumer_moves WHERE consumer_id = ANY($1::int[])', [ids]);
  }
  if (creates.length > 0) {
    await em.query(
      `INSERT INTO consumers (id, uuid, project_id, user_id, consumer_type_id, generation)
       SELECT * FROM unnest($1::int[], $2::uuid[], $3::int[], $4::int[], $5::int[], $6::int[])`,
      cols(creates),
    );
  }
  const allocs = todo.flatMap((d) =>
    d.source.allocations.map((a) => ({ c: idOf.get(d.source.uuid)!, a })),
  );
  const providers = await idsByKey(em, 'resource_providers', 'uuid', [
    ...new Set(allocs.map((x) => x.a.providerUuid)),
  ]);
  if (allocs.length > 0) {
    await em.query(
      `INSERT INTO allocations (resource_provider_id, consumer_id, resource_class_id, used)
       SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::int[])`,
      [
        allocs.map((x) => idOrThrow(providers, x.a.providerUuid, 'provider')),
        allocs.map((x) => x.c),
        allocs.map((x) => idOrThrow(cat.classes, x.a.resourceClass, 'resource class')),
        allocs.map((x) => x.a.used),
      ],
    );
  }
  return [...providers.values()];
}
