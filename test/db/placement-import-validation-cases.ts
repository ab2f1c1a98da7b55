// The cases of test/db/placement-import-validation.test.ts: a small valid Placement cloud, and one
// corruption per security finding (a statement run on the source after it is filled), each with
// the findings the import must report: kind, rule, and text the row label contains.
import { randomUUID } from 'node:crypto';
import type { PlacementFixture, PlacementSourceDb } from '../support/placement-source';

/** A host with a NUMA child, a second host, two consumers. VCPU is class 0, DISK_GB 2. */
export function baseFixture(prefix: string) {
  const p = { host: randomUUID(), numa: randomUUID(), other: randomUUID() };
  const c = { a: randomUUID(), b: randomUUID() };
  const agg = randomUUID();
  const fixture: PlacementFixture = {
    providers: [
      {
        uuid: p.host,
        name: `${prefix}-host`,
        traits: ['HW_CPU_X86_AVX2'],
        aggregates: [agg],
        inventories: { VCPU: { total: 10 }, MEMORY_MB: { total: 4096 } },
      },
      {
        uuid: p.numa,
        name: `${prefix}-host-numa0`,
        parent: p.host,
        inventories: { VCPU: { total: 4 } },
      },
      { uuid: p.other, name: `${prefix}-other`, inventories: { VCPU: { total: 8 } } },
    ],
    consumers: [
      {
        uuid: c.a,
        project: `${prefix}-proj`,
        user: `${prefix}-user`,
        type: 'INSTANCE',
        allocations: [{ provider: p.host, resourceClass: 'VCPU', used: 2 }],
      },
      {
        uuid: c.b,
        project: `${prefix}-proj`,
        user: `${prefix}-user`,
        allocations: [{ provider: p.other, resourceClass: 'VCPU', used: 1 }],
      },
    ],
  };
  return { fixture, p, c, agg };
}

/** The base cloud's uuids. */
export type Fx = ReturnType<typeof baseFixture>;
/** A case's source, its cloud, and a provider's source id by uuid. */
export type Ctx = { src: PlacementSourceDb; fx: Fx; id: (uuid: string) => Promise<number> };

/** One finding expected: kind, rule, and text the row label contains. */
type Want = { kind: string; rule: string; row: (c: Ctx) => Promise<string> | string };

const inv = (c: Ctx, sql: string, params: unknown[] = []) =>
  c
    .id(c.fx.p.host)
    .then((host) =>
      c.src.query(
        `UPDATE inventories SET ${sql} WHERE resource_provider_id = ? AND resource_class_id = 0`,
        [...params, host],
      ),
    );
const hostInventory = async (c: Ctx) => `VCPU of provider id ${await c.id(c.fx.p.host)})`;
const uuidRow = (u: (c: Ctx) => string) => (c: Ctx) => `uuid "${u(c)}"`;

