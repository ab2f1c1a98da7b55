// Bulk seeding of the benchmark datasets (the shapes of ../shared/bench: flat and nested compute
// hosts, traits, 10 aggregates, sharing storage), written as set-based SQL: each chunk of hosts
// is one statement that numbers them with generate_series and inserts providers, inventories,
// traits and aggregate links through data-modifying CTEs, so nothing per host crosses the wire and
// 1,000,000 flat hosts load in about a minute (the figures: docs/benchmarks.md, "Scaling").
// Bench-only: production writes go through the domain services.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** Dataset shape. */
export interface SeedSpec {
  readonly hosts: number;
  /** flat: VCPU, MEMORY_MB, DISK_GB on the host; nested: DISK_GB on the root, 2 NUMA children. */
  readonly shape: 'flat' | 'nested';
  /** Sharing storage providers (in agg1, agg2, ...). */
  readonly sharing?: number;
  readonly aggregates?: number;
  /** nested only: GPU children per root (VGPU: 8, HW_GPU_API_VULKAN). Default 0. */
  readonly gpus?: number;
  /** Called after each chunk with the hosts seeded so far. */
  readonly progress?: (hosts: number) => void;
}

/** What was created (aggregate uuids in order agg1..aggN). */
export interface Seeded {
  readonly aggregates: string[];
  readonly providers: number;
}

/** Hosts per statement: large enough that per-statement cost vanishes, small enough to report. */
const CHUNK = 100_000;

async function classId(ds: DataSource, name: string): Promise<number> {
  const rows: { id: number }[] = await ds.query('SELECT id FROM resource_classes WHERE name = $1', [
    name,
  ]);
  return rows[0]!.id;
}

