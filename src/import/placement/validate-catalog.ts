// The catalogue rows of a source database (resource classes, traits, aggregates, projects, users,
// consumer types) checked with the API's own rules: a class or trait name standard or a valid
// CUSTOM_ one, aggregate uuids normalisable and not shared by two rows, project and user ids and
// consumer type names as allocation writes accept them. Pure.
import { assertConsumerTypeOrThrow } from '../../placement/consumer';
import { assertExternalIdOrThrow } from '../../placement/consumer-rules';
import { ErrorCode } from '../../placement/errors';
import { assertStandardOrCustomNameOrThrow } from '../../placement/names';
import { brokenRule, type FindingKind, type Findings, quoted } from './source-findings';
import type { NameRow, SourceRows } from './source-rows';
import { addSharedUuidFindings, canonicalUuid, sharedUuids } from './uuid-spellings';

/** Standard names as berth seeds them (os-resource-classes, os-traits). */
export interface StandardNames {
  /** In os-resource-classes order: Placement's id of a standard class is its index. */
  readonly classes: readonly string[];
  readonly traits: readonly string[];
}

/**
 * Source id → the value berth would store (a name, a canonical uuid), or null when the row
 * breaks a rule (it has a finding). An id missing from the map names no row.
 */
export type CheckedNames = ReadonlyMap<string, string | null>;

/** The catalogue, checked. */
export interface CheckedCatalog {
  readonly classes: CheckedNames;
  readonly traits: CheckedNames;
  readonly aggregates: CheckedNames;
  readonly projects: CheckedNames;
  readonly users: CheckedNames;
  readonly consumerTypes: CheckedNames;
  /**
   * A class by source id: its name, null when its row is invalid, undefined when there is none. A
   * standard class missing from the table is found by its os-resource-classes index, as
   * Placement's own cache finds it.
   */
  className(id: string): string | null | undefined;
}

/** `id 3, name "CUSTOM_X"`: how findings name a catalogue row. */
export const nameRowLabel = (r: NameRow, column = 'name'): string =>
  `id ${r.id}, ${column} ${quoted(r.name)}`;

function checkNames(
  rows: readonly NameRow[],
  kind: FindingKind,
  column: string,
  rule: (name: string) => void,
  findings: Findings,
): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const r of rows) {
    if (r.name === null) {
      findings.add(kind, nameRowLabel(r, column), 'invalid-name', `${column} is NULL`);
      out.set(r.id, null);
      continue;
    }
    const broken = brokenRule(() => rule(r.name!));
    if (broken !== undefined) {
      const unknown =
        broken.code === ErrorCode.RESOURCE_CLASS_NOT_FOUND ||
        broken.code === ErrorCode.TRAIT_NOT_FOUND;
      findings.add(
        kind,
        nameRowLabel(r, column),
        unknown ? 'unknown-name' : 'invalid-name',
        broken.message,
      );
    }
    out.set(r.id, broken === undefined ? r.name : null);
  }
  return out;
}

/** Checks every catalogue row, adding a finding for each one berth's API would refuse. */
export function checkCatalog(
  rows: SourceRows,
  standard: StandardNames,
  findings: Findings,
): CheckedCatalog {
  const classSet = new Set(standard.classes);
  const traitSet = new Set(standard.traits);
  const classes = checkNames(
    rows.resourceClasses,
    'resource class',
    'name',
    (n) => assertStandardOrCustomNameOrThrow('resource class', n, classSet),
    findings,
  );
  const traits = checkNames(
    rows.traits,
    'trait',
    'name',
    (n) => assertStandardOrCustomNameOrThrow('trait', n, traitSet),
    findings,
  );
  const label = (r: { id: string; uuid: string | null }) => `id ${r.id}, uuid ${quoted(r.uuid)}`;
  const canonical = new Map(
    rows.aggregates.map((r) => [
      r,
      canonicalUuid(r.uuid, 'aggregate uuid', 'aggregate', label(r), findings),
    ]),
  );
  const shared = sharedUuids(rows.aggregates, (r) => canonical.get(r), label);
  addSharedUuidFindings(shared, 'aggregate', label, findings);
  const aggregates = new Map(
    rows.aggregates.map((r) => [r.id, shared.has(r) ? null : (canonical.get(r) ?? null)]),
  );
  const owner = (what: string) => (n: string) => assertExternalIdOrThrow(what, n);
  return {
    classes,
    traits,
    aggregates,
    projects: checkNames(rows.projects, 'project', 'external_id', owner('project_id'), findings),
    users: checkNames(rows.users, 'user', 'external_id', owner('user_id'), findings),
    consumerTypes: checkNames(
      rows.consumerTypes,
      'consumer type',
      'name',
      assertConsumerTypeOrThrow,
      findings,
    ),
    className(id) {
      if (classes.has(id)) {
        return classes.get(id);
      }
      const index = Number(id);
      return Number.isInteger(index) && index >= 0 && index < 10000
        ? standard.classes[index]
        : undefined;
    },
  };
}
