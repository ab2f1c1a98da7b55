// Lazy backtracking over the options of one anchor tree: yields every assignment of providers to
// search variables that satisfies capacity, group_policy, same_subtree and unsuffixed traits
// (upstream: allocation_candidate.py _merge_candidates, _satisfies_group_policy,
// _satisfies_same_subtree, _check_traits_for_alloc_request, exceeds_capacity).
import type { CapacityIndex } from './capacity-index';
import type { SearchVar } from './group-options';
import type { OptionTable } from './option-table';
import { type CompiledRequest, hasAnyTrait } from './search-context';
import type { SearchScratch } from './search-scratch';
import { sameShape } from './symmetry';

/**
 * Iterates the valid assignments of one anchor (call {@link reset} after building the options).
 * Symmetry pruning: when a provider untouched by the current path leads to no assignment, every
 * interchangeable sibling (same shape, see sameShape) is skipped at that depth, so identical
 * children cost one failed branch instead of a factorial number.
 */
export class AnchorSearch {
  /** Provider slot chosen for each variable (valid after next() returned true). */
  readonly chosen: Int32Array;
  /** Option index chosen for each variable. */
  readonly cursor: Int32Array;
  private readonly n: number;
  private readonly applied: Uint8Array;
  private readonly pristine: Uint8Array;
  private readonly productiveAt: Float64Array;
  private readonly failed: number[][];
  private readonly unsuffixedVars: number[] = [];
  private readonly suffixedVars: number[] = [];
  private readonly lastUnsuffixed: number;
  private readonly subtreeAt: number[][];
  private productive = 0;
  private depth = 0;
  private done = true;

  constructor(
    private readonly index: CapacityIndex,
    private readonly req: CompiledRequest,
    private readonly vars: readonly SearchVar[],
    private readonly options: OptionTable,
    private readonly scratch: SearchScratch,
  ) {
    this.n = vars.length;
    this.chosen = new Int32Array(this.n);
    this.cursor = new Int32Array(this.n);
    this.applied = new Uint8Array(this.n);
    this.pristine = new Uint8Array(this.n);
    this.productiveAt = new Float64Array(this.n);
    this.failed = vars.map(() => []);
    vars.forEach((v, i) => {
      (v.unsuffixed ? this.unsuffixedVars : this.suffixedVars).push(i);
    });
    this.lastUnsuffixed = this.unsuffixedVars.at(-1) ?? -1;
    this.subtreeAt = vars.map(() => []);
    req.sameSubtree.forEach((set, s) => {
      const last = Math.max(...set.map((g) => vars.findIndex((v) => v.group === g)));
      this.subtreeAt[last]!.push(s);
    });
  }

  /** Starts a new enumeration over the current option table. */
  reset(): void {
    this.close();
    this.depth = 0;
    this.cursor[0] = this.options.start[0]! - 1;
    this.failed[0]!.length = 0;
    this.done = this.n === 0;
  }

  /** Advances to the next valid assignment; false when the anchor is exhausted. */
  next(): boolean {
    if (this.done) {
      return false;
    }
    const start = this.options.start;
    let d = this.depth;
    for (;;) {
      if (this.applied[d] === 1) {
        this.undo(d);
      }
      let placed = false;
      for (let o = this.cursor[d]! + 1; o < start[d + 1]! && !placed; o++) {
        if (this.symmetricToFailure(d, o) || !this.apply(d, o)) {
          continue;
        }
        placed = this.postCheck(d);
        if (!placed) {
          this.undo(d);
        }
      }
      if (!placed) {
        if (d === 0) {
          this.done = true;
          return false;
        }
        d--;
        continue;
      }
      if (d === this.n - 1) {
        this.productive++;
        this.depth = d;
        return true;
      }
      d++;
      this.cursor[d] = start[d]! - 1;
      this.failed[d]!.length = 0;
    }
  }

  /** Undoes every applied variable, restoring the shared scratch counters. */
  close(): void {
    for (let d = this.n - 1; d >= 0; d--) {
      if (this.applied[d] === 1) {
        this.undo(d);
      }
    }
    this.done = true;
  }

  /** Cheap necessary conditions on the options: isolate matching and unsuffixed traits. */
  feasible(): boolean {
    return this.unsuffixedTraitsReachable() && (!this.req.isolate || this.isolatedMatching());
  }

