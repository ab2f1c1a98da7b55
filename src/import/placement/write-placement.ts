// Writes a whole placement model (berth's, read as a snapshot) into a Placement 8.0 database:
// the mirror of read-placement.ts. Catalogue rows are matched by name (uuid, external id) and
// reused; resource class ids follow Placement's numbering (placement-ids.ts);
// providers get fresh ids, parents first, and the rows hanging off them follow. Everything runs
// in the caller's transaction (target.ts), in multi-row INSERTs of at most `batch` rows.
import { exportedNames, placementClassIds } from './placement-ids';
import type { PlacementSnapshot } from './read-placement';
import type { PlacementTarget } from './target';

/** What an export writes, per kind: rows new in the target, rows it already had (reused). */
export const EXPORT_KINDS = [
  'resource classes',
  'traits',
  'aggregates',
  'projects',
  'users',
  'consumer types',
  'providers',
  'inventories',
  'provider traits',
  'provider aggregates',
  'consumers',
  'allocations',
] as const;

export type ExportKind = (typeof EXPORT_KINDS)[number];

/** Per kind: rows to write and catalogue rows found in the target. */
export type ExportCounts = Record<ExportKind, { written: number; reused: number }>;

/** The catalogue tables: natural key column and where the snapshot lists the keys. */
const CATALOG = [
  { kind: 'traits', table: 'traits', column: 'name' },
  { kind: 'aggregates', table: 'placement_aggregates', column: 'uuid' },
  { kind: 'projects', table: 'projects', column: 'external_id' },
  { kind: 'users', table: 'users', column: 'external_id' },
  { kind: 'consumer types', table: 'consumer_types', column: 'name' },
] as const;

type CatalogKind = (typeof CATALOG)[number]['kind'] | 'resource classes';

/** The keys of each catalogue kind the export needs. */
function wantedKeys(snap: PlacementSnapshot): Record<CatalogKind, string[]> {
  const used = (f: (p: PlacementSnapshot['providers'][number]) => string[]) =>
    snap.providers.flatMap(f);
  const allocated = snap.consumers.flatMap((c) => c.allocations.map((a) => a.resourceClass));
  return {
    'resource classes': exportedNames(snap.resourceClasses, [
      ...used((p) => p.inventories.map((i) => i.resourceClass)),
      ...allocated,
    ]),
    traits: exportedNames(
      snap.traits,
      used((p) => p.traits),
    ),
    aggregates: snap.aggregates,
    projects: [...new Set([...snap.projects, ...snap.consumers.map((c) => c.project)])],
    users: [...new Set([...snap.users, ...snap.consumers.map((c) => c.user)])],
    'consumer types': snap.consumerTypes,
  };
}

async function idsByKey(t: PlacementTarget, table: string, column: string) {
  const rows = await t.query(`SELECT id, ${column} AS k FROM ${table}`);
  return new Map(rows.map((r) => [String(r.k), Number(r.id)]));
}

