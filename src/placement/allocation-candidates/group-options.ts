// Which providers may serve each search variable when a candidate is anchored at one tree
// (upstream: research_context.py get_trees_matching_all / get_provider_ids_matching and
// allocation_candidate.py _alloc_candidates_multiple_providers / _single_provider).
import type { CapacityIndex } from './capacity-index';
import {
  type CompiledGroup,
  type CompiledRequest,
  hasAllTerms,
  hasAnyTrait,
  inAnyAggregate,
  memberOk,
} from './search-context';

/**
 * A search variable: one requested class of the unsuffixed group (its classes may come from
 * different providers), or a whole suffixed group (one provider for all its classes).
 */
export interface SearchVar {
  readonly group: number;
  readonly unsuffixed: boolean;
  /** Classes and amounts this variable takes from its provider. */
  readonly classIds: Int32Array;
  readonly amounts: Float64Array;
}

/** Splits the compiled groups into search variables, in request order. */
export function searchVars(req: CompiledRequest): SearchVar[] {
  const vars: SearchVar[] = [];
  req.groups.forEach((g, group) => {
    if (!g.unsuffixed) {
      vars.push({ group, unsuffixed: false, classIds: g.classIds, amounts: g.amounts });
      return;
    }
    g.classIds.forEach((classId, i) => {
      vars.push({
        group,
        unsuffixed: true,
        classIds: Int32Array.of(classId),
        amounts: Float64Array.of(g.amounts[i]!),
      });
    });
  });
  return vars;
}

/**
 * Inventory slot that provider `p` offers for class `classId`/`amount` of the unsuffixed group `g`
 * when anchored at root `t`, or -1. `p` is either in tree `t` or a sharing provider anchored there.
 * Aggregates on the anchor root span its tree: member_of passes if `p` or `t` is a member, and
 * a forbidden aggregate on either excludes it.
 */
export function unsuffixedOption(
  index: CapacityIndex,
  g: CompiledGroup,
  classId: number,
  amount: number,
  p: number,
  t: number,
): number {
  if (classId < 0 || g.alwaysEmpty) {
    return -1;
  }
  if (index.root[p] === t) {
    if (g.inTreeRoot >= 0 && g.inTreeRoot !== t) {
      return -1;
    }
    if (!memberOk(index, p, g.memberOf) && !memberOk(index, t, g.memberOf)) {
      return -1;
    }
  } else if (
    g.inTreeRoot >= 0 ||
    index.sharing[p] !== 1 ||
    !index.anchors.anchorsOf(p).includes(t) ||
    !memberOk(index, p, g.memberOf)
  ) {
    return -1;
  }
  if (
    inAnyAggregate(index, p, g.forbiddenAggs) ||
    inAnyAggregate(index, t, g.forbiddenAggs) ||
    hasAnyTrait(index, p, g.forbidden)
  ) {
    return -1;
  }
  const inv = index.findInventory(p, classId);
  return inv >= 0 && index.inventories.fits(inv, amount) ? inv : -1;
}

/**
 * True when provider `p` alone satisfies suffixed group `g` (traits, own aggregates, every class,
 * in_tree), wherever it is anchored. Writes the inventory slots to `out` from `at`.
 */
export function suffixedEligible(
  index: CapacityIndex,
  g: CompiledGroup,
  p: number,
  out: Int32Array,
  at: number,
): boolean {
  if (g.alwaysEmpty || (g.inTreeRoot >= 0 && index.root[p] !== g.inTreeRoot)) {
    return false;
  }
  if (
    !hasAllTerms(index, p, g.required) ||
    !memberOk(index, p, g.memberOf) ||
    inAnyAggregate(index, p, g.forbiddenAggs) ||
    hasAnyTrait(index, p, g.forbidden)
  ) {
    return false;
  }
  for (let k = 0; k < g.classIds.length; k++) {
    const classId = g.classIds[k]!;
    const inv = classId < 0 ? -1 : index.findInventory(p, classId);
    if (inv < 0 || !index.inventories.fits(inv, g.amounts[k]!)) {
      return false;
    }
    out[at + k] = inv;
  }
  return true;
}

/** True when suffixed-group provider `p` may be anchored at root `t`. */
export function anchoredAt(index: CapacityIndex, p: number, t: number): boolean {
  return index.root[p] === t || (index.sharing[p] === 1 && index.anchors.anchorsOf(p).includes(t));
}
