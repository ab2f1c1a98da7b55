// The providers of a source database checked with the API's rules (uuid, name, inventories
// through the very validators the API calls) and with the rules of a whole tree: uuids and names
// held once, parents that exist and never loop, and a root that is the top of the parent chain.
// A provider is imported whole or not at all (its row, inventories, traits and aggregates), and
// not at all when its parent is not. Pure; linear in the rows (the parent walk visits each
// provider once, iteratively, so no chain depth can exhaust the stack).
import { normalizeInventory } from '../../placement/inventory-rules';
import { assertGenerationOrThrow, assertProviderNameOrThrow } from '../../placement/provider-rules';
import type { SourceInventory, SourceProvider } from './snapshot';
import { brokenRule, type FindingRule, type Findings, quoted, shortened } from './source-findings';
import type { ProviderRow, SourceRows } from './source-rows';
import { addSharedUuidFindings, canonicalUuid, sharedUuids } from './uuid-spellings';
import type { CheckedCatalog } from './validate-catalog';

interface State {
  readonly row: ProviderRow;
  readonly label: string;
  uuid: string | undefined;
  /** The provider row itself breaks a rule. */
  invalid: boolean;
  /**
   * Why a provider whose own row is valid is left out: one of its inventories, traits or
   * aggregates is refused, or its parent is left out.
   */
  dependsOn: string | undefined;
  /** Source id of the top of its parent chain; null: the chain is broken (loop, missing parent). */
  top: string | null;
  readonly inventories: SourceInventory[];
  /** Trait names and aggregate uuids (made only when the provider has some). */
  traits: Set<string> | undefined;
  aggregates: Set<string> | undefined;
}

/** The providers, checked. */
export interface CheckedProviders {
  /** The providers to import, parents first. */
  readonly kept: SourceProvider[];
  /** Source id → canonical uuid, of the kept providers only. */
  readonly keptUuids: ReadonlyMap<string, string>;
  /** Source ids of every provider row (kept or not). */
  readonly ids: ReadonlySet<string>;
  /** `<provider id> <class name>` of every inventory row whose class exists. */
  readonly inventoryClasses: ReadonlySet<string>;
  /** Rows left out. */
  readonly skippedProviders: number;
  readonly skippedInventories: number;
}

const providerLabel = (r: ProviderRow) => `id ${r.id}, uuid ${quoted(r.uuid)}`;

function flag(s: State, findings: Findings, rule: FindingRule, message: string): void {
  findings.add('provider', s.label, rule, message);
  s.invalid = true;
}

function dependOn(s: State, why: string): void {
  s.dependsOn ??= why;
}

function checkOwnFields(rows: SourceRows, findings: Findings): Map<string, State> {
  const states = new Map<string, State>();
  for (const r of rows.providers) {
    const s: State = {
      row: r,
      label: providerLabel(r),
      uuid: undefined,
      invalid: false,
      dependsOn: undefined,
      top: null,
      inventories: [],
      traits: undefined,
      aggregates: undefined,
    };
    const before = findings.list.length;
    s.uuid = canonicalUuid(r.uuid, 'resource provider uuid', 'provider', s.label, findings);
    s.invalid = findings.list.length > before;
    const name = r.name;
    if (name === null) {
      flag(s, findings, 'invalid-name', 'name is NULL');
    } else {
      const broken = brokenRule(() => assertProviderNameOrThrow(name));
      if (broken) {
        flag(s, findings, 'invalid-name', broken.message);
      }
    }
    const gen = brokenRule(() =>
      assertGenerationOrThrow('resource provider generation', r.generation),
    );
    if (gen) {
      flag(s, findings, 'invalid-generation', gen.message);
    }
    states.set(r.id, s);
  }
  const all = [...states.values()];
  const shared = sharedUuids(
    all,
    (s) => s.uuid,
    (s) => s.label,
  );
  addSharedUuidFindings(shared, 'provider', (s) => s.label, findings);
  const byName = new Map<string, State>();
  const sharedNames = new Map<string, State[]>();
  for (const s of all) {
    if (shared.has(s)) {
      s.invalid = true;
    }
    const name = s.row.name;
    const holder = name === null ? undefined : byName.get(name);
    if (name === null) {
      continue;
    }
    if (holder === undefined) {
      byName.set(name, s);
    } else {
      sharedNames.set(name, [...(sharedNames.get(name) ?? [holder]), s]);
    }
  }
  for (const [name, holders] of sharedNames) {
    for (const s of holders) {
      const others = holders.filter((o) => o !== s).map((o) => `id ${o.row.id}`);
      flag(
        s,
        findings,
        'duplicate-name',
        `name ${quoted(name)} is also held by provider ${others.join(' and ')}`,
      );
    }
  }
  return states;
}