/** How many providers, consumers and allocations the target holds. */
export async function targetContents(
  t: PlacementTarget,
): Promise<{ providers: number; consumers: number; allocations: number }> {
  const n = async (table: string) =>
    Number((await t.query(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
  return {
    providers: await n('resource_providers'),
    consumers: await n('consumers'),
    allocations: await n('allocations'),
  };
}

/**
 * Empties Placement's data tables (--replace): every provider, consumer and allocation with what
 * hangs off them, projects, users, consumer types, aggregates, and the custom classes and traits
 * `snap` does not use. Standard classes and traits stay (Placement's own sync owns them), and so
 * do the ids of the custom ones kept: a running Placement caches them by id.
 */
export async function emptyTarget(t: PlacementTarget, snap: PlacementSnapshot): Promise<void> {
  for (const table of [
    'allocations',
    'consumers',
    'inventories',
    'resource_provider_traits',
    'resource_provider_aggregates',
  ]) {
    await t.query(`DELETE FROM ${table}`);
  }
  // MySQL checks the self-references row by row: unlink before deleting.
  await t.query('UPDATE resource_providers SET parent_provider_id = NULL, root_provider_id = NULL');
  for (const table of [
    'resource_providers',
    'placement_aggregates',
    'projects',
    'users',
    'consumer_types',
  ]) {
    await t.query(`DELETE FROM ${table}`);
  }
  const want = wantedKeys(snap);
  for (const [table, keep] of [
    ['resource_classes', new Set(want['resource classes'])],
    ['traits', new Set(want.traits)],
  ] as const) {
    const custom = await t.query(`SELECT id, name FROM ${table} WHERE LEFT(name, 7) = 'CUSTOM_'`);
    const drop = custom.filter((r) => !keep.has(String(r.name))).map((r) => Number(r.id));
    for (let i = 0; i < drop.length; i += 1000) {
      const part = drop.slice(i, i + 1000);
      await t.query(`DELETE FROM ${table} WHERE id IN (${part.map(() => '?').join(', ')})`, part);
    }
  }
}

/** Counts what {@link writePlacement} would write into `t` (reads only). */
export async function planPlacementWrite(
  t: PlacementTarget,
  snap: PlacementSnapshot,
): Promise<ExportCounts> {
  const want = wantedKeys(snap);
  const counts = Object.fromEntries(
    EXPORT_KINDS.map((k) => [k, { written: 0, reused: 0 }]),
  ) as ExportCounts;
  // One connection: the reads run one after the other.
  const existing = new Map<CatalogKind, Map<string, number>>([
    ['resource classes', await idsByKey(t, 'resource_classes', 'name')],
  ]);
  for (const c of CATALOG) {
    existing.set(c.kind, await idsByKey(t, c.table, c.column));
  }
  for (const [kind, keys] of Object.entries(want) as [CatalogKind, string[]][]) {
    const have = existing.get(kind)!;
    const reused = keys.filter((k) => have.has(k)).length;
    counts[kind] = { written: keys.length - reused, reused };
  }
  const sum = (f: (p: PlacementSnapshot['providers'][number]) => number) =>
    snap.providers.reduce((n, p) => n + f(p), 0);
  counts.providers.written = snap.providers.length;
  counts.inventories.written = sum((p) => p.inventories.length);
  counts['provider traits'].written = sum((p) => new Set(p.traits).size);
  counts['provider aggregates'].written = sum((p) => new Set(p.aggregates).size);
  counts.consumers.written = snap.consumers.length;
  counts.allocations.written = snap.consumers.reduce((n, c) => n + c.allocations.length, 0);
  return counts;
}

/** Inserts `rows` into `table` in statements of at most `batch` rows. */
async function insertRows(
  t: PlacementTarget,
  table: string,
  cols: readonly string[],
  rows: readonly unknown[][],
  batch: number,
  onRows: (n: number) => void,
): Promise<void> {
  // Both drivers cap a statement at 65535 parameters.
  const per = Math.max(1, Math.min(batch, Math.floor(60_000 / cols.length)));
  for (let i = 0; i < rows.length; i += per) {
    const part = rows.slice(i, i + per);
    const values = part.map(() => `(${cols.map(() => '?').join(', ')})`).join(', ');
    await t.query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values}`, part.flat());
    onRows(part.length);
  }
}

function idOrThrow(m: ReadonlyMap<string, number>, k: string, what: string): number {
  const id = m.get(k);
  if (id === undefined) {
    throw new Error(`${what} ${k} has no row in the target`);
  }
  return id;
}

/**
 * Writes `snap` into `t` (which holds no providers or consumers: see {@link targetContents}).
 * @param onRows called after each statement with the rows it wrote and the table's name.
 * @throws Error from the target database (the caller rolls back).
 */
export async function writePlacement(
  t: PlacementTarget,
  snap: PlacementSnapshot,
  batch: number,
  onRows: (n: number, table: string) => void,
): Promise<void> {
  const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
  const want = wantedKeys(snap);
  const insert = (table: string, cols: string[], rows: unknown[][]) =>
    insertRows(
      t,
      table,
      ['created_at', ...cols],
      rows.map((r) => [now, ...r]),
      batch,
      (n) => onRows(n, table),
    );
  const classes = placementClassIds(
    want['resource classes'],
    await idsByKey(t, 'resource_classes', 'name'),
  );
  await insert(
    'resource_classes',
    ['id', 'name'],
    classes.inserts.map(([name, id]) => [id, name]),
  );
  const cat = new Map<string, ReadonlyMap<string, number>>();
  for (const c of CATALOG) {
    const have = await idsByKey(t, c.table, c.column);
    const missing = want[c.kind].filter((k) => !have.has(k));
    await insert(
      c.table,
      [c.column],
      missing.map((k) => [k]),
    );
    cat.set(c.kind, missing.length > 0 ? await idsByKey(t, c.table, c.column) : have);
  }
  const catalog = (kind: (typeof CATALOG)[number]['kind'], k: string) =>
    idOrThrow(cat.get(kind)!, k, kind);
  const base = Number((await t.query('SELECT max(id) AS m FROM resource_providers'))[0]!.m ?? 0);
  const rp = new Map(snap.providers.map((p, i) => [p.uuid, base + 1 + i]));
  const link = (u: string) => idOrThrow(rp, u, 'provider');
  await insert(
    'resource_providers',
    ['id', 'uuid', 'name', 'generation', 'root_provider_id', 'parent_provider_id'],
    snap.providers.map((p) => [
      link(p.uuid),
      p.uuid,
      p.name,
      p.generation,
      link(p.rootUuid),
      p.parentUuid ? link(p.parentUuid) : null,
    ]),
  );
  if (t.dialect === 'postgres') {
    // Rows went in with explicit ids: move the sequence past them (MySQL does so by itself).
    await t.query(
      "SELECT setval(pg_get_serial_sequence('resource_providers', 'id'), GREATEST((SELECT max(id) FROM resource_providers), 1))",
    );
  }
  const cls = (name: string) => idOrThrow(classes.ids, name, 'resource class');
  await insert(
    'inventories',
    [
      'resource_provider_id',
      'resource_class_id',
      'total',
      'reserved',
      'min_unit',
      'max_unit',
      'step_size',
      'allocation_ratio',
    ],
    snap.providers.flatMap((p) =>
      p.inventories.map((i) => [
        link(p.uuid),
        cls(i.resourceClass),
        i.total,
        i.reserved,
        i.minUnit,
        i.maxUnit,
        i.stepSize,
        i.allocationRatio,
      ]),
    ),
  );
  await insert(
    'resource_provider_traits',
    ['resource_provider_id', 'trait_id'],
    snap.providers.flatMap((p) =>
      [...new Set(p.traits)].map((n) => [link(p.uuid), catalog('traits', n)]),
    ),
  );
  await insert(
    'resource_provider_aggregates',
    ['resource_provider_id', 'aggregate_id'],
    snap.providers.flatMap((p) =>
      [...new Set(p.aggregates)].map((a) => [link(p.uuid), catalog('aggregates', a)]),
    ),
  );
  await insert(
    'consumers',
    ['uuid', 'project_id', 'user_id', 'generation', 'consumer_type_id'],
    snap.consumers.map((c) => [
      c.uuid,
      catalog('projects', c.project),
      catalog('users', c.user),
      c.generation,
      c.consumerType === null ? null : catalog('consumer types', c.consumerType),
    ]),
  );
  await insert(
    'allocations',
    ['resource_provider_id', 'consumer_id', 'resource_class_id', 'used'],
    snap.consumers.flatMap((c) =>
      c.allocations.map((a) => [link(a.providerUuid), c.uuid, cls(a.resourceClass), a.used]),
    ),
  );
}