  private apply(d: number, o: number): boolean {
    const p = this.options.prov[o]!;
    const sv = this.vars[d]!;
    const s = this.scratch;
    if (!sv.unsuffixed && this.req.isolate && s.isolated[p]! > 0) {
      return false;
    }
    const inv = this.index.inventories;
    const base = this.options.invBase[o]!;
    for (let k = 0; k < sv.amounts.length; k++) {
      const slot = this.options.inv[base + k]!;
      const total = s.taken[slot]! + sv.amounts[k]!;
      if (total + inv.used[slot]! > inv.capacity[slot]! || total > inv.maxUnit[slot]!) {
        for (let j = 0; j < k; j++) {
          s.taken[this.options.inv[base + j]!]! -= sv.amounts[j]!;
        }
        return false;
      }
      s.taken[slot] = total;
    }
    this.pristine[d] = s.touch[p] === 0 ? 1 : 0;
    s.touch[p]!++;
    if (!sv.unsuffixed) {
      s.isolated[p]!++;
    }
    this.productiveAt[d] = this.productive;
    this.applied[d] = 1;
    this.cursor[d] = o;
    this.chosen[d] = p;
    return true;
  }

  private undo(d: number): void {
    const o = this.cursor[d]!;
    const p = this.options.prov[o]!;
    const sv = this.vars[d]!;
    const s = this.scratch;
    const base = this.options.invBase[o]!;
    for (let k = 0; k < sv.amounts.length; k++) {
      s.taken[this.options.inv[base + k]!]! -= sv.amounts[k]!;
    }
    s.touch[p]!--;
    if (!sv.unsuffixed) {
      s.isolated[p]!--;
    }
    this.applied[d] = 0;
    if (this.pristine[d] === 1 && this.productive === this.productiveAt[d]) {
      this.failed[d]!.push(p);
    }
  }

  private symmetricToFailure(d: number, o: number): boolean {
    const failed = this.failed[d]!;
    const p = this.options.prov[o]!;
    if (failed.length === 0 || this.scratch.touch[p] !== 0) {
      return false;
    }
    return failed.some((q) => sameShape(this.index, q, p));
  }

  private postCheck(d: number): boolean {
    if (d === this.lastUnsuffixed && !this.unsuffixedTraitsMet()) {
      return false;
    }
    for (const s of this.subtreeAt[d]!) {
      if (!this.sameSubtreeMet(this.req.sameSubtree[s]!)) {
        return false;
      }
    }
    return true;
  }

  private unsuffixedTraitsMet(): boolean {
    const g = this.req.groups[this.vars[this.lastUnsuffixed]!.group]!;
    return g.required.every((term) =>
      this.unsuffixedVars.some((v) => hasAnyTrait(this.index, this.chosen[v]!, term)),
    );
  }

  private unsuffixedTraitsReachable(): boolean {
    if (this.lastUnsuffixed < 0) {
      return true;
    }
    const g = this.req.groups[this.vars[this.lastUnsuffixed]!.group]!;
    const { start, prov } = this.options;
    return g.required.every((term) =>
      this.unsuffixedVars.some((v) => {
        for (let o = start[v]!; o < start[v + 1]!; o++) {
          if (hasAnyTrait(this.index, prov[o]!, term)) {
            return true;
          }
        }
        return false;
      }),
    );
  }

  private sameSubtreeMet(groups: readonly number[]): boolean {
    const picked = new Set<number>();
    for (let v = 0; v < this.n; v++) {
      if (groups.includes(this.vars[v]!.group)) {
        picked.add(this.chosen[v]!);
      }
    }
    const list = [...picked];
    return list.some((top) => list.every((p) => this.index.isAncestorOrSelf(top, p)));
  }

  private isolatedMatching(): boolean {
    const s = this.scratch;
    const { start, prov } = this.options;
    const suffixed = this.suffixedVars;
    const augment = (v: number): boolean => {
      for (let o = start[v]!; o < start[v + 1]!; o++) {
        const p = prov[o]!;
        if (s.stamp[p] === s.stampClock) {
          continue;
        }
        s.stamp[p] = s.stampClock;
        if (s.matchedVar[p] === 0 || augment(s.matchedVar[p]! - 1)) {
          s.matchedVar[p] = v + 1;
          return true;
        }
      }
      return false;
    };
    let ok = true;
    for (const v of suffixed) {
      s.stampClock++;
      if (!augment(v)) {
        ok = false;
        break;
      }
    }
    for (const v of suffixed) {
      for (let o = start[v]!; o < start[v + 1]!; o++) {
        s.matchedVar[prov[o]!] = 0;
      }
    }
    return ok;
  }
}