/** Resolves every parent chain: tops, loops, parents-first order; flags broken links. */
function walkTrees(states: Map<string, State>, findings: Findings): State[] {
  for (const s of states.values()) {
    const { id, parentId, rootId } = s.row;
    if (parentId === id) {
      flag(s, findings, 'invalid-parent', 'parent provider UUID cannot be same as UUID');
    } else if (parentId !== null && !states.has(parentId)) {
      flag(s, findings, 'missing-reference', `parent_provider_id ${parentId} names no provider`);
    }
    if (rootId !== null && !states.has(rootId)) {
      flag(s, findings, 'missing-reference', `root_provider_id ${rootId} names no provider`);
    }
  }
  const order: State[] = [];
  const mark = new Map<string, 1 | 2>();
  for (const start of states.values()) {
    const path: State[] = [];
    let cur: State | undefined = start;
    while (cur !== undefined && !mark.has(cur.row.id)) {
      mark.set(cur.row.id, 1);
      path.push(cur);
      const parent: string | null = cur.row.parentId;
      cur = parent === null ? undefined : states.get(parent);
    }
    let top: string | null;
    if (cur === undefined) {
      const last = path.at(-1);
      top = last && last.row.parentId === null ? last.row.id : null;
    } else if (mark.get(cur.row.id) === 1) {
      const loop = path.slice(path.indexOf(cur));
      const ring = [...loop, cur].map((m) => `id ${m.row.id}`).join(' → ');
      for (const m of loop) {
        if (m.row.parentId !== m.row.id) {
          flag(m, findings, 'parent-cycle', `its parent chain loops: ${ring}`);
        }
      }
      top = null;
    } else {
      top = cur.top;
    }
    for (let i = path.length - 1; i >= 0; i--) {
      path[i]!.top = top;
      mark.set(path[i]!.row.id, 2);
      order.push(path[i]!);
    }
  }
  for (const s of order) {
    const { rootId } = s.row;
    const actual = rootId ?? (s.row.parentId === null ? s.row.id : null);
    if (s.top !== null && actual !== s.top && (rootId === null || states.has(rootId))) {
      flag(
        s,
        findings,
        'root-mismatch',
        `root_provider_id is ${s.row.rootId ?? 'NULL'}, but the top of its parent chain is provider id ${s.top}`,
      );
    }
  }
  return order;
}

function attachInventories(
  rows: SourceRows,
  states: Map<string, State>,
  catalog: CheckedCatalog,
  findings: Findings,
): Set<string> {
  const classes = new Set<string>();
  for (const r of rows.inventories) {
    const cls = catalog.className(r.classId);
    // Built only for a finding: most rows have none.
    const label = () =>
      `id ${r.id} (${typeof cls === 'string' ? shortened(cls, 80) : `class id ${r.classId}`} of provider id ${r.providerId})`;
    const s = states.get(r.providerId);
    if (s === undefined) {
      findings.add(
        'inventory',
        label(),
        'missing-reference',
        `resource_provider_id ${r.providerId} names no provider`,
      );
      continue;
    }
    const refused = () => `its inventory id ${r.id} is refused`;
    if (cls === undefined || cls === null) {
      if (cls === undefined) {
        findings.add(
          'inventory',
          label(),
          'missing-reference',
          `resource_class_id ${r.classId} names no resource class`,
        );
        dependOn(s, refused());
      } else {
        dependOn(
          s,
          `its inventory id ${r.id} is of resource class id ${r.classId}, which is refused`,
        );
      }
      continue;
    }
    const key = `${r.providerId} ${cls}`;
    if (classes.has(key)) {
      findings.add(
        'inventory',
        label(),
        'duplicate-row',
        `provider id ${r.providerId} has two inventories of ${cls}`,
      );
      dependOn(s, refused());
      continue;
    }
    classes.add(key);
    const inv: SourceInventory = {
      resourceClass: cls,
      total: r.total,
      reserved: r.reserved,
      minUnit: r.minUnit,
      maxUnit: r.maxUnit,
      stepSize: r.stepSize,
      allocationRatio: r.allocationRatio,
    };
    const broken = brokenRule(() => normalizeInventory(inv));
    if (broken) {
      findings.add('inventory', label(), 'invalid-inventory', broken.message);
      dependOn(s, refused());
    } else {
      s.inventories.push(inv);
    }
  }
  return classes;
}

