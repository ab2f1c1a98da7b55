// Walks anchor trees in root order and yields every valid assignment once (upstream:
// allocation_candidate.py _merge_candidates grouping by anchor_root_provider_uuid, then the set
// that removes duplicates).
import { AnchorSearch } from './anchor-search';
import type { CapacityIndex } from './capacity-index';
import { anchoredAt, type SearchVar, searchVars, unsuffixedOption } from './group-options';
import { OptionTable } from './option-table';
import { type CompiledRequest, rootOk } from './search-context';
import type { SearchScratch } from './search-scratch';

/**
 * Lazy stream of assignments. Order: anchors by root provider id, then the search order of each
 * anchor. An assignment made only of sharing providers can be valid at several anchors; it is
 * yielded once, at the first of them.
 */
export class CandidateStream {
  readonly vars: SearchVar[];
  /** Root slot of the anchor of the current assignment. */
  anchor = -1;
  private readonly options: OptionTable;
  private readonly search: AnchorSearch;
  private readonly anchorList: Int32Array;
  private next_ = 0;
  private active = false;
  private readonly firstAnchor = new Map<string, number>();

  constructor(
    private readonly index: CapacityIndex,
    private readonly req: CompiledRequest,
    scratch: SearchScratch,
  ) {
    this.vars = searchVars(req);
    this.options = new OptionTable(index, req, this.vars);
    this.search = new AnchorSearch(index, req, this.vars, this.options, scratch);
    this.anchorList = this.initialAnchors();
  }

  /** Provider slot of each variable in the current assignment. */
  get chosen(): Int32Array {
    return this.search.chosen;
  }

  /** Advances to the next assignment; false at the end. */
  next(): boolean {
    for (;;) {
      while (this.active) {
        if (!this.search.next()) {
          this.active = false;
        } else if (this.firstTimeSeen()) {
          return true;
        }
      }
      if (this.next_ >= this.anchorList.length) {
        return false;
      }
      const t = this.anchorList[this.next_++]!;
      if (!rootOk(this.index, this.req, t) || !this.options.build(t)) {
        continue;
      }
      this.search.reset();
      if (this.search.feasible()) {
        this.anchor = t;
        this.active = true;
      }
    }
  }

  /** Releases the search state (required when stopping before the end). */
  close(): void {
    this.search.close();
    this.active = false;
  }

  private initialAnchors(): Int32Array {
    const index = this.index;
    const groups = this.req.groups;
    if (this.vars.length === 0 || groups.some((g) => g.alwaysEmpty || g.classIds.includes(-1))) {
      return new Int32Array(0);
    }
    // in_tree pins the anchor: the tree itself, or (suffixed groups) a tree that a sharing
    // provider of that tree serves.
    let allowed: Set<number> | null = null;
    for (const g of groups) {
      if (g.inTreeRoot < 0) {
        continue;
      }
      const here = new Set([g.inTreeRoot]);
      if (!g.unsuffixed) {
        for (const s of index.members[g.inTreeRoot]!) {
          if (index.sharing[s] === 1) {
            for (const t of index.anchors.anchorsOf(s)) {
              here.add(t);
            }
          }
        }
      }
      const previous: Set<number> | null = allowed;
      allowed =
        previous === null
          ? here
          : new Set<number>([...previous].filter((t: number) => here.has(t)));
    }
    if (allowed === null) {
      return index.rootOrder();
    }
    return Int32Array.from(allowed).sort((a, b) => index.rootPos(a) - index.rootPos(b));
  }

  private firstTimeSeen(): boolean {
    const chosen = this.search.chosen;
    for (let v = 0; v < chosen.length; v++) {
      if (this.index.sharing[chosen[v]!] !== 1) {
        return true;
      }
    }
    const key = chosen.join(',');
    let first = this.firstAnchor.get(key);
    if (first === undefined) {
      first = this.firstValidAnchor();
      this.firstAnchor.set(key, first);
    }
    return first === this.anchor;
  }

  private firstValidAnchor(): number {
    const index = this.index;
    const chosen = this.search.chosen;
    const p0 = chosen[0]!;
    const candidates = [index.root[p0]!, ...index.anchors.anchorsOf(p0)];
    candidates.sort((a, b) => index.rootPos(a) - index.rootPos(b));
    for (const t of candidates) {
      if (rootOk(index, this.req, t) && this.vars.every((v, i) => this.validAt(v, chosen[i]!, t))) {
        return t;
      }
    }
    return this.anchor;
  }

  private validAt(v: SearchVar, p: number, t: number): boolean {
    if (!v.unsuffixed) {
      return anchoredAt(this.index, p, t);
    }
    const g = this.req.groups[v.group]!;
    return unsuffixedOption(this.index, g, v.classIds[0]!, v.amounts[0]!, p, t) >= 0;
  }
}
