// Per-anchor option lists of every search variable, in reusable typed buffers
// (upstream: the per-tree lists allocation_candidate.py builds before itertools.product).
import type { CapacityIndex } from './capacity-index';
import { type SearchVar, suffixedEligible, unsuffixedOption } from './group-options';
import { growInt32 } from './inventory-table';
import type { CompiledRequest } from './search-context';

/**
 * Options of variable v are entries [start[v], start[v+1]) of `prov` (provider slot) and
 * `invBase` (offset in `inv` of the inventory slots, one per class of the variable).
 */
export class OptionTable {
  start: Int32Array;
  prov = new Int32Array(64);
  invBase = new Int32Array(64);
  inv = new Int32Array(64);
  private count = 0;
  private invCount = 0;

  constructor(
    private readonly index: CapacityIndex,
    private readonly req: CompiledRequest,
    private readonly vars: readonly SearchVar[],
  ) {
    this.start = new Int32Array(vars.length + 1);
  }

  /** Fills the options for anchor root `t`; false as soon as one variable has none. */
  build(t: number): boolean {
    const index = this.index;
    const members = index.members[t]!;
    const sharing = index.anchors.sharingFor(t);
    this.count = 0;
    this.invCount = 0;
    for (let v = 0; v < this.vars.length; v++) {
      const sv = this.vars[v]!;
      this.start[v] = this.count;
      const g = this.req.groups[sv.group]!;
      if (sv.unsuffixed) {
        const classId = sv.classIds[0]!;
        const amount = sv.amounts[0]!;
        for (let i = 0; i < members.length; i++) {
          this.pushUnsuffixed(
            unsuffixedOption(index, g, classId, amount, members[i]!, t),
            members[i]!,
          );
        }
        for (let i = 0; i < sharing.length; i++) {
          this.pushUnsuffixed(
            unsuffixedOption(index, g, classId, amount, sharing[i]!, t),
            sharing[i]!,
          );
        }
      } else {
        for (let i = 0; i < members.length; i++) {
          this.pushSuffixed(g.classIds.length, members[i]!, sv);
        }
        for (let i = 0; i < sharing.length; i++) {
          this.pushSuffixed(g.classIds.length, sharing[i]!, sv);
        }
      }
      if (this.count === this.start[v]) {
        return false;
      }
    }
    this.start[this.vars.length] = this.count;
    return true;
  }

  private pushUnsuffixed(inv: number, p: number): void {
    if (inv < 0) {
      return;
    }
    this.reserve(1);
    this.prov[this.count] = p;
    this.invBase[this.count] = this.invCount;
    this.inv[this.invCount++] = inv;
    this.count++;
  }

  private pushSuffixed(width: number, p: number, sv: SearchVar): void {
    this.reserve(width);
    const g = this.req.groups[sv.group]!;
    if (!suffixedEligible(this.index, g, p, this.inv, this.invCount)) {
      return;
    }
    this.prov[this.count] = p;
    this.invBase[this.count] = this.invCount;
    this.invCount += width;
    this.count++;
  }

  private reserve(width: number): void {
    this.prov = growInt32(this.prov, this.count + 1);
    this.invBase = growInt32(this.invBase, this.count + 1);
    this.inv = growInt32(this.inv, this.invCount + width);
  }
}
