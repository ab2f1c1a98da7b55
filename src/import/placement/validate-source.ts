// Decides what of a Placement database berth may hold: every row checked with the rules the API
// enforces (the shared validators of src/placement) and those of a whole database, the rows that
// break one listed, the valid rows that depend on them (a child of a refused provider, a consumer
// with an allocation on one, …) listed apart, and the rest returned as the snapshot to import.
// The importer refuses the whole database when anything is listed, unless told to skip. Pure, and
// linear in the number of rows.
import type { CatalogKind } from './catalog';
import type { PlacementSnapshot } from './snapshot';
import { Findings, type SourceFinding } from './source-findings';
import type { SourceRows } from './source-rows';
import { type CheckedNames, checkCatalog, type StandardNames } from './validate-catalog';
import { checkConsumers } from './validate-consumers';
import { checkProviders } from './validate-providers';

/** The kinds of objects an import counts. */
export type ImportKind = CatalogKind | 'providers' | 'inventories' | 'consumers' | 'allocations';

/** A source database, checked. */
export interface CheckedSource {
  /** What berth may hold: every row that breaks no rule and depends on none that does. */
  readonly snapshot: PlacementSnapshot;
  /** Rows that break a rule, in table order. */
  readonly invalid: readonly SourceFinding[];
  /**
   * Providers and consumers left out without breaking a rule themselves: one of their rows
   * (inventory, trait or aggregate link, allocation) does, or they depend on one left out.
   */
  readonly dependents: readonly SourceFinding[];
  /** Per kind, how many source rows the snapshot leaves out. */
  readonly skipped: Readonly<Record<ImportKind, number>>;
}

function valid(names: CheckedNames): string[] {
  return [...names.values()].filter((n): n is string => n !== null);
}

function refused(names: CheckedNames): number {
  return [...names.values()].filter((n) => n === null).length;
}

function uniq(xs: readonly string[]): string[] {
  return [...new Set(xs)].sort();
}

/** Checks every row of `rows` against berth's rules; see {@link CheckedSource}. */
export function checkSource(rows: SourceRows, standard: StandardNames): CheckedSource {
  const findings = new Findings();
  const dependents = new Findings();
  const catalog = checkCatalog(rows, standard, findings);
  const providers = checkProviders(rows, catalog, findings, dependents);
  const consumers = checkConsumers(rows, catalog, providers, findings, dependents);
  const kept = consumers.kept;
  const snapshot: PlacementSnapshot = {
    providers: providers.kept,
    consumers: kept,
    resourceClasses: uniq([
      ...valid(catalog.classes),
      ...providers.kept.flatMap((p) => p.inventories.map((i) => i.resourceClass)),
      ...kept.flatMap((c) => c.allocations.map((a) => a.resourceClass)),
    ]),
    traits: uniq(valid(catalog.traits)),
    aggregates: uniq(valid(catalog.aggregates)),
    projects: uniq([...valid(catalog.projects), ...kept.map((c) => c.project)]),
    users: uniq([...valid(catalog.users), ...kept.map((c) => c.user)]),
    consumerTypes: uniq(valid(catalog.consumerTypes)),
    incompleteConsumers: consumers.incomplete,
  };
  return {
    snapshot,
    invalid: findings.list,
    dependents: dependents.list,
    skipped: {
      'resource classes': refused(catalog.classes),
      traits: refused(catalog.traits),
      aggregates: refused(catalog.aggregates),
      projects: refused(catalog.projects),
      users: refused(catalog.users),
      'consumer types': refused(catalog.consumerTypes),
      providers: providers.skippedProviders,
      inventories: providers.skippedInventories,
      consumers: consumers.skippedConsumers,
      allocations: consumers.skippedAllocations,
    },
  };
}
