// The constraints of an allocation-candidate request, one at a time, as per-host predicates over
// the capacity index: what "why no allocation candidates?" counts host by host. Each predicate
// asks whether a host (a root provider, its tree and the sharing providers anchored at it) could
// meet that one constraint if it were the only one; `miss` says what is missing on a host that
// cannot. The engine's own checks (group-options.ts) decide the real answer; these mirror them
// one constraint at a time (upstream Placement answers only "no candidates").
import type { CapacityIndex } from './capacity-index';
import { anchoredAt, suffixedEligible, unsuffixedOption } from './group-options';
import type { CandidateRequest } from './request';
import {
  type CompiledGroup,
  type CompiledRequest,
  compileRequest,
  hasAllTerms,
  hasAnyTrait,
  inAnyAggregate,
} from './search-context';

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

const traitId = (index: CapacityIndex, name: string) => index.traitTable.lookup(name);

/** One group's view of a host: the providers that may serve it and their inventories. */
class GroupContext {
  constructor(
    private readonly index: CapacityIndex,
    private readonly g: CompiledGroup,
  ) {}

  /** Providers that may serve the group at root `t`: its tree, then sharing providers. */
  providers(t: number): readonly number[] {
    const own = this.index.members[t] ?? [];
    const shared = this.index.anchors.sharingFor(t);
    return shared.length === 0 ? own : [...own, ...shared];
  }

  /** True when some provider of `t` (its tree or a sharing provider anchored there) passes `pred`. */
  any(t: number, pred: (p: number) => boolean): boolean {
    const own = this.index.members[t] ?? [];
    for (let i = 0; i < own.length; i++) {
      if (pred(own[i]!)) {
        return true;
      }
    }
    const shared = this.index.anchors.sharingFor(t);
    for (let i = 0; i < shared.length; i++) {
      if (pred(shared[i]!)) {
        return true;
      }
    }
    return false;
  }

  /** True when some provider of `t` with an inventory the group asks for (any, when it asks for none) passes `pred`. */
  some(t: number, pred: (p: number) => boolean): boolean {
    return this.any(t, (p) => this.serves(p) && pred(p));
  }

  /** The largest free amount (or -1 without inventory) of the group's class `k` at root `t`. */
  best(t: number, k: number): number {
    const classId = this.g.classIds[k]!;
    if (classId < 0) {
      return -1;
    }
    const own = this.index.members[t] ?? [];
    let best = -1;
    for (let i = 0; i < own.length; i++) {
      best = this.freeOn(own[i]!, classId, best);
    }
    const shared = this.index.anchors.sharingFor(t);
    for (let i = 0; i < shared.length; i++) {
      best = this.freeOn(shared[i]!, classId, best);
    }
    return best;
  }

  /** True when some inventory of class `k` at root `t` takes the amount by its unit rules. */
  unitsFit(t: number, k: number): boolean {
    const classId = this.g.classIds[k]!;
    if (classId < 0) {
      return false;
    }
    const amount = this.g.amounts[k]!;
    const own = this.index.members[t] ?? [];
    for (let i = 0; i < own.length; i++) {
      if (this.unitsOn(own[i]!, classId, amount)) {
        return true;
      }
    }
    const shared = this.index.anchors.sharingFor(t);
    for (let i = 0; i < shared.length; i++) {
      if (this.unitsOn(shared[i]!, classId, amount)) {
        return true;
      }
    }
    return false;
  }

  unitsMiss(t: number, k: number, rc: string): string {
    const slots = this.unitSlots(t, k);
    if (slots.length === 0) {
      return `no ${rc} inventory`;
    }
    const inv = this.index.inventories;
    const s = slots[0]!;
    return `${rc} ${this.g.amounts[k]} requested; inventory takes ${inv.minUnit[s]}..${inv.maxUnit[s]} in steps of ${inv.stepSize[s]}`;
  }

  forbiddenPresent(t: number, names: readonly string[]): string[] {
    return names.filter((n) => {
      const id = traitId(this.index, n);
      return this.providers(t).some((p) => this.serves(p) && this.index.hasTrait(p, id));
    });
  }

  inAggregate(t: number, uuid: string): boolean {
    const id = this.index.aggregateTable.lookup(uuid);
    return (
      (this.g.unsuffixed && this.index.inAggregate(t, id)) ||
      this.providers(t).some((p) => this.serves(p) && this.index.inAggregate(p, id))
    );
  }

  /** The whole group at root `t`, as the engine checks it (group-options.ts). */
  together(t: number): boolean {
    const g = this.g;
    if (g.alwaysEmpty) {
      return false;
    }
    const providers = this.providers(t);
    if (!g.unsuffixed) {
      const out = new Int32Array(g.classIds.length);
      return providers.some(
        (p) => anchoredAt(this.index, p, t) && suffixedEligible(this.index, g, p, out, 0),
      );
    }
    const chosen: number[] = [];
    for (let k = 0; k < g.classIds.length; k++) {
      const ok = providers.filter(
        (p) => unsuffixedOption(this.index, g, g.classIds[k]!, g.amounts[k]!, p, t) >= 0,
      );
      if (ok.length === 0) {
        return false;
      }
      chosen.push(...ok);
    }
    const pool = g.classIds.length > 0 ? chosen : providers;
    return g.required.every((term) => pool.some((p) => hasAnyTrait(this.index, p, term)));
  }

  private serves(p: number): boolean {
    const classes = this.g.classIds;
    if (classes.length === 0) {
      return true;
    }
    for (let k = 0; k < classes.length; k++) {
      if (classes[k]! >= 0 && this.index.findInventory(p, classes[k]!) >= 0) {
        return true;
      }
    }
    return false;
  }

  private unitSlots(t: number, k: number): number[] {
    const classId = this.g.classIds[k]!;
    if (classId < 0) {
      return [];
    }
    const out: number[] = [];
    for (const p of this.providers(t)) {
      const slot = this.index.findInventory(p, classId);
      if (slot >= 0) {
        out.push(slot);
      }
    }
    return out;
  }

  private freeOn(p: number, classId: number, best: number): number {
    const slot = this.index.findInventory(p, classId);
    if (slot < 0) {
      return best;
    }
    const inv = this.index.inventories;
    return Math.max(best, inv.capacity[slot]! - inv.used[slot]!, 0);
  }

  private unitsOn(p: number, classId: number, amount: number): boolean {
    const slot = this.index.findInventory(p, classId);
    return slot >= 0 && this.unitsOk(slot, amount);
  }

  private unitsOk(slot: number, amount: number): boolean {
    const inv = this.index.inventories;
    return (
      amount >= inv.minUnit[slot]! &&
      amount <= inv.maxUnit[slot]! &&
      amount % inv.stepSize[slot]! === 0
    );
  }
}
