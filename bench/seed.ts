// Bulk seeding of the benchmark datasets (the shapes of ../shared/bench: flat and nested compute
// hosts, traits, 10 aggregates, sharing storage), written with set-based SQL so 100,000 hosts
// load in seconds. Bench-only: production writes go through the domain services.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** Dataset shape. */
export interface SeedSpec {
  readonly hosts: number;
  readonly shape: 'flat' | 'nested';
  /** Sharing storage providers (in agg1, agg2, ...). */
  readonly sharing?: number;
  readonly aggregates?: number;
}

/** What was created (aggregate uuids in order agg1..aggN). */
export interface Seeded {
  readonly aggregates: string[];
  readonly providers: number;
}

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

/** Inserts `spec` into an empty database. */
export async function seedDataset(
  ds: DataSource,
  spec: SeedSpec,
  prefix = 'bench',
): Promise<Seeded> {
  const nAgg = spec.aggregates ?? 10;
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
  const chunk = 5000;
  let providers = 0;
  for (let start = 0; start < spec.hosts; start += chunk) {
    const n = Math.min(chunk, spec.hosts - start);
    const idx = Array.from({ length: n }, (_, k) => start + k);
    const roots: { id: number; i: number }[] = await ds.query(
      `WITH src AS (SELECT i, nextval(pg_get_serial_sequence('resource_providers', 'id'))::int AS id
                    FROM unnest($1::int[]) AS i)
       INSERT INTO resource_providers (id, uuid, name, generation, root_provider_id)
       SELECT id, gen_random_uuid(), $2 || '-' || i, 0, id FROM src
       RETURNING id, (regexp_match(name, '-(\\d+)$'))[1]::int AS i`,
      [idx, prefix],
    );
    providers += roots.length;
    const rootIds = roots.map((r) => r.id);
    const rootI = roots.map((r) => r.i);
    const invRows: [number[], number[], number[], number[], number[]] = [[], [], [], [], []];
    const addInv = (rp: number, rc: number, total: number, reserved: number, ratio: number) => {
      invRows[0].push(rp);
      invRows[1].push(rc);
      invRows[2].push(total);
      invRows[3].push(reserved);
      invRows[4].push(ratio);
    };
    const traitRows: [number[], number[]] = [[], []];
    for (const r of roots) {
      traitRows[0].push(r.id);
      traitRows[1].push(sse);
      if (r.i % 2 === 0) {
        traitRows[0].push(r.id);
        traitRows[1].push(avx);
      }
      if (r.i % 10 === 0) {
        traitRows[0].push(r.id);
        traitRows[1].push(gold);
      }
      addInv(r.id, disk, 2000, 0, 1);
      if (spec.shape === 'flat') {
        addInv(r.id, vcpu, 64, 0, 16);
        addInv(r.id, mem, 262144, 512, 1.5);
      }
    }
    if (spec.shape === 'nested') {
      for (const numa of [0, 1]) {
        const kids: { id: number }[] = await ds.query(
          `WITH src AS (SELECT r, i FROM unnest($1::int[], $2::int[]) AS s(r, i))
           INSERT INTO resource_providers (uuid, name, generation, root_provider_id, parent_provider_id)
           SELECT gen_random_uuid(), $3 || '-' || i || '-numa' || $4, 0, r, r FROM src RETURNING id`,
          [rootIds, rootI, prefix, numa],
        );
        providers += kids.length;
        for (const k of kids) {
          addInv(k.id, vcpu, 32, 0, 16);
          addInv(k.id, mem, 131072, 256, 1.5);
          traitRows[0].push(k.id);
          traitRows[1].push(numaRoot);
        }
      }
    }
    await ds.query(
      `INSERT INTO inventories (resource_provider_id, resource_class_id, total, reserved, min_unit, max_unit, step_size, allocation_ratio)
       SELECT rp, rc, t, r, 1, t, 1, a FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::float8[]) AS s(rp, rc, t, r, a)`,
      invRows,
    );
    await ds.query(
      'INSERT INTO resource_provider_traits (resource_provider_id, trait_id) SELECT * FROM unnest($1::int[], $2::int[])',
      traitRows,
    );
    await ds.query(
      `INSERT INTO resource_provider_aggregates (resource_provider_id, aggregate_id)
       SELECT rp, ($2::int[])[(i % $3) + 1] FROM unnest($1::int[], $4::int[]) AS s(rp, i)`,
      [rootIds, aggs.map((a) => aggId.get(a)), nAgg, rootI],
    );
  }
  for (let k = 0; k < (spec.sharing ?? 0); k++) {
    const rows: { id: number }[] = await ds.query(
      `WITH n AS (SELECT nextval(pg_get_serial_sequence('resource_providers', 'id'))::int AS id)
       INSERT INTO resource_providers (id, uuid, name, generation, root_provider_id)
       SELECT id, gen_random_uuid(), $1, 0, id FROM n RETURNING id`,
      [`${prefix}-shared-storage${k + 1}`],
    );
    const id = rows[0]!.id;
    providers++;
    await ds.query(
      `INSERT INTO inventories (resource_provider_id, resource_class_id, total, reserved, min_unit, max_unit, step_size, allocation_ratio)
       VALUES ($1, $2, 100000, 0, 1, 100000, 1, 1)`,
      [id, disk],
    );
    await ds.query('INSERT INTO resource_provider_traits VALUES ($1, $2)', [id, shares]);
    await ds.query('INSERT INTO resource_provider_aggregates VALUES ($1, $2)', [
      id,
      aggId.get(aggs[k % nAgg]!),
    ]);
  }
  return { aggregates: aggs, providers };
}
