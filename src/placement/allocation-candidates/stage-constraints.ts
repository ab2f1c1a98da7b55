// The constraints of an allocation-candidate request, one at a time, as per-host predicates over
// the capacity index: what "why no allocation candidates?" counts host by host. Each predicate
// asks whether a host (a root provider, its tree and the sharing providers anchored at it) could
// meet that one constraint if it were the only one; `miss` says what is missing on a host that
// cannot. The engine's own checks (group-options.ts) decide the real answer; these mirror them
// one constraint at a time (upstream Placement answers only "no candidates").
import type { CapacityIndex } from './capacity-index';
import type { CandidateRequest } from './request';
import {
  type CompiledRequest,
  compileRequest,
  hasAllTerms,
  hasAnyTrait,
  inAnyAggregate,
} from './search-context';
import { GroupContext, traitId } from './stage-group';

/** What a constraint is about (stable; the GraphQL enum and the REST extension use these). */
export type StageConstraintKind =
  | 'RESOURCE_CAPACITY'
  | 'RESOURCE_UNITS'
  | 'REQUIRED_TRAITS'
  | 'FORBIDDEN_TRAITS'
  | 'MEMBER_OF'
  | 'FORBIDDEN_AGGREGATES'
  | 'IN_TREE'
  | 'GROUP_TOGETHER'
  | 'ROOT_REQUIRED'
  | 'ROOT_FORBIDDEN'
  | 'SAME_SUBTREE'
  | 'ISOLATE';

/** The stable reason code of each kind. */
export const STAGE_CODES: Readonly<Record<StageConstraintKind, string>> = {
  RESOURCE_CAPACITY: 'candidate.resource.capacity',
  RESOURCE_UNITS: 'candidate.resource.units',
  REQUIRED_TRAITS: 'candidate.trait.required',
  FORBIDDEN_TRAITS: 'candidate.trait.forbidden',
  MEMBER_OF: 'candidate.aggregate.member_of',
  FORBIDDEN_AGGREGATES: 'candidate.aggregate.forbidden',
  IN_TREE: 'candidate.in_tree',
  GROUP_TOGETHER: 'candidate.group.together',
  ROOT_REQUIRED: 'candidate.root.required',
  ROOT_FORBIDDEN: 'candidate.root.forbidden',
  SAME_SUBTREE: 'candidate.same_subtree',
  ISOLATE: 'candidate.group_policy.isolate',
};

/** One constraint as a per-host predicate. */
export interface StageConstraint {
  readonly kind: StageConstraintKind;
  /** Request group suffix ('' = unsuffixed); null for request-wide constraints. */
  readonly group: string | null;
  readonly label: string;
  readonly resourceClass?: string;
  readonly amount?: number;
  /** True when host (root slot) `t` could meet this constraint on its own. */
  readonly test: (t: number) => boolean;
  /** What host `t` lacks (called only when `test(t)` is false). */
  readonly miss: (t: number) => string;
  /** How near a failing host is, from 0 (nowhere) to 1 (capacity: free / requested). */
  readonly nearness?: (t: number) => number;
  /** Rows (indexes in the list) this one implies: a host failing any of them fails this one too. */
  readonly implies?: readonly number[];
}

/** Names an aggregate uuid for people (its `name` metadata), or undefined. */
export type AggregateNamer = (uuid: string) => string | undefined;

const groupName = (suffix: string) => (suffix === '' ? 'unsuffixed group' : `group ${suffix}`);

