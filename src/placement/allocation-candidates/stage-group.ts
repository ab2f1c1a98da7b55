// One request group's view of a host for the candidate-stage explanation: the providers that may
// serve the group there (its tree, then the sharing providers anchored at it) and what they offer
// (used by stage-constraints.ts; the engine's own checks are group-options.ts).
import type { CapacityIndex } from './capacity-index';
import { anchoredAt, suffixedEligible, unsuffixedOption } from './group-options';
import { type CompiledGroup, hasAnyTrait } from './search-context';

/** The id of trait `name` in the index (-1 when no provider has it). */
export const traitId = (index: CapacityIndex, name: string) => index.traitTable.lookup(name);

/** One group's view of a host: the providers that may serve it and their inventories. */
export class GroupContext {
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