function attachLinks(
  links: SourceRows['providerTraits'],
  kind: 'provider trait' | 'provider aggregate',
  targets: ReadonlyMap<string, string | null>,
  field: 'traits' | 'aggregates',
  states: Map<string, State>,
  findings: Findings,
): void {
  const what = kind === 'provider trait' ? 'trait' : 'aggregate';
  for (const l of links) {
    const label = () => `provider id ${l.providerId}, ${what} id ${l.targetId}`;
    const s = states.get(l.providerId);
    const target = targets.get(l.targetId);
    if (s === undefined) {
      findings.add(
        kind,
        label(),
        'missing-reference',
        `resource_provider_id ${l.providerId} names no provider`,
      );
    } else if (target === undefined) {
      findings.add(kind, label(), 'missing-reference', `${what}_id ${l.targetId} names no ${what}`);
      dependOn(s, `its ${what} link to ${what} id ${l.targetId} is refused`);
    } else if (target === null) {
      dependOn(s, `it has ${what} id ${l.targetId}, which is refused`);
    } else {
      s[field] ??= new Set();
      s[field].add(target);
    }
  }
}

/**
 * Checks every provider row and what hangs off it; adds a finding for each row that breaks a
 * rule to `findings`, and one for each valid provider left out with another to `dependents`.
 */
export function checkProviders(
  rows: SourceRows,
  catalog: CheckedCatalog,
  findings: Findings,
  dependents: Findings,
): CheckedProviders {
  const states = checkOwnFields(rows, findings);
  const order = walkTrees(states, findings);
  const inventoryClasses = attachInventories(rows, states, catalog, findings);
  attachLinks(rows.providerTraits, 'provider trait', catalog.traits, 'traits', states, findings);
  attachLinks(
    rows.providerAggregates,
    'provider aggregate',
    catalog.aggregates,
    'aggregates',
    states,
    findings,
  );
  const kept: SourceProvider[] = [];
  const keptUuids = new Map<string, string>();
  let keptInventories = 0;
  for (const s of order) {
    const parent = s.row.parentId === null ? undefined : states.get(s.row.parentId);
    if (!s.invalid && parent && (parent.invalid || parent.dependsOn !== undefined)) {
      dependOn(s, `its parent provider id ${parent.row.id} is skipped`);
    }
    if (s.invalid) {
      continue;
    }
    if (s.dependsOn !== undefined) {
      dependents.add('provider', s.label, 'depends-on-skipped', s.dependsOn);
      continue;
    }
    keptUuids.set(s.row.id, s.uuid!);
    keptInventories += s.inventories.length;
    kept.push({
      uuid: s.uuid!,
      name: s.row.name!,
      generation: s.row.generation,
      parentUuid: parent ? keptUuids.get(parent.row.id)! : null,
      rootUuid: keptUuids.get(s.top!)!,
      inventories: s.inventories,
      traits: s.traits ? [...s.traits] : [],
      aggregates: s.aggregates ? [...s.aggregates] : [],
    });
  }
  return {
    kept,
    keptUuids,
    ids: new Set(states.keys()),
    inventoryClasses,
    skippedProviders: states.size - kept.length,
    skippedInventories: rows.inventories.length - keptInventories,
  };
}
