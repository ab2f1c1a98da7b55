// Validation of resource class and trait names (upstream: placement/schemas/resource_class.py,
// trait.py, and os_resource_classes/os_traits CUSTOM_ namespace rules).
import type { DataSource, EntityManager } from 'typeorm';
import { BadRequestError, ErrorCode } from './errors';

/** Custom names: CUSTOM_ followed by upper-case letters, digits and underscores, ≤ 255 chars. */
export const CUSTOM_NAME_PATTERN = /^CUSTOM_[A-Z0-9_]+$/;

/** True when `name` is in the CUSTOM_ namespace. */
export function isCustomName(name: string): boolean {
  return name.startsWith('CUSTOM_');
}

/**
 * Checks a custom resource class or trait name.
 * @throws BadRequestError when it does not match CUSTOM_[A-Z0-9_]+ or is over 255 characters.
 */
export function assertCustomNameOrThrow(kind: 'resource class' | 'trait', name: string): void {
  if (name.length > 255 || !CUSTOM_NAME_PATTERN.test(name)) {
    throw new BadRequestError(
      `'${name}' is not a valid custom ${kind} name: it must match ${CUSTOM_NAME_PATTERN.source} and be at most 255 characters.`,
      ErrorCode.INVALID_NAME,
    );
  }
}

/**
 * Checks a resource class or trait name as the API accepts it in a write: a standard name (one of
 * `standard`, i.e. os-resource-classes / os-traits as seeded) or a custom one that
 * {@link assertCustomNameOrThrow} accepts (createResourceClass / createTrait would create it).
 * @throws BadRequestError: berth.invalid_name for a malformed CUSTOM_ name,
 *   berth.resource_class.not_found / berth.trait.not_found for any other unknown name.
 */
export function assertStandardOrCustomNameOrThrow(
  kind: 'resource class' | 'trait',
  name: string,
  standard: ReadonlySet<string>,
): void {
  if (isCustomName(name)) {
    assertCustomNameOrThrow(kind, name);
    return;
  }
  if (!standard.has(name)) {
    throw new BadRequestError(
      kind === 'trait' ? `No such trait(s): ${name}.` : `No such resource class ${name}.`,
      kind === 'trait' ? ErrorCode.TRAIT_NOT_FOUND : ErrorCode.RESOURCE_CLASS_NOT_FOUND,
    );
  }
}

/** A row of a name catalogue (`resource_classes`, `traits`). */
export interface NameRow {
  readonly id: number;
  readonly name: string;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/** Inserts `name` into catalogue `table` unless it is there: the new row, or undefined. */
export async function insertName(
  ds: DataSource | EntityManager,
  table: 'resource_classes' | 'traits',
  name: string,
): Promise<NameRow | undefined> {
  const inserted: NameRow[] = await ds.query(
    `INSERT INTO ${table} (name) VALUES ($1) ON CONFLICT (name) DO NOTHING
     RETURNING id, name, created_at, updated_at`,
    [name],
  );
  return inserted[0];
}
