// The named checks of `berth check` (upstream: nova-manage placement audit, nova/cmd/manage.py,
// and placement-status upgrade check, placement/cmd/status.py). Each is one read-only query whose
// rows are the findings; its `subject` column is the uuid an operator looks up (the runner counts
// the rows and keeps a few subjects as examples).
import { MAX_ALLOCATION_RATIO } from '../inventory-rules';

/** How bad a finding is: a warning is something Placement itself tolerates or berth copes with. */
export type CheckSeverity = 'problem' | 'warning';

/** One named check. */
export interface ConsistencyCheck {
  /** Stable, kebab-case name (the `check` field of the report). */
  readonly name: string;
  readonly severity: CheckSeverity;
  /** What the examples are: 'provider', 'consumer', 'server group member', … */
  readonly subject: string;
  /** One sentence: what a finding means (what is counted). */
  readonly description: string;
  /** SELECT returning one row per finding, with a text column `subject`. */
  readonly sql: string;
}

// Walks down the trees from every provider whose parent chain ends: a root (no parent), or a
// provider whose parent row is missing (provider-missing-parent reports those). Each provider is
// reached at most once, with `top_id` the end of its chain, so the walk cannot loop: a provider on
// or below a cycle is reachable from no end, and those are exactly the providers it never
// reaches. It is linear in the number of providers whatever the depth (a 50,000-deep chain:
// about a second): each step looks the children up in IDX_resource_providers_parent, the
// LATERAL … OFFSET 0 keeping the planner from a merge join that would rescan the index on every
// step when statistics are missing. (UNION rather than UNION ALL: a row seen twice would end the
// walk there, not repeat it.)
const DOWN = `WITH RECURSIVE down(id, top_id) AS (
    SELECT p.id, p.id FROM resource_providers p
    WHERE p.parent_provider_id IS NULL
      OR NOT EXISTS (SELECT 1 FROM resource_providers q WHERE q.id = p.parent_provider_id)
    UNION
    SELECT c.id, d.top_id FROM down d
    CROSS JOIN LATERAL (SELECT k.id FROM resource_providers k
      WHERE k.parent_provider_id = d.id OFFSET 0) c)`;

