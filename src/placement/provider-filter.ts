// SQL for GET /resource_providers filters (upstream: resource_provider.py _get_all_by_filters_from_db).
import type { EntityManager } from 'typeorm';
import { BadRequestError, ErrorCode } from './errors';
import { normalizeUuidOrThrow } from './uuid';

/** Parsed provider-list filter (names, not ids). */
export interface ProviderFilterSql {
  readonly name?: string;
  /** Case-insensitive substring of the name. */
  readonly nameContains?: string;
  readonly uuid?: string;
  /** Only providers in the tree of this provider. */
  readonly inTree?: string;
  /** ANDed any-of aggregate sets (the provider's own aggregates). */
  readonly memberOf?: readonly (readonly string[])[];
  readonly forbiddenAggregates?: readonly string[];
  /** ANDed any-of trait sets. */
  readonly requiredTraits?: readonly (readonly string[])[];
  readonly forbiddenTraits?: readonly string[];
  /** Class -> amount each provider must be able to take on its own. */
  readonly resources?: Readonly<Record<string, number>>;
}

/**
 * Builds WHERE fragments on alias `rp`; null when the filter can match nothing.
 * @throws BadRequestError for unknown traits or resource classes.
 */
export async function providerFilterSql(
  em: EntityManager,
  f: ProviderFilterSql,
): Promise<{ where: string[]; params: unknown[] } | null> {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.name !== undefined) {
    where.push(`rp.name = ${p(f.name)}`);
  }
  if (f.nameContains !== undefined) {
    const escaped = f.nameContains.replace(/[\\%_]/g, (c) => `\\${c}`);
    where.push(`rp.name ILIKE ${p(`%${escaped}%`)}`);
  }
  if (f.uuid !== undefined) {
    where.push(`rp.uuid = ${p(normalizeUuidOrThrow(f.uuid))}::uuid`);
  }
  if (f.inTree !== undefined) {
    const tree: { root_provider_id: number }[] = await em.query(
      'SELECT root_provider_id FROM resource_providers WHERE uuid = $1',
      [normalizeUuidOrThrow(f.inTree, 'in_tree uuid')],
    );
    if (!tree[0]) {
      return null;
    }
    where.push(`rp.root_provider_id = ${p(tree[0].root_provider_id)}`);
  }
  const traitNames = new Set([...(f.requiredTraits ?? []).flat(), ...(f.forbiddenTraits ?? [])]);
  if (traitNames.size > 0) {
    const known: { name: string }[] = await em.query(
      'SELECT name FROM traits WHERE name = ANY($1::text[])',
      [[...traitNames]],
    );
    const missing = [...traitNames].filter((n) => !known.some((k) => k.name === n));
    if (missing.length > 0) {
      throw new BadRequestError(
        `No such trait(s): ${missing.sort().join(', ')}.`,
        ErrorCode.TRAIT_NOT_FOUND,
      );
    }
  }
  for (const anyOf of f.requiredTraits ?? []) {
    where.push(`EXISTS (SELECT 1 FROM resource_provider_traits rpt JOIN traits t ON t.id = rpt.trait_id
      WHERE rpt.resource_provider_id = rp.id AND t.name = ANY(${p(anyOf)}::text[]))`);
  }
  if (f.forbiddenTraits?.length) {
    where.push(`NOT EXISTS (SELECT 1 FROM resource_provider_traits rpt JOIN traits t ON t.id = rpt.trait_id
      WHERE rpt.resource_provider_id = rp.id AND t.name = ANY(${p(f.forbiddenTraits)}::text[]))`);
  }
  for (const anyOf of f.memberOf ?? []) {
    where.push(`EXISTS (SELECT 1 FROM resource_provider_aggregates rpa JOIN placement_aggregates a ON a.id = rpa.aggregate_id
      WHERE rpa.resource_provider_id = rp.id AND a.uuid = ANY(${p(anyOf)}::uuid[]))`);
  }
  if (f.forbiddenAggregates?.length) {
    where.push(`NOT EXISTS (SELECT 1 FROM resource_provider_aggregates rpa JOIN placement_aggregates a ON a.id = rpa.aggregate_id
      WHERE rpa.resource_provider_id = rp.id AND a.uuid = ANY(${p(f.forbiddenAggregates)}::uuid[]))`);
  }
  const resources = Object.entries(f.resources ?? {});
  if (resources.length > 0) {
    const known: { name: string }[] = await em.query(
      'SELECT name FROM resource_classes WHERE name = ANY($1::text[])',
      [resources.map(([rc]) => rc)],
    );
    for (const [rc] of resources) {
      if (!known.some((k) => k.name === rc)) {
        throw new BadRequestError(
          `Invalid resource class in resources parameter: No such resource class ${rc}.`,
          ErrorCode.RESOURCE_CLASS_NOT_FOUND,
        );
      }
    }
  }
  for (const [rc, amount] of resources) {
    if (!Number.isSafeInteger(amount) || amount > INT32_MAX) {
      // max_unit is a 32-bit column: no inventory can take more in one allocation.
      where.push('FALSE');
      continue;
    }
    // Fits on its own: unit rules plus used + amount <= (total - reserved) * ratio.
    where.push(`EXISTS (SELECT 1 FROM inventories i JOIN resource_classes c ON c.id = i.resource_class_id
      WHERE i.resource_provider_id = rp.id AND c.name = ${p(rc)}
        AND i.min_unit <= ${p(amount)} AND i.max_unit >= $${params.length} AND $${params.length} % i.step_size = 0
        AND COALESCE((SELECT sum(a.used) FROM allocations a WHERE a.resource_provider_id = rp.id
              AND a.resource_class_id = i.resource_class_id), 0) + $${params.length}
            <= (i.total - i.reserved) * i.allocation_ratio)`);
  }
  return { where, params };
}

/** Largest value of PostgreSQL's integer (inventory totals and units). */
const INT32_MAX = 2_147_483_647;
