// The ids a Placement 8.0 database gives resource classes, for `berth export placement`:
// standard classes have id = their index in os-resource-classes (deploy.update_database's sync;
// the importer reads them back the same way), custom classes are numbered from 10000 upwards
// (objects/resource_class.py, _get_next_id). Pure.
import { STANDARD_RESOURCE_CLASSES } from '../../db/seed';

/** Placement's first custom resource class id (objects/resource_class.py). */
export const FIRST_CUSTOM_CLASS_ID = 10000;

/** Rows to insert and the resulting id of every wanted class. */
export interface ClassIds {
  /** [name, id] rows the target lacks. */
  readonly inserts: readonly (readonly [string, number])[];
  /** Every wanted class (and every existing one) by name. */
  readonly ids: ReadonlyMap<string, number>;
}

/**
 * Decides the Placement id of each wanted class: the target's own row when it has one (by name),
 * else the os-resource-classes index for a standard class, else the next custom id.
 * @throws Error for a non-custom class Placement does not know.
 */
export function placementClassIds(
  wanted: readonly string[],
  existing: ReadonlyMap<string, number>,
): ClassIds {
  const ids = new Map(existing);
  const inserts: [string, number][] = [];
  let next = Math.max(FIRST_CUSTOM_CLASS_ID - 1, ...existing.values()) + 1;
  for (const name of [...new Set(wanted)].sort()) {
    if (ids.has(name)) {
      continue;
    }
    const standard = STANDARD_RESOURCE_CLASSES.indexOf(name);
    if (standard >= 0) {
      inserts.push([name, standard]);
      ids.set(name, standard);
    } else if (name.startsWith('CUSTOM_')) {
      inserts.push([name, next]);
      ids.set(name, next);
      next += 1;
    } else {
      throw new Error(`resource class ${name} is neither standard in Placement 8.0 nor custom`);
    }
  }
  return { inserts, ids };
}

/** The classes and traits an export writes: custom ones, and any in use (Placement syncs the rest). */
export function exportedNames(all: readonly string[], used: Iterable<string>): string[] {
  return [...new Set([...all.filter((n) => n.startsWith('CUSTOM_')), ...used])].sort();
}
