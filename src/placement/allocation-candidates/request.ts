// Parsed allocation-candidate request, shared by the GraphQL and REST adapters and the engine
// (upstream: placement/lib.py RequestGroup + RequestWideParams). Names, not ids: the engine resolves them.

/** One request group: '' is the unsuffixed group, anything else a granular (suffixed) group. */
export interface RequestGroup {
  /** '' for the unsuffixed group; '1', '_NET', ... for suffixed groups. */
  readonly suffix: string;
  /** Resource class name -> amount (> 0). May be empty for a resourceless suffixed group. */
  readonly resources: Readonly<Record<string, number>>;
  /** AND of any-of trait sets: [['A'], ['B','C']] means A and (B or C). */
  readonly requiredTraits: readonly (readonly string[])[];
  /** None of these traits may be present. */
  readonly forbiddenTraits: readonly string[];
  /** AND of any-of aggregate uuid sets (member_of terms). */
  readonly memberOf: readonly (readonly string[])[];
  /** None of these aggregates (member_of=!a, !in:a,b). */
  readonly forbiddenAggregates: readonly string[];
  /** Restrict to the tree containing this provider uuid. */
  readonly inTree?: string;
}

/** A request group being parsed: a {@link RequestGroup} whose fields are still filled in. */
export interface RequestGroupDraft {
  suffix: string;
  resources: Record<string, number>;
  requiredTraits: string[][];
  forbiddenTraits: string[];
  memberOf: string[][];
  forbiddenAggregates: string[];
  inTree?: string;
}

/** A request group with nothing asked yet, for `suffix` ('' = unsuffixed); its fields are fresh. */
export function emptyRequestGroup(suffix: string): RequestGroupDraft {
  return {
    suffix,
    resources: {},
    requiredTraits: [],
    forbiddenTraits: [],
    memberOf: [],
    forbiddenAggregates: [],
  };
}

/** The whole request (groups plus request-wide parameters). */
export interface CandidateRequest {
  readonly groups: readonly RequestGroup[];
  /** Required when more than one suffixed group is given; isolate = distinct providers across suffixed groups. */
  readonly groupPolicy?: 'none' | 'isolate';
  /** Traits the root of each tree must have (any-of sets ANDed) ... */
  readonly rootRequired?: readonly (readonly string[])[];
  /** ... and must not have. */
  readonly rootForbidden?: readonly string[];
  /** Each entry lists suffixes whose providers must lie in one subtree rooted at one of them. */
  readonly sameSubtree?: readonly (readonly string[])[];
  /** Maximum number of allocation requests returned. */
  readonly limit?: number;
  /** Shuffle the result (Placement's randomize_allocation_candidates). */
  readonly randomize?: boolean;
}