/** One corruption per finding. */
export const CASES: {
  name: string;
  pgOnly?: boolean;
  mariadbOnly?: boolean;
  corrupt: (c: Ctx) => Promise<unknown>;
  want: Want[];
}[] = [
  {
    name: 'an allocation_ratio of Infinity (50 VCPU fitted a 10-VCPU inventory afterwards)',
    pgOnly: true,
    corrupt: (c) => inv(c, "allocation_ratio = 'Infinity'"),
    want: [{ kind: 'inventory', rule: 'invalid-inventory', row: hostInventory }],
  },
  {
    name: 'an allocation_ratio of NaN',
    pgOnly: true,
    corrupt: (c) => inv(c, "allocation_ratio = 'NaN'"),
    want: [{ kind: 'inventory', rule: 'invalid-inventory', row: hostInventory }],
  },
  {
    name: 'a negative allocation_ratio',
    corrupt: (c) => inv(c, 'allocation_ratio = -1'),
    want: [{ kind: 'inventory', rule: 'invalid-inventory', row: hostInventory }],
  },
  {
    name: 'an allocation_ratio of 0',
    corrupt: (c) => inv(c, 'allocation_ratio = 0'),
    want: [{ kind: 'inventory', rule: 'invalid-inventory', row: hostInventory }],
  },
  {
    name: 'a negative total',
    corrupt: (c) => inv(c, 'total = -5'),
    want: [{ kind: 'inventory', rule: 'invalid-inventory', row: hostInventory }],
  },
  {
    name: 'reserved above total',
    corrupt: (c) => inv(c, 'reserved = 11'),
    want: [{ kind: 'inventory', rule: 'invalid-inventory', row: hostInventory }],
  },
  {
    name: 'a min_unit of 0',
    corrupt: (c) => inv(c, 'min_unit = 0'),
    want: [{ kind: 'inventory', rule: 'invalid-inventory', row: hostInventory }],
  },
  {
    name: 'a step_size of 0',
    corrupt: (c) => inv(c, 'step_size = 0'),
    want: [{ kind: 'inventory', rule: 'invalid-inventory', row: hostInventory }],
  },
  {
    name: 'min_unit above max_unit',
    corrupt: (c) => inv(c, 'min_unit = 5, max_unit = 4'),
    want: [{ kind: 'inventory', rule: 'invalid-inventory', row: hostInventory }],
  },
  ...[-3, 0].map((used) => ({
    name: `an allocation of ${used}`,
    corrupt: (c: Ctx) =>
      c.src.query('UPDATE allocations SET used = ? WHERE consumer_id = ?', [used, c.fx.c.a]),
    want: [
      { kind: 'allocation', rule: 'invalid-amount', row: (c: Ctx) => `of consumer "${c.fx.c.a}"` },
    ],
  })),
  {
    name: 'a negative provider generation',
    corrupt: (c) =>
      c.src.query('UPDATE resource_providers SET generation = -1 WHERE uuid = ?', [c.fx.p.other]),
    want: [{ kind: 'provider', rule: 'invalid-generation', row: uuidRow((c) => c.fx.p.other) }],
  },
  {
    name: 'a negative consumer generation',
    corrupt: (c) => c.src.query('UPDATE consumers SET generation = -1 WHERE uuid = ?', [c.fx.c.b]),
    want: [{ kind: 'consumer', rule: 'invalid-generation', row: uuidRow((c) => c.fx.c.b) }],
  },
  {
    name: "a root that disagrees with its parent's root",
    corrupt: async (c) =>
      c.src.query('UPDATE resource_providers SET root_provider_id = ? WHERE uuid = ?', [
        await c.id(c.fx.p.other),
        c.fx.p.numa,
      ]),
    want: [{ kind: 'provider', rule: 'root-mismatch', row: uuidRow((c) => c.fx.p.numa) }],
  },
  {
    name: 'a parent cycle',
    corrupt: async (c) =>
      c.src.query('UPDATE resource_providers SET parent_provider_id = ? WHERE uuid = ?', [
        await c.id(c.fx.p.numa),
        c.fx.p.host,
      ]),
    want: [
      { kind: 'provider', rule: 'parent-cycle', row: uuidRow((c) => c.fx.p.host) },
      { kind: 'provider', rule: 'parent-cycle', row: uuidRow((c) => c.fx.p.numa) },
    ],
  },
  {
    name: 'a provider that is its own parent',
    corrupt: async (c) =>
      c.src.query('UPDATE resource_providers SET parent_provider_id = id WHERE uuid = ?', [
        c.fx.p.other,
      ]),
    want: [{ kind: 'provider', rule: 'invalid-parent', row: uuidRow((c) => c.fx.p.other) }],
  },
  {
    name: 'two provider uuids that differ only in case (never merged)',
    pgOnly: true,
    corrupt: (c) =>
      c.src.query(
        'INSERT INTO resource_providers (uuid, name, generation, root_provider_id) VALUES (?, ?, 1, NULL)',
        [c.fx.p.other.toUpperCase(), 'shadow'],
      ),
    want: [
      { kind: 'provider', rule: 'duplicate-uuid', row: uuidRow((c) => c.fx.p.other) },
      { kind: 'provider', rule: 'duplicate-uuid', row: uuidRow((c) => c.fx.p.other.toUpperCase()) },
    ],
  },
  {
    name: 'two provider uuids that differ only in dashes (never merged)',
    corrupt: (c) =>
      c.src.query(
        'INSERT INTO resource_providers (uuid, name, generation, root_provider_id) VALUES (?, ?, 1, NULL)',
        [c.fx.p.other.replace(/-/g, ''), 'shadow'],
      ),
    want: [
      { kind: 'provider', rule: 'duplicate-uuid', row: uuidRow((c) => c.fx.p.other) },
      {
        kind: 'provider',
        rule: 'duplicate-uuid',
        row: uuidRow((c) => c.fx.p.other.replace(/-/g, '')),
      },
    ],
  },
  {
    name: "an allocation naming a consumer in another spelling of a consumers row's uuid",
    corrupt: async (c) =>
      c.src.query(
        'INSERT INTO allocations (resource_provider_id, consumer_id, resource_class_id, used) VALUES (?, ?, 0, 1)',
        [await c.id(c.fx.p.other), c.fx.c.a.replace(/-/g, '')],
      ),
    want: [
      { kind: 'consumer', rule: 'duplicate-uuid', row: uuidRow((c) => c.fx.c.a) },
      {
        kind: 'consumer',
        rule: 'duplicate-uuid',
        row: (c) => `uuid "${c.fx.c.a.replace(/-/g, '')}" (allocations only`,
      },
    ],
  },
  {
    name: 'an allocation of a class the provider has no inventory of',
    corrupt: async (c) =>
      c.src.query('UPDATE allocations SET resource_class_id = 2 WHERE consumer_id = ?', [c.fx.c.b]),
    want: [
      { kind: 'allocation', rule: 'no-inventory', row: (c) => `DISK_GB of consumer "${c.fx.c.b}"` },
    ],
  },
  {
    name: 'an empty provider name',
    corrupt: (c) =>
      c.src.query("UPDATE resource_providers SET name = '' WHERE uuid = ?", [c.fx.p.other]),
    want: [{ kind: 'provider', rule: 'invalid-name', row: uuidRow((c) => c.fx.p.other) }],
  },
  {
    name: 'a provider name with NUL (MariaDB stores it; berth cannot)',
    mariadbOnly: true,
    corrupt: (c) =>
      c.src.query('UPDATE resource_providers SET name = ? WHERE uuid = ?', [
        'nul\u0000name',
        c.fx.p.other,
      ]),
    want: [{ kind: 'provider', rule: 'invalid-name', row: uuidRow((c) => c.fx.p.other) }],
  },
  {
    name: 'a provider without a name',
    corrupt: (c) =>
      c.src.query('UPDATE resource_providers SET name = NULL WHERE uuid = ?', [c.fx.p.other]),
    want: [{ kind: 'provider', rule: 'invalid-name', row: uuidRow((c) => c.fx.p.other) }],
  },
  {
    name: 'a malformed custom trait and an unknown standard one',
    corrupt: (c) =>
      c.src.query(
        "INSERT INTO traits (id, name) VALUES (900, 'CUSTOM_lower'), (901, 'HW_NOT_A_TRAIT')",
      ),
    want: [
      { kind: 'trait', rule: 'invalid-name', row: () => 'id 900, name "CUSTOM_lower"' },
      { kind: 'trait', rule: 'unknown-name', row: () => 'id 901, name "HW_NOT_A_TRAIT"' },
    ],
  },
  {
    name: 'a malformed resource class name',
    corrupt: (c) =>
      c.src.query("INSERT INTO resource_classes (id, name) VALUES (10900, 'CUSTOM_gpu')"),
    want: [
      { kind: 'resource class', rule: 'invalid-name', row: () => 'id 10900, name "CUSTOM_gpu"' },
    ],
  },
  {
    name: 'an empty project id',
    corrupt: (c) => c.src.query("INSERT INTO projects (id, external_id) VALUES (900, '')"),
    want: [{ kind: 'project', rule: 'invalid-name', row: () => 'id 900, external_id ""' }],
  },
  {
    name: 'a lower-case consumer type',
    corrupt: (c) => c.src.query("UPDATE consumer_types SET name = 'instance'"),
    want: [{ kind: 'consumer type', rule: 'invalid-name', row: () => 'name "instance"' }],
  },
  {
    name: 'a malformed aggregate uuid',
    corrupt: (c) => c.src.query("UPDATE placement_aggregates SET uuid = 'not-a-uuid'"),
    want: [{ kind: 'aggregate', rule: 'invalid-uuid', row: () => 'uuid "not-a-uuid"' }],
  },
  {
    name: 'an inventory of a provider that does not exist',
    corrupt: (c) =>
      c.src.query(
        'INSERT INTO inventories (resource_provider_id, resource_class_id, total, reserved, min_unit, max_unit, step_size, allocation_ratio) VALUES (9999, 0, 1, 0, 1, 1, 1, 1)',
      ),
    want: [{ kind: 'inventory', rule: 'missing-reference', row: () => 'of provider id 9999' }],
  },
];
