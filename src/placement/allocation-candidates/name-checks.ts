// Unknown resource classes and traits, reported exactly when Placement would report them
// (upstream: research_context.py RequestWideSearchContext / RequestGroupSearchContext __init__,
// which raise TraitNotFound / ResourceClassNotFound or short-circuit with ResourceProviderNotFound
// group by group, and handlers/allocation_candidate.py which turns them into 400s).
import { BadRequestError, ErrorCode } from '../errors';
import { CandidateStream } from './candidate-stream';
import type { CapacityIndex } from './capacity-index';
import type { CandidateRequest, RequestGroup } from './request';
import { compileGroup, compileRequest, memberOk, rootOk } from './search-context';
import { borrowScratch, releaseScratch } from './search-scratch';

function unknownTrait(index: CapacityIndex, names: readonly string[]): string | undefined {
  return names.find((n) => !index.isKnownTrait(n));
}

function traitError(name: string): BadRequestError {
  return new BadRequestError(`No such trait(s): ${name}.`, ErrorCode.TRAIT_NOT_FOUND);
}

function hasNameError(index: CapacityIndex, req: CandidateRequest): boolean {
  const traits = [...(req.rootRequired ?? []).flat(), ...(req.rootForbidden ?? [])];
  for (const g of req.groups) {
    traits.push(...g.requiredTraits.flat(), ...g.forbiddenTraits);
    if (Object.keys(g.resources).some((rc) => !index.isKnownResourceClass(rc))) {
      return true;
    }
  }
  return unknownTrait(index, traits) !== undefined;
}

/** True when some provider (within in_tree) could give `amount` of every class on its own. */
function everyClassHasProvider(index: CapacityIndex, g: RequestGroup): boolean {
  const cg = compileGroup(index, g);
  return Object.keys(g.resources).every((_, k) => {
    const classId = cg.classIds[k]!;
    for (let slot = 0; slot < index.inventories.size; slot++) {
      const p = index.inventories.provider[slot]!;
      if (
        p >= 0 &&
        index.inventories.resourceClass[slot] === classId &&
        (cg.inTreeRoot < 0 || index.root[p] === cg.inTreeRoot) &&
        index.inventories.fits(slot, cg.amounts[k]!)
      ) {
        return true;
      }
    }
    return false;
  });
}

function groupAloneHasCandidates(index: CapacityIndex, req: CandidateRequest, g: RequestGroup) {
  const alone = compileRequest(index, { ...req, groups: [g], sameSubtree: [] });
  const scratch = borrowScratch(index);
  const stream = new CandidateStream(index, alone, scratch);
  try {
    return stream.next();
  } finally {
    stream.close();
    releaseScratch(scratch);
  }
}

/**
 * Throws Placement's 400 for the first unknown name it would meet, unless Placement would have
 * returned an empty answer before reaching it; returns true in that case ("answer is empty").
 * Returns false when every name is known. Only the error path does any scanning.
 * @throws BadRequestError 'Invalid resource class in resources parameter: ...' / 'No such trait(s): ...'
 */
export function checkNamesOrEmpty(index: CapacityIndex, req: CandidateRequest): boolean {
  if (!hasNameError(index, req)) {
    return false;
  }
  const rootBad = unknownTrait(index, [
    ...(req.rootRequired ?? []).flat(),
    ...(req.rootForbidden ?? []),
  ]);
  if (rootBad !== undefined) {
    throw traitError(rootBad);
  }
  const compiled = compileRequest(index, { ...req, groups: [] });
  if (compiled.rootFilter && !index.rootOrder().some((t) => rootOk(index, compiled, t))) {
    return true;
  }
  for (const g of req.groups) {
    const badClass = Object.keys(g.resources).find((rc) => !index.isKnownResourceClass(rc));
    if (badClass !== undefined) {
      throw new BadRequestError(
        `Invalid resource class in resources parameter: No such resource class ${badClass}.`,
        ErrorCode.RESOURCE_CLASS_NOT_FOUND,
      );
    }
    const cg = compileGroup(index, g);
    if (cg.memberOf && !index.orderedSlots().some((p) => memberOk(index, p, cg.memberOf))) {
      return true;
    }
    const badTrait = unknownTrait(index, [...g.requiredTraits.flat(), ...g.forbiddenTraits]);
    if (badTrait !== undefined) {
      throw traitError(badTrait);
    }
    if (
      cg.alwaysEmpty ||
      !everyClassHasProvider(index, g) ||
      !groupAloneHasCandidates(index, req, g)
    ) {
      return true;
    }
  }
  return false;
}