/** Every check, in report order. */
export const CONSISTENCY_CHECKS: readonly ConsistencyCheck[] = [
  {
    name: 'usage-over-capacity',
    severity: 'warning',
    subject: 'provider',
    description:
      'provider/class pairs whose allocations exceed (total - reserved) * allocation_ratio (Placement keeps them when an inventory is lowered; new allocations of the class fail there until usage drops)',
    sql: `SELECT p.uuid::text AS subject
      FROM allocations a
      JOIN inventories i ON i.resource_provider_id = a.resource_provider_id
        AND i.resource_class_id = a.resource_class_id
      JOIN resource_providers p ON p.id = a.resource_provider_id
      GROUP BY p.uuid, i.id
      HAVING sum(a.used) > (i.total - i.reserved) * i.allocation_ratio`,
  },
  {
    name: 'allocation-without-inventory',
    severity: 'problem',
    subject: 'consumer',
    description:
      'allocation rows of a class the provider has no inventory of (usage that no capacity accounts for)',
    sql: `SELECT c.uuid::text AS subject
      FROM allocations a
      JOIN consumers c ON c.id = a.consumer_id
      WHERE NOT EXISTS (SELECT 1 FROM inventories i
        WHERE i.resource_provider_id = a.resource_provider_id
          AND i.resource_class_id = a.resource_class_id)`,
  },
  {
    name: 'allocation-outside-units',
    severity: 'warning',
    subject: 'consumer',
    description:
      'allocation rows below 1, or outside the min_unit / max_unit / step_size of their inventory (the inventory changed after they were written)',
    sql: `SELECT c.uuid::text AS subject
      FROM allocations a
      JOIN consumers c ON c.id = a.consumer_id
      LEFT JOIN inventories i ON i.resource_provider_id = a.resource_provider_id
        AND i.resource_class_id = a.resource_class_id
      WHERE a.used < 1 OR a.used < i.min_unit OR a.used > i.max_unit
        OR a.used % NULLIF(i.step_size, 0) <> 0`,
  },
  {
    name: 'duplicate-allocation-rows',
    severity: 'warning',
    subject: 'consumer',
    description:
      'consumer/provider/class triples held in more than one allocation row (berth writes one row each; sums stay right, but Placement exports would differ)',
    sql: `SELECT c.uuid::text AS subject
      FROM allocations a
      JOIN consumers c ON c.id = a.consumer_id
      GROUP BY c.uuid, a.resource_provider_id, a.resource_class_id
      HAVING count(*) > 1`,
  },
  {
    name: 'consumer-without-allocations',
    severity: 'warning',
    subject: 'consumer',
    description:
      'consumers with no allocation rows (berth, like Placement, deletes a consumer when its allocations are emptied)',
    sql: `SELECT c.uuid::text AS subject
      FROM consumers c
      WHERE NOT EXISTS (SELECT 1 FROM allocations a WHERE a.consumer_id = c.id)`,
  },
  {
    name: 'consumer-missing-owner',
    severity: 'problem',
    subject: 'consumer',
    description:
      'consumers whose project, user or consumer type row is missing (foreign keys forbid this; a finding means they were bypassed)',
    sql: `SELECT c.uuid::text AS subject
      FROM consumers c
      WHERE NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = c.project_id)
        OR NOT EXISTS (SELECT 1 FROM users u WHERE u.id = c.user_id)
        OR (c.consumer_type_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM consumer_types t WHERE t.id = c.consumer_type_id))`,
  },
  {
    name: 'provider-missing-parent',
    severity: 'problem',
    subject: 'provider',
    description:
      'providers whose parent_provider_id names no provider (a foreign key forbids this; a finding means it was bypassed)',
    sql: `SELECT c.uuid::text AS subject
      FROM resource_providers c
      WHERE c.parent_provider_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM resource_providers p WHERE p.id = c.parent_provider_id)`,
  },
  {
    name: 'provider-root-mismatch',
    severity: 'problem',
    subject: 'provider',
    description:
      'providers whose root_provider_id is not the top of their parent chain (for a root: not itself)',
    sql: `${DOWN}
      SELECT s.uuid::text AS subject
      FROM down
      JOIN resource_providers s ON s.id = down.id
      JOIN resource_providers t ON t.id = down.top_id
      WHERE t.parent_provider_id IS NULL AND s.root_provider_id <> down.top_id`,
  },
  {
    name: 'provider-cycle',
    severity: 'problem',
    subject: 'provider',
    description: 'providers whose parent chain loops back on itself',
    // GROUP BY: the walk's row estimate is wild (millions); grouped, it is small, so the anti
    // join hashes it in one batch instead of thousands.
    sql: `${DOWN}
      SELECT s.uuid::text AS subject
      FROM resource_providers s
      LEFT JOIN (SELECT id FROM down GROUP BY id) reached ON reached.id = s.id
      WHERE reached.id IS NULL`,
  },
  {
    name: 'provider-generation-invalid',
    severity: 'problem',
    subject: 'provider',
    description: 'providers with a null or negative generation (berth only ever increments it)',
    sql: `SELECT uuid::text AS subject FROM resource_providers
      WHERE generation IS NULL OR generation < 0`,
  },
  {
    name: 'consumer-generation-invalid',
    severity: 'problem',
    subject: 'consumer',
    description: 'consumers with a null or negative generation (berth only ever increments it)',
    sql: `SELECT uuid::text AS subject FROM consumers
      WHERE generation IS NULL OR generation < 0`,
  },
  {
    name: 'inventory-invalid',
    severity: 'problem',
    subject: 'provider',
    description:
      'inventories breaking the write rules (inventory-rules.ts): total < 1, reserved outside 0..total, min_unit / max_unit / step_size < 1, min_unit > max_unit, allocation_ratio not a finite number in (0, 3.40282e38] (NaN and Infinity included: capacity and usage-over-capacity mean nothing for them)',
    sql: `SELECT p.uuid::text AS subject
      FROM inventories i JOIN resource_providers p ON p.id = i.resource_provider_id
      WHERE i.total < 1 OR i.reserved < 0 OR i.reserved > i.total OR i.min_unit < 1
        OR i.max_unit < 1 OR i.step_size < 1 OR i.min_unit > i.max_unit
        OR NOT (i.allocation_ratio > 0) OR i.allocation_ratio = 'NaN'::float8
        OR i.allocation_ratio > ${MAX_ALLOCATION_RATIO}`,
  },
  {
    name: 'move-amounts-not-held',
    severity: 'warning',
    subject: 'consumer',
    description:
      'moves in progress whose source plus destination amounts the consumer no longer holds (confirmMove / revertMove refuse them; a new claim overwrites the record)',
    // Per move: the amounts of both sides summed by provider and class, compared with what the
    // consumer's allocation rows hold there.
    sql: `WITH sides AS (
        SELECT m.consumer_id, lower(s.elem->>'providerUuid') AS provider_uuid, r.key AS rc,
          sum(r.value::bigint) AS amount
        FROM consumer_moves m
        CROSS JOIN LATERAL jsonb_array_elements(m.source_allocations || m.destination_allocations)
          AS s(elem)
        CROSS JOIN LATERAL jsonb_each_text(s.elem->'resources') AS r(key, value)
        GROUP BY 1, 2, 3),
      held AS (
        SELECT a.consumer_id, p.uuid::text AS provider_uuid, k.name AS rc, sum(a.used) AS used
        FROM allocations a
        JOIN resource_providers p ON p.id = a.resource_provider_id
        JOIN resource_classes k ON k.id = a.resource_class_id
        WHERE a.consumer_id IN (SELECT consumer_id FROM consumer_moves)
        GROUP BY 1, 2, 3)
      SELECT DISTINCT c.uuid::text AS subject
      FROM sides s
      JOIN consumers c ON c.id = s.consumer_id
      LEFT JOIN held h ON h.consumer_id = s.consumer_id AND h.provider_uuid = s.provider_uuid
        AND h.rc = s.rc
      WHERE s.amount > COALESCE(h.used, 0)`,
  },
  {
    name: 'server-group-member-without-consumer',
    severity: 'warning',
    subject: 'server group member',
    description:
      'server-group members with no consumer row: not placed yet, or deleted without leaving the group (they still count towards the group size and cannot join another group)',
    sql: `SELECT m.consumer_uuid::text AS subject
      FROM server_group_members m
      WHERE NOT EXISTS (SELECT 1 FROM consumers c WHERE c.uuid = m.consumer_uuid)`,
  },
];
