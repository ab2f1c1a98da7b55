// The consumers and allocations of a source database checked with the API's rules (uuids,
// project and user ids, consumer types, amounts through the validators allocation writes call;
// an allocation needs an inventory of its class on its provider) and with those of a whole
// database: one uuid, one spelling. An allocation names its consumer by uuid text: a spelling no
// consumers row has exactly is a consumer of its own (Placement's incomplete consumer), so two
// spellings of one uuid are two consumers berth would merge, and are refused. A consumer is
// imported with all its allocations or not at all. Pure; linear in the rows.
import { INCOMPLETE_CONSUMER_ID } from '../../placement/consumer';
import { assertAllocationAmountOrThrow } from '../../placement/consumer-rules';
import { assertGenerationOrThrow } from '../../placement/provider-rules';
import type { SourceAllocation, SourceConsumer } from './snapshot';
import { brokenRule, type FindingRule, type Findings, quoted, shortened } from './source-findings';
import type { AllocationRow, ConsumerRow, SourceRows } from './source-rows';
import { addSharedUuidFindings, canonicalUuid, sharedUuids } from './uuid-spellings';
import type { CheckedCatalog, CheckedNames } from './validate-catalog';
import type { CheckedProviders } from './validate-providers';

interface Entity {
  /** The consumers row's id; undefined: a consumer only allocations name (no row). */
  readonly rowId: string | undefined;
  /** The uuid as the source spells it. */
  readonly raw: string | null;
  uuid: string | undefined;
  /** The consumer itself breaks a rule (uuid, generation, a missing owner). */
  invalid: boolean;
  /** Why a consumer valid itself is left out: an allocation refused, or on a provider left out. */
  dependsOn: string | undefined;
  project: string;
  user: string;
  consumerType: string | null;
  generation: number;
  readonly allocations: SourceAllocation[];
  /** `<provider id> <class>` of its allocation rows (made on the first; a Set once many). */
  held: string[] | Set<string> | undefined;
}

/** How findings name a consumer (built only for a finding). */
function labelOf(e: Entity): string {
  return e.rowId === undefined
    ? `uuid ${quoted(e.raw)} (allocations only, no consumers row)`
    : `id ${e.rowId}, uuid ${quoted(e.raw)}`;
}

/** The consumers, checked. */
export interface CheckedConsumers {
  readonly kept: SourceConsumer[];
  /** Kept consumers that have allocations but no consumers row. */
  readonly incomplete: number;
  readonly skippedConsumers: number;
  readonly skippedAllocations: number;
}

function flag(e: Entity, findings: Findings, rule: FindingRule, message: string): void {
  findings.add('consumer', labelOf(e), rule, message);
  e.invalid = true;
}

function owner(
  e: Entity,
  names: CheckedNames,
  id: string,
  what: string,
  findings: Findings,
): string {
  const name = names.get(id);
  if (name === undefined) {
    flag(e, findings, 'missing-reference', `${what}_id ${id} names no ${what}`);
  } else if (name === null) {
    e.dependsOn ??= `its ${what} id ${id} is refused`;
  }
  return name ?? '';
}

function fromRow(r: ConsumerRow, catalog: CheckedCatalog, findings: Findings): Entity {
  const e: Entity = {
    rowId: r.id,
    raw: r.uuid,
    uuid: undefined,
    invalid: false,
    dependsOn: undefined,
    project: '',
    user: '',
    consumerType: null,
    generation: r.generation,
    allocations: [],
    held: undefined,
  };
  const before = findings.list.length;
  e.uuid = canonicalUuid(r.uuid, 'consumer uuid', 'consumer', () => labelOf(e), findings);
  e.invalid = findings.list.length > before;
  e.project = owner(e, catalog.projects, r.projectId, 'project', findings);
  e.user = owner(e, catalog.users, r.userId, 'user', findings);
  e.consumerType =
    r.typeId === null ? null : owner(e, catalog.consumerTypes, r.typeId, 'consumer_type', findings);
  const gen = brokenRule(() => assertGenerationOrThrow('consumer generation', r.generation));
  if (gen) {
    flag(e, findings, 'invalid-generation', gen.message);
  }
  return e;
}

function incomplete(raw: string, findings: Findings): Entity {
  const e: Entity = {
    rowId: undefined,
    raw,
    uuid: undefined,
    invalid: false,
    dependsOn: undefined,
    project: INCOMPLETE_CONSUMER_ID,
    user: INCOMPLETE_CONSUMER_ID,
    consumerType: null,
    generation: 0,
    allocations: [],
    held: undefined,
  };
  e.uuid = canonicalUuid(raw, 'consumer uuid', 'consumer', () => labelOf(e), findings);
  e.invalid = e.uuid === undefined;
  return e;
}

