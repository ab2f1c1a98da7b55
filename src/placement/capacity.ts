// The capacity service: rollups (src/placement/capacity-rollup.ts) and utilisation ranking over
// the replica's capacity index, for dashboards. No SQL: the index is the candidate engine's.

import type { CandidateService } from './allocation-candidates/candidate-service';
import {
  type CapacityGroup,
  type CapacityGrouping,
  type CapacityLine,
  capacityLines,
  capacityRollup,
  slotsMatching,
} from './capacity-rollup';
import { BadRequestError, ErrorCode } from './errors';
import type { ProviderFilterSql } from './provider-filter';
import { normalizeUuidOrThrow } from './uuid';

/** A provider ranked by the utilisation of one class. */
export interface RankedProvider {
  readonly uuid: string;
  readonly utilisation: number;
}

/** Most rollups kept for one index state. */
const MEMO_SIZE = 32;

/** Rollups and rankings over the capacity index. */
export class CapacityService {
  /** Rollups of the index state `memoOf` / `memoVersion` (dashboards ask the same ones again). */
  private readonly memo = new Map<string, CapacityGroup[]>();
  private memoOf: object | null = null;
  private memoVersion = -1;

  constructor(private readonly candidates: CandidateService) {}

  /**
   * The providers `filter` selects, rolled up by `grouping`; the same rollup of an unchanged
   * index is answered from memory (at most {@link MEMO_SIZE} kept).
   * @throws BadRequestError for unknown traits or classes, or malformed uuids.
   */
  async rollup(filter: ProviderFilterSql, grouping: CapacityGrouping): Promise<CapacityGroup[]> {
    const index = await this.candidates.current();
    if (this.memoOf !== index || this.memoVersion !== index.version) {
      this.memo.clear();
      this.memoOf = index;
      this.memoVersion = index.version;
    }
    const key = `${grouping} ${JSON.stringify(filter)}`;
    let groups = this.memo.get(key);
    if (groups === undefined) {
      groups = capacityRollup(index, slotsMatching(index, filter), grouping);
      if (this.memo.size >= MEMO_SIZE) {
        this.memo.clear();
      }
      this.memo.set(key, groups);
    }
    return groups;
  }

  /** The lines of an aggregate's member providers (empty for an unknown aggregate). */
  async ofAggregate(aggregateUuid: string): Promise<CapacityLine[]> {
    const index = await this.candidates.current();
    const id = index.aggregateTable.lookup(normalizeUuidOrThrow(aggregateUuid, 'aggregate uuid'));
    return capacityLines(index, id < 0 ? [] : (index.aggMembers.get(id) ?? []));
  }

  /** The lines of the whole tree `providerUuid` belongs to (empty when unknown). */
  async ofTree(providerUuid: string): Promise<CapacityLine[]> {
    const index = await this.candidates.current();
    const slot = index.slotOfUuid(normalizeUuidOrThrow(providerUuid));
    return capacityLines(index, slot < 0 ? [] : (index.members[index.root[slot]!] ?? []));
  }

  /**
   * Providers `filter` selects that have an inventory of `resourceClass`, ordered by its
   * utilisation (used / capacity; ties by provider id), `offset` of them skipped.
   * @throws BadRequestError for an unknown class.
   */
  async byUtilisation(
    filter: ProviderFilterSql,
    resourceClass: string,
    direction: 'ASC' | 'DESC',
  ): Promise<RankedProvider[]> {
    const index = await this.candidates.current();
    if (!index.isKnownResourceClass(resourceClass)) {
      throw new BadRequestError(
        `No such resource class ${resourceClass}.`,
        ErrorCode.RESOURCE_CLASS_NOT_FOUND,
      );
    }
    const classId = index.classes.lookup(resourceClass);
    const inv = index.inventories;
    const ranked: { slot: number; utilisation: number }[] = [];
    for (const slot of slotsMatching(index, filter)) {
      const i = classId < 0 ? -1 : index.findInventory(slot, classId);
      if (i >= 0) {
        const cap = inv.capacity[i]!;
        ranked.push({ slot, utilisation: cap > 0 ? inv.used[i]! / cap : 0 });
      }
    }
    const sign = direction === 'DESC' ? -1 : 1;
    ranked.sort(
      (a, b) =>
        sign * (a.utilisation - b.utilisation) ||
        index.providerId[a.slot]! - index.providerId[b.slot]!,
    );
    return ranked.map((r) => ({ uuid: index.uuid[r.slot]!, utilisation: r.utilisation }));
  }
}