async function traitId(ds: DataSource, name: string): Promise<number> {
  await ds.query('INSERT INTO traits (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]);
  const rows: { id: number }[] = await ds.query('SELECT id FROM traits WHERE name = $1', [name]);
  return rows[0]!.id;
}

const NEXT_ID = `nextval(pg_get_serial_sequence('resource_providers', 'id'))::int`;
const INVENTORY_COLUMNS = `inventories (resource_provider_id, resource_class_id, total, reserved, min_unit, max_unit, step_size, allocation_ratio)`;

/** One inventory row per provider of CTE `from` and entry of `inv` (class, total, reserved, ratio). */
type Inv = readonly [number, number, number, number];
const inventoryRows = (from: string, inv: readonly Inv[]) =>
  inv
    .map(([rc, t, r, a]) => `SELECT ${from}.id, ${rc}, ${t}, ${r}, 1, ${t}, 1, ${a} FROM ${from}`)
    .join(' UNION ALL ');

/**
 * The CTEs creating `n` children per root of CTE `h` named `<name>-<i>-<kind><k>`, with `inv` and
 * `trait` on each child (CTE names prefixed `cte`).
 */
function childCtes(cte: string, kind: string, n: number, inv: readonly Inv[], trait: number) {
  return `${cte} AS MATERIALIZED (SELECT h.id AS root, h.i, k, ${NEXT_ID} AS id
      FROM h CROSS JOIN generate_series(0, ${n - 1}) AS k),
    ${cte}_rp AS (INSERT INTO resource_providers (id, uuid, name, generation, root_provider_id, parent_provider_id)
      SELECT id, gen_random_uuid(), $3 || '-' || i || '-${kind}' || k, 0, root, root FROM ${cte}),
    ${cte}_inv AS (INSERT INTO ${INVENTORY_COLUMNS} ${inventoryRows(cte, inv)}),
    ${cte}_tr AS (INSERT INTO resource_provider_traits (resource_provider_id, trait_id)
      SELECT id, ${trait} FROM ${cte})`;
}

/** Inserts `spec` into an empty database. */
export async function seedDataset(
  ds: DataSource,
  spec: SeedSpec,
  prefix = 'bench',
): Promise<Seeded> {
  const nAgg = spec.aggregates ?? 10;
  const gpus = spec.shape === 'nested' ? (spec.gpus ?? 0) : 0;
  const aggs = Array.from({ length: nAgg }, () => randomUUID());
  const [vcpu, mem, disk] = [
    await classId(ds, 'VCPU'),
    await classId(ds, 'MEMORY_MB'),
    await classId(ds, 'DISK_GB'),
  ];
  const [sse, avx, gold, numaRoot, shares] = [
    await traitId(ds, 'HW_CPU_X86_SSE42'),
    await traitId(ds, 'HW_CPU_X86_AVX2'),
    await traitId(ds, 'CUSTOM_GOLD'),
    await traitId(ds, 'HW_NUMA_ROOT'),
    await traitId(ds, 'MISC_SHARES_VIA_AGGREGATE'),
  ];
  await ds.query('INSERT INTO placement_aggregates (uuid) SELECT unnest($1::uuid[])', [aggs]);
  const aggIds: { id: number; uuid: string }[] = await ds.query(
    'SELECT id, uuid FROM placement_aggregates WHERE uuid = ANY($1::uuid[])',
    [aggs],
  );
  const aggId = new Map(aggIds.map((a) => [a.uuid, a.id]));
  const rootInv: Inv[] =
    spec.shape === 'flat'
      ? [
          [disk, 2000, 0, 1],
          [vcpu, 64, 0, 16],
          [mem, 262144, 512, 1.5],
        ]
      : [[disk, 2000, 0, 1]];
  const children: string[] = [];
  if (spec.shape === 'nested') {
    const numaInv: Inv[] = [
      [vcpu, 32, 0, 16],
      [mem, 131072, 256, 1.5],
    ];
    children.push(childCtes('numa', 'numa', 2, numaInv, numaRoot));
  }
  if (gpus > 0) {
    const vgpu = await classId(ds, 'VGPU');
    children.push(
      childCtes('gpu', 'gpu', gpus, [[vgpu, 8, 0, 1]], await traitId(ds, 'HW_GPU_API_VULKAN')),
    );
  }
  // Every chunk in one statement: FK checks run at its end, when all of its rows exist.
  const sql = `WITH h AS MATERIALIZED (SELECT i, ${NEXT_ID} AS id FROM generate_series($1::int, $2::int) AS i),
    h_rp AS (INSERT INTO resource_providers (id, uuid, name, generation, root_provider_id)
      SELECT id, gen_random_uuid(), $3 || '-' || i, 0, id FROM h),
    h_inv AS (INSERT INTO ${INVENTORY_COLUMNS} ${inventoryRows('h', rootInv)}),
    h_tr AS (INSERT INTO resource_provider_traits (resource_provider_id, trait_id)
      SELECT h.id, t.trait FROM h JOIN unnest($4::int[], $5::int[]) AS t(trait, every) ON h.i % t.every = 0),
    h_ag AS (INSERT INTO resource_provider_aggregates (resource_provider_id, aggregate_id)
      SELECT id, ($6::int[])[(i % ${nAgg}) + 1] FROM h)
    ${children.map((c) => `, ${c}`).join('\n')}
    SELECT count(*)::int AS n FROM h`;
  const perHost = 1 + (spec.shape === 'nested' ? 2 : 0) + gpus;
  let providers = 0;
  const runner = ds.createQueryRunner();
  await runner.connect();
  // The rows are consistent by construction: skipping the per-row foreign-key triggers halves
  // the time (needs a superuser, as the bench's databases have; else the triggers run).
  const skipTriggers = await runner.query('SET session_replication_role = replica').then(
    () => true,
    () => false,
  );
  try {
    for (let start = 0; start < spec.hosts; start += CHUNK) {
      const end = Math.min(spec.hosts, start + CHUNK) - 1;
      const rows: { n: number }[] = await runner.query(sql, [
        start,
        end,
        prefix,
        [sse, avx, gold],
        [1, 2, 10],
        aggs.map((a) => aggId.get(a)),
      ]);
      providers += rows[0]!.n * perHost;
      spec.progress?.(end + 1);
    }
  } finally {
    if (skipTriggers) {
      await runner.query('SET session_replication_role = DEFAULT');
    }
    await runner.release();
  }
  for (let k = 0; k < (spec.sharing ?? 0); k++) {
    const rows: { id: number }[] = await ds.query(
      `WITH n AS (SELECT ${NEXT_ID} AS id)
       INSERT INTO resource_providers (id, uuid, name, generation, root_provider_id)
       SELECT id, gen_random_uuid(), $1, 0, id FROM n RETURNING id`,
      [`${prefix}-shared-storage${k + 1}`],
    );
    const id = rows[0]!.id;
    providers++;
    await ds.query(`INSERT INTO ${INVENTORY_COLUMNS} VALUES ($1, $2, 100000, 0, 1, 100000, 1, 1)`, [
      id,
      disk,
    ]);
    await ds.query('INSERT INTO resource_provider_traits VALUES ($1, $2)', [id, shares]);
    await ds.query('INSERT INTO resource_provider_aggregates VALUES ($1, $2)', [
      id,
      aggId.get(aggs[k % nAgg]!),
    ]);
  }
  return { aggregates: aggs, providers };
}