/** Records `key` as held by `e`; false when it already was. */
function hold(e: Entity, key: string): boolean {
  if (e.held === undefined) {
    e.held = [key];
    return true;
  }
  if (Array.isArray(e.held)) {
    if (e.held.includes(key)) {
      return false;
    }
    e.held.push(key);
    if (e.held.length > 16) {
      e.held = new Set(e.held);
    }
    return true;
  }
  if (e.held.has(key)) {
    return false;
  }
  e.held.add(key);
  return true;
}

function attach(
  e: Entity,
  r: AllocationRow,
  catalog: CheckedCatalog,
  providers: CheckedProviders,
  findings: Findings,
): void {
  const cls = catalog.className(r.classId);
  const bad = (rule: FindingRule, message: string) => {
    const label = `id ${r.id} (${typeof cls === 'string' ? shortened(cls, 80) : `class id ${r.classId}`} of consumer ${quoted(r.consumerUuid)} on provider id ${r.providerId})`;
    findings.add('allocation', label, rule, message);
    e.dependsOn ??= `its allocation id ${r.id} is refused`;
  };
  const amount = brokenRule(() =>
    assertAllocationAmountOrThrow(
      e.uuid ?? shortened(r.consumerUuid ?? '', 80),
      typeof cls === 'string' ? cls : `class id ${r.classId}`,
      r.used,
    ),
  );
  if (amount) {
    bad('invalid-amount', amount.message);
  }
  if (!providers.ids.has(r.providerId)) {
    bad('missing-reference', `resource_provider_id ${r.providerId} names no provider`);
    return;
  }
  if (cls === undefined) {
    bad('missing-reference', `resource_class_id ${r.classId} names no resource class`);
    return;
  }
  if (cls === null) {
    e.dependsOn ??= `its allocation id ${r.id} is of resource class id ${r.classId}, which is refused`;
    return;
  }
  const key = `${r.providerId} ${cls}`;
  if (!providers.inventoryClasses.has(key)) {
    bad(
      'no-inventory',
      `provider id ${r.providerId} has no inventory of ${cls} (the API refuses such an allocation: berth.allocation.no_inventory)`,
    );
    return;
  }
  if (!hold(e, key)) {
    bad('duplicate-row', `the consumer holds ${cls} on provider id ${r.providerId} in two rows`);
    return;
  }
  const providerUuid = providers.keptUuids.get(r.providerId);
  if (providerUuid === undefined) {
    e.dependsOn ??= `it has an allocation on provider id ${r.providerId}, which is skipped`;
    return;
  }
  if (!amount) {
    e.allocations.push({ providerUuid, resourceClass: cls, used: r.used });
  }
}

/**
 * Checks every consumer and allocation row; adds a finding for each row that breaks a rule to
 * `findings`, and one for each valid consumer left out with another row to `dependents`.
 */
export function checkConsumers(
  rows: SourceRows,
  catalog: CheckedCatalog,
  providers: CheckedProviders,
  findings: Findings,
  dependents: Findings,
): CheckedConsumers {
  const entities: Entity[] = [];
  const bySpelling = new Map<string, Entity>();
  for (const r of rows.consumers) {
    const e = fromRow(r, catalog, findings);
    entities.push(e);
    if (r.uuid !== null && !bySpelling.has(r.uuid)) {
      bySpelling.set(r.uuid, e);
    }
  }
  for (const r of rows.allocations) {
    if (r.consumerUuid === null) {
      findings.add('allocation', `id ${r.id}`, 'invalid-uuid', 'consumer_id is NULL');
      continue;
    }
    let e = bySpelling.get(r.consumerUuid);
    if (e === undefined) {
      e = incomplete(r.consumerUuid, findings);
      entities.push(e);
      bySpelling.set(r.consumerUuid, e);
    }
    attach(e, r, catalog, providers, findings);
  }
  const shared = sharedUuids(entities, (e) => e.uuid, labelOf);
  addSharedUuidFindings(shared, 'consumer', labelOf, findings);
  const kept: SourceConsumer[] = [];
  let keptAllocations = 0;
  let incompleteKept = 0;
  for (const e of entities) {
    if (e.invalid || shared.has(e)) {
      continue;
    }
    if (e.dependsOn !== undefined) {
      dependents.add('consumer', labelOf(e), 'depends-on-skipped', e.dependsOn);
      continue;
    }
    keptAllocations += e.allocations.length;
    incompleteKept += e.rowId === undefined ? 1 : 0;
    kept.push({
      uuid: e.uuid!,
      project: e.project,
      user: e.user,
      generation: e.generation,
      consumerType: e.consumerType,
      allocations: e.allocations,
    });
  }
  return {
    kept,
    incomplete: incompleteKept,
    skippedConsumers: entities.length - kept.length,
    skippedAllocations: rows.allocations.length - keptAllocations,
  };
}