/** Builds the constraints of `request` in request order (see {@link explainCandidateStage}). */
export function stageConstraints(
  index: CapacityIndex,
  request: CandidateRequest,
  aggregateName: AggregateNamer = () => undefined,
): StageConstraint[] {
  const compiled = compileRequest(index, request);
  const out: StageConstraint[] = [];
  const aggLabel = (uuid: string) => {
    const name = aggregateName(uuid);
    return name ? `${name} (${uuid})` : uuid;
  };
  request.groups.forEach((group, i) => {
    const g = compiled.groups[i]!;
    const ctx = new GroupContext(index, g);
    const suffix = group.suffix;
    const classes = Object.keys(group.resources);
    const groupStart = out.length;
    classes.forEach((rc, k) => {
      const amount = group.resources[rc]!;
      out.push({
        kind: 'RESOURCE_CAPACITY',
        group: suffix,
        label: `${rc}: ${amount}`,
        resourceClass: rc,
        amount,
        test: (t) => ctx.best(t, k) >= amount,
        nearness: (t) => Math.max(0, ctx.best(t, k)) / amount,
        miss: (t) => {
          const free = ctx.best(t, k);
          return free < 0
            ? `no ${rc} inventory`
            : `${rc} ${amount} requested, ${Math.max(0, free)} free`;
        },
      });
      out.push({
        kind: 'RESOURCE_UNITS',
        group: suffix,
        label: `${rc}: ${amount} within min_unit, max_unit and step_size`,
        resourceClass: rc,
        amount,
        test: (t) => ctx.unitsFit(t, k),
        miss: (t) => ctx.unitsMiss(t, k, rc),
      });
    });
    group.requiredTraits.forEach((term, j) => {
      const ids = g.required[j]!;
      const label = term.length === 1 ? `required trait ${term[0]}` : `one of ${term.join(', ')}`;
      out.push({
        kind: 'REQUIRED_TRAITS',
        group: suffix,
        label,
        test: (t) => ctx.any(t, (p) => hasAnyTrait(index, p, ids)),
        miss: () => (term.length === 1 ? `lacks ${term[0]}` : `has none of ${term.join(', ')}`),
      });
    });
    if (group.forbiddenTraits.length > 0) {
      out.push({
        kind: 'FORBIDDEN_TRAITS',
        group: suffix,
        label: `forbidden ${group.forbiddenTraits.map((n) => `!${n}`).join(', ')}`,
        test: (t) => ctx.some(t, (p) => !hasAnyTrait(index, p, g.forbidden)),
        miss: (t) => `has ${ctx.forbiddenPresent(t, group.forbiddenTraits).join(', ')}`,
      });
    }
    group.memberOf.forEach((term, j) => {
      const ids = g.memberOf![j]!;
      const names = term.map(aggLabel);
      out.push({
        kind: 'MEMBER_OF',
        group: suffix,
        label: `member_of ${term.length === 1 ? names[0] : `any of ${names.join(', ')}`}`,
        test: (t) =>
          (g.unsuffixed && inAnyAggregate(index, t, ids)) ||
          ctx.any(t, (p) => inAnyAggregate(index, p, ids)),
        miss: () =>
          term.length === 1 ? `not in aggregate ${names[0]}` : `in none of ${names.join(', ')}`,
      });
    });
    if (group.forbiddenAggregates.length > 0) {
      out.push({
        kind: 'FORBIDDEN_AGGREGATES',
        group: suffix,
        label: `not in ${group.forbiddenAggregates.map(aggLabel).join(', ')}`,
        test: (t) =>
          !(g.unsuffixed && inAnyAggregate(index, t, g.forbiddenAggs)) &&
          ctx.some(t, (p) => !inAnyAggregate(index, p, g.forbiddenAggs)),
        miss: (t) =>
          `in ${group.forbiddenAggregates
            .filter((u) => ctx.inAggregate(t, u))
            .map(aggLabel)
            .join(', ')}`,
      });
    }
    if (group.inTree !== undefined) {
      const uuid = group.inTree;
      out.push({
        kind: 'IN_TREE',
        group: suffix,
        label: `in_tree ${uuid}`,
        // A granular group's provider must be in that tree (it may be a sharing provider
        // anchored at another host); the unsuffixed group's host must be that tree.
        test: (t) =>
          classes.length === 0
            ? !g.alwaysEmpty
            : g.inTreeRoot >= 0 &&
              (g.unsuffixed
                ? g.inTreeRoot === t
                : ctx.any(t, (p) => index.root[p] === g.inTreeRoot)),
        miss: () =>
          g.inTreeRoot < 0 ? `${uuid} names no resource provider` : `not the tree of ${uuid}`,
      });
    }
    out.push({
      kind: 'GROUP_TOGETHER',
      implies: Array.from({ length: out.length - groupStart }, (_, j) => groupStart + j),
      group: suffix,
      label: g.unsuffixed
        ? `${groupName(suffix)}: every constraint at once`
        : `${groupName(suffix)}: one provider meeting all of it`,
      test: (t) => ctx.together(t),
      miss: () =>
        g.alwaysEmpty && classes.length === 0
          ? `${groupName(suffix)} asks for no resource, trait or aggregate (Placement matches no provider)`
          : g.unsuffixed
            ? `each constraint of the ${groupName(suffix)} is met somewhere, never all at once`
            : `no single provider meets every constraint of ${groupName(suffix)}`,
    });
  });
  addRequestWide(index, request, compiled, out);
  return out;
}

function addRequestWide(
  index: CapacityIndex,
  request: CandidateRequest,
  compiled: CompiledRequest,
  out: StageConstraint[],
): void {
  (request.rootRequired ?? []).forEach((term, j) => {
    const ids = compiled.rootRequired[j]!;
    out.push({
      kind: 'ROOT_REQUIRED',
      group: null,
      label: `root_required ${term.join(' or ')}`,
      test: (t) => hasAllTerms(index, t, [ids]),
      miss: () => `root lacks ${term.join(' and ')}`,
    });
  });
  const forbidden = request.rootForbidden ?? [];
  if (forbidden.length > 0) {
    out.push({
      kind: 'ROOT_FORBIDDEN',
      group: null,
      label: `root_required ${forbidden.map((n) => `!${n}`).join(', ')}`,
      test: (t) => !hasAnyTrait(index, t, compiled.rootForbidden),
      miss: (t) =>
        `root has ${forbidden.filter((n) => index.hasTrait(t, traitId(index, n))).join(', ')}`,
    });
  }
}
