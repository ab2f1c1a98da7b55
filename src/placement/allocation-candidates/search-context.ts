// A request compiled against one index: names resolved to interned ids, plus the per-provider
// predicates every search step uses (upstream: research_context.py RequestGroupSearchContext and
// RequestWideSearchContext, provider_ids_matching_aggregates, _get_roots_with_traits).
import type { CapacityIndex } from './capacity-index';
import type { CandidateRequest, RequestGroup } from './request';

/** One request group with ids instead of names. */
export interface CompiledGroup {
  readonly suffix: string;
  /** True for the unsuffixed group ('' suffix, resources may spread over a tree + sharing). */
  readonly unsuffixed: boolean;
  /** Requested classes (-1 when no inventory of that class exists) and amounts, request order. */
  readonly classIds: Int32Array;
  readonly amounts: Float64Array;
  /** Any-of trait sets, ANDed; a set whose traits no provider has is kept (empty) and never matches. */
  readonly required: readonly Int32Array[];
  readonly forbidden: Int32Array;
  /** Any-of aggregate sets, ANDed; null when member_of was not given. */
  readonly memberOf: readonly Int32Array[] | null;
  readonly forbiddenAggs: Int32Array;
  /** Root slot of in_tree, or -1 when not given. */
  readonly inTreeRoot: number;
  /** Placement yields nothing for this group whatever the data (see compileGroup). */
  readonly alwaysEmpty: boolean;
}

/** The whole request with ids instead of names. */
export interface CompiledRequest {
  readonly groups: readonly CompiledGroup[];
  readonly isolate: boolean;
  /** root_required / forbidden; `rootFilter` is false when neither was given. */
  readonly rootFilter: boolean;
  readonly rootRequired: readonly Int32Array[];
  readonly rootForbidden: Int32Array;
  /** same_subtree sets as group indices. */
  readonly sameSubtree: readonly (readonly number[])[];
}

function ids(lookup: (name: string) => number, names: readonly string[]): Int32Array {
  return Int32Array.from(names.map(lookup).filter((id) => id >= 0));
}

/**
 * Compiles one group. Mirrors two upstream quirks (get_provider_ids_matching): a resourceless
 * group with neither required traits nor member_of matches no provider, and such groups ignore
 * in_tree. An in_tree uuid that names no provider empties the group (ResourceProviderNotFound).
 */
export function compileGroup(index: CapacityIndex, g: RequestGroup): CompiledGroup {
  const rcs = Object.keys(g.resources);
  const traitId = (n: string) => index.traitTable.lookup(n);
  const aggId = (n: string) => index.aggregateTable.lookup(n);
  const resourceless = rcs.length === 0;
  let inTreeRoot = -1;
  let missingTree = false;
  if (g.inTree !== undefined && !resourceless) {
    const slot = index.slotOfUuid(g.inTree);
    missingTree = slot < 0;
    inTreeRoot = slot < 0 ? -1 : index.root[slot]!;
  } else if (g.inTree !== undefined) {
    missingTree = index.slotOfUuid(g.inTree) < 0;
  }
  const memberOf = g.memberOf.length > 0 ? g.memberOf.map((term) => ids(aggId, term)) : null;
  return {
    suffix: g.suffix,
    unsuffixed: g.suffix === '',
    classIds: Int32Array.from(rcs.map((rc) => index.classes.lookup(rc))),
    amounts: Float64Array.from(rcs.map((rc) => g.resources[rc]!)),
    required: g.requiredTraits.map((term) => ids(traitId, term)),
    forbidden: ids(traitId, g.forbiddenTraits),
    memberOf,
    forbiddenAggs: ids(aggId, g.forbiddenAggregates),
    inTreeRoot,
    alwaysEmpty:
      missingTree || (resourceless && g.requiredTraits.length === 0 && memberOf === null),
  };
}

/** Compiles a validated request (names must be known or simply absent from the index). */
export function compileRequest(index: CapacityIndex, req: CandidateRequest): CompiledRequest {
  const groups = req.groups.map((g) => compileGroup(index, g));
  const traitId = (n: string) => index.traitTable.lookup(n);
  const rootRequired = (req.rootRequired ?? []).map((term) => ids(traitId, term));
  const rootForbidden = ids(traitId, req.rootForbidden ?? []);
  const suffixIndex = new Map(groups.map((g, i) => [g.suffix, i]));
  return {
    groups,
    isolate: req.groupPolicy === 'isolate',
    rootFilter: (req.rootRequired?.length ?? 0) + (req.rootForbidden?.length ?? 0) > 0,
    rootRequired,
    rootForbidden,
    sameSubtree: (req.sameSubtree ?? []).map((set) => [
      ...new Set(set.map((s) => suffixIndex.get(s)!)),
    ]),
  };
}

/** True when provider `slot` has, for every set, at least one of its traits. */
export function hasAllTerms(
  index: CapacityIndex,
  slot: number,
  terms: readonly Int32Array[],
): boolean {
  const own = index.traits[slot]!;
  for (const term of terms) {
    let hit = false;
    for (let i = 0; i < term.length && !hit; i++) {
      hit = own.includes(term[i]!);
    }
    if (!hit) {
      return false;
    }
  }
  return true;
}

/** True when provider `slot` has any trait of `traitIds`. */
export function hasAnyTrait(index: CapacityIndex, slot: number, traitIds: Int32Array): boolean {
  const own = index.traits[slot]!;
  for (let i = 0; i < traitIds.length; i++) {
    if (own.includes(traitIds[i]!)) {
      return true;
    }
  }
  return false;
}

/** True when provider `slot` itself is in any aggregate of `aggIds`. */
export function inAnyAggregate(index: CapacityIndex, slot: number, aggIds: Int32Array): boolean {
  const own = index.aggregates[slot]!;
  for (let i = 0; i < aggIds.length; i++) {
    if (own.includes(aggIds[i]!)) {
      return true;
    }
  }
  return false;
}

/** True when provider `slot` itself satisfies every member_of set (null: no member_of). */
export function memberOk(
  index: CapacityIndex,
  slot: number,
  memberOf: readonly Int32Array[] | null,
): boolean {
  if (memberOf === null) {
    return true;
  }
  for (const term of memberOf) {
    if (!inAnyAggregate(index, slot, term)) {
      return false;
    }
  }
  return true;
}

/** True when root `rootSlot` passes root_required / root_forbidden. */
export function rootOk(index: CapacityIndex, req: CompiledRequest, rootSlot: number): boolean {
  if (!req.rootFilter) {
    return true;
  }
  return (
    hasAllTerms(index, rootSlot, req.rootRequired) &&
    !hasAnyTrait(index, rootSlot, req.rootForbidden)
  );
}
