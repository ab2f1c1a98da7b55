// Request checks that need no data, with Placement's messages and codes
// (upstream: lib.py RequestWideParams.from_request / RequestGroup.dict_from_request and
// handlers/allocation_candidate.py list_allocation_candidates).
import { BadRequestError, ErrorCode } from '../errors';
import type { CandidateRequest, RequestGroup } from './request';

/** Python's repr of a list of strings, as Placement prints it in messages. */
export function pyList(items: readonly string[]): string {
  return `[${items.map((s) => `'${s}'`).join(', ')}]`;
}

function checkAmounts(group: RequestGroup): void {
  for (const [rc, amount] of Object.entries(group.resources)) {
    if (!Number.isInteger(amount)) {
      throw new BadRequestError(
        `Requested resource ${rc} expected positive integer amount. Got: ${amount}.`,
        ErrorCode.CANDIDATES_INVALID,
      );
    }
    if (amount < 1) {
      throw new BadRequestError(
        `Requested resource ${rc} requires amount >= 1. Got: ${amount}.`,
        ErrorCode.CANDIDATES_INVALID,
      );
    }
  }
}

function checkRootTraits(req: CandidateRequest): void {
  const forbidden = new Set(req.rootForbidden ?? []);
  const conflicts = (req.rootRequired ?? [])
    .filter((anyOf) => anyOf.length > 0 && anyOf.every((t) => forbidden.has(t)))
    .flat();
  if (conflicts.length > 0) {
    throw new BadRequestError(
      `Conflicting required and forbidden traits found in root_required: ${[...new Set(conflicts)].sort().join(', ')}`,
      ErrorCode.QUERYPARAM_BAD_VALUE,
    );
  }
}

function checkSameSubtree(req: CandidateRequest, groups: readonly RequestGroup[]): void {
  const subtree = req.sameSubtree ?? [];
  const resourceless = groups.filter((g) => Object.keys(g.resources).length === 0);
  if (resourceless.length === groups.length) {
    throw new BadRequestError(
      'There must be at least one resources or resources[$S] parameter.',
      ErrorCode.CANDIDATES_NO_RESOURCES,
    );
  }
  const named = new Set(subtree.flat());
  const badResourceless = resourceless.map((g) => g.suffix).filter((s) => !named.has(s));
  if (badResourceless.length > 0) {
    throw new BadRequestError(
      'Resourceless suffixed group request should be specified in `same_subtree` query param: ' +
        `bad group(s) - ${pyList(badResourceless)}.`,
      ErrorCode.QUERYPARAM_BAD_VALUE,
    );
  }
  const suffixes = groups.map((g) => g.suffix);
  const unknown = [...named].filter((s) => !suffixes.includes(s));
  if (unknown.length > 0) {
    throw new BadRequestError(
      `Real suffixes should be specified in \`same_subtree\`: ${pyList(unknown)} not found in ${pyList(suffixes)}.`,
      ErrorCode.QUERYPARAM_BAD_VALUE,
    );
  }
}

function checkTraitConflicts(groups: readonly RequestGroup[]): void {
  const conflicts: string[] = [];
  for (const g of groups) {
    const forbidden = new Set(g.forbiddenTraits);
    for (const anyOf of g.requiredTraits) {
      if (anyOf.length > 0 && anyOf.every((t) => forbidden.has(t))) {
        conflicts.push(`required${g.suffix}: (${[...anyOf].sort().join(', ')})`);
      }
    }
  }
  if (conflicts.length > 0) {
    throw new BadRequestError(
      `Conflicting required and forbidden traits found in the following traits keys: ${conflicts.sort().join(', ')}`,
      ErrorCode.CANDIDATES_INVALID,
    );
  }
}

/**
 * Validates what can be validated without data, in Placement's order.
 * @throws BadRequestError with Placement's message (and code where Placement sets one).
 */
export function validateCandidateRequest(req: CandidateRequest): void {
  const seen = new Set<string>();
  for (const g of req.groups) {
    if (seen.has(g.suffix)) {
      throw new BadRequestError(
        `Duplicate request group suffix '${g.suffix}'.`,
        ErrorCode.CANDIDATES_INVALID,
      );
    }
    seen.add(g.suffix);
  }
  if (req.limit !== undefined && !(Number.isInteger(req.limit) && req.limit > 0)) {
    throw new BadRequestError(
      `Invalid query string parameters: 'limit' must be a positive integer, got ${req.limit}.`,
      ErrorCode.QUERYPARAM_BAD_VALUE,
    );
  }
  checkRootTraits(req);
  if ((req.sameSubtree ?? []).some((list) => list.includes(''))) {
    throw new BadRequestError(
      'Empty string (unsuffixed group) can not be specified in `same_subtree` ',
      ErrorCode.QUERYPARAM_BAD_VALUE,
    );
  }
  for (const g of req.groups) {
    checkAmounts(g);
  }
  checkSameSubtree(req, req.groups);
  checkTraitConflicts(req.groups);
  if (!req.groupPolicy && req.groups.filter((g) => g.suffix !== '').length > 1) {
    throw new BadRequestError(
      'The "group_policy" parameter is required when specifying more than one "resources{N}" parameter.',
      ErrorCode.CANDIDATES_INVALID,
    );
  }
}
