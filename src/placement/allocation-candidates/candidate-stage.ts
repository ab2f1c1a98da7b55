// "Why no allocation candidates?": how many hosts each constraint of a request keeps, alone and
// in request order, which constraints keep none, and the hosts that miss by the fewest
// constraints with what they lack ("host-7: MEMORY_MB 600000 requested, 512000 free"). Answered
// from the capacity index by the per-host predicates of stage-constraints.ts. Placement, Nova
// and Horizon stop at "no valid host"; this is what explainPlacement and the REST extension add.
import { compareText } from '../compare-text';
import type { CapacityIndex } from './capacity-index';
import type { CandidateRequest } from './request';
import {
  type AggregateNamer,
  STAGE_CODES,
  type StageConstraint,
  type StageConstraintKind,
  stageConstraints,
} from './stage-constraints';

export type { StageConstraintKind } from './stage-constraints';

/** One constraint with the hosts it keeps. */
export interface CandidateStageConstraint {
  readonly kind: StageConstraintKind;
  readonly code: string;
  /** Request group suffix ('' = unsuffixed); null for request-wide constraints. */
  readonly group: string | null;
  readonly label: string;
  readonly resourceClass?: string;
  readonly amount?: number;
  /** Hosts that meet this constraint, ignoring every other. */
  readonly hostsAlone: number;
  /** Hosts that meet this constraint and every one before it. */
  readonly hostsAfter: number;
}

/** One constraint a host misses, and what it lacks. */
export interface CandidateMiss {
  readonly kind: StageConstraintKind;
  readonly code: string;
  readonly label: string;
  readonly message: string;
}

/** A host that fails few constraints. */
export interface ClosestMiss {
  readonly hostUuid: string;
  readonly hostName: string;
  readonly misses: readonly CandidateMiss[];
}

/** The candidate stage of one request, explained. */
export interface CandidateStage {
  /** Hosts (root providers that are not sharing providers) in the index. */
  readonly hostsTotal: number;
  /** Hosts the allocation-candidate query returned. */
  readonly hostsWithCandidates: number;
  readonly constraints: readonly CandidateStageConstraint[];
  /** Constraints that alone keep no host. */
  readonly blocking: readonly CandidateStageConstraint[];
  /** Hosts failing the fewest constraints (at least one), closest first. */
  readonly closestMisses: readonly ClosestMiss[];
  /** One line for logs and "No valid host" reasons. */
  readonly summary: string;
}

/** Options of {@link explainCandidateStage}. */
export interface CandidateStageOptions {
  /** How many hosts the engine found for the request (the last row of the funnel). */
  readonly hostsWithCandidates: number;
  /** Aggregate names for labels (their `name` metadata). */
  readonly aggregateName?: AggregateNamer;
  /** Most closest misses returned (default 10). */
  readonly maxMisses?: number;
}

/** Which rows each host failed: a bit per (host, row), implied failures apart, and a count of its own misses per host. */
class FailedRows {
  readonly count: Uint16Array;
  private readonly bits: Uint32Array;
  private readonly implied: Uint32Array;
  private readonly words: number;

  constructor(hosts: number, rows: number) {
    this.words = Math.max(1, Math.ceil(rows / 32));
    this.bits = new Uint32Array(hosts * this.words);
    this.implied = new Uint32Array(hosts * this.words);
    this.count = new Uint16Array(hosts);
  }

  /** Marks row `row` failed on host `h`; `counts` false for a row implied by another failure. */
  set(h: number, row: number, counts = true): void {
    if (counts) {
      this.bits[h * this.words + (row >>> 5)]! |= 1 << (row & 31);
      this.count[h]! += 1;
    } else {
      this.implied[h * this.words + (row >>> 5)]! |= 1 << (row & 31);
    }
  }

  /** True when host `h` failed row `row` as a miss of its own. */
  has(h: number, row: number): boolean {
    return (this.bits[h * this.words + (row >>> 5)]! & (1 << (row & 31))) !== 0;
  }

  /** True when host `h` failed any of `rows`, on its own or implied. */
  anyOf(h: number, rows: readonly number[] | undefined): boolean {
    return (
      rows?.some(
        (r) =>
          this.has(h, r) || (this.implied[h * this.words + (r >>> 5)]! & (1 << (r & 31))) !== 0,
      ) === true
    );
  }
}

/** Hosts: root providers that are not themselves sharing providers. */
function hostRoots(index: CapacityIndex): Int32Array {
  return index.rootOrder().filter((t) => index.sharing[t] !== 1);
}

/**
 * Explains the allocation-candidate stage of `request` (a validated request whose names are
 * known). Each constraint is a necessary condition of the engine's answer, so a host with a
 * candidate meets every row; when the rows keep more hosts than the engine found, a last row
 * says the constraints are met only separately (a group's constraints on different providers,
 * group_policy=isolate, same_subtree).
 */
export function explainCandidateStage(
  index: CapacityIndex,
  request: CandidateRequest,
  options: CandidateStageOptions,
): CandidateStage {
  const hosts = hostRoots(index);
  const list = stageConstraints(index, request, options.aggregateName);
  const n = hosts.length;
  const failed = new FailedRows(n, list.length);
  const alive = new Uint8Array(n).fill(1);
  let left = n;
  const rows: CandidateStageConstraint[] = list.map((c, i) => {
    let alone = 0;
    for (let h = 0; h < n; h++) {
      const implied = failed.anyOf(h, c.implies);
      if (!implied && c.test(hosts[h]!)) {
        alone++;
      } else {
        // A row implied by one the host already failed says nothing new about it: it counts
        // for the funnel, not as one more miss.
        failed.set(h, i, !implied);
        if (alive[h] === 1) {
          alive[h] = 0;
          left--;
        }
      }
    }
    return row(c, alone, left);
  });
  const found = options.hostsWithCandidates;
  const combination = left > found ? combinationRow(request, found) : undefined;
  if (combination) {
    rows.push(combination);
  }
  const blocking = n === 0 ? [] : blockingRows(rows);
  const closestMisses =
    found > 0 ? [] : closest(index, hosts, list, failed, combination, options.maxMisses ?? 10);
  return {
    hostsTotal: n,
    hostsWithCandidates: found,
    constraints: rows,
    blocking,
    closestMisses,
    summary: summarise(n, found, rows, blocking, closestMisses),
  };
}

/**
 * Rows that alone keep no host. A group's "every constraint at once" row is left out when one of
 * that group's own rows already keeps none (it says nothing more).
 */
function blockingRows(rows: readonly CandidateStageConstraint[]): CandidateStageConstraint[] {
  const zero = rows.filter((r) => r.hostsAlone === 0);
  return zero.filter(
    (r) =>
      r.kind !== 'GROUP_TOGETHER' ||
      r.group === null ||
      !zero.some((o) => o.group === r.group && o.kind !== 'GROUP_TOGETHER'),
  );
}

function row(c: StageConstraint, alone: number, after: number): CandidateStageConstraint {
  return {
    kind: c.kind,
    code: STAGE_CODES[c.kind],
    group: c.group,
    label: c.label,
    ...(c.resourceClass === undefined ? {} : { resourceClass: c.resourceClass }),
    ...(c.amount === undefined ? {} : { amount: c.amount }),
    hostsAlone: alone,
    hostsAfter: after,
  };
}

/** The last row when every constraint is met somewhere but not together. */
function combinationRow(request: CandidateRequest, found: number): CandidateStageConstraint {
  const suffixed = request.groups.filter((g) => g.suffix !== '').length;
  const isolate = request.groupPolicy === 'isolate' && suffixed > 1;
  const subtree = (request.sameSubtree ?? []).length > 0;
  const kind: StageConstraintKind =
    isolate && !subtree ? 'ISOLATE' : subtree && !isolate ? 'SAME_SUBTREE' : 'GROUP_TOGETHER';
  const parts = [
    'every group at once',
    ...(isolate ? ['group_policy=isolate'] : []),
    ...(subtree ? [`same_subtree ${request.sameSubtree!.map((s) => s.join(',')).join(' ')}`] : []),
  ];
  return {
    kind,
    code: STAGE_CODES[kind],
    group: null,
    label: parts.join(', '),
    hostsAlone: found,
    hostsAfter: found,
  };
}

function closest(
  index: CapacityIndex,
  hosts: Int32Array,
  list: readonly StageConstraint[],
  failed: FailedRows,
  combination: CandidateStageConstraint | undefined,
  max: number,
): ClosestMiss[] {
  let fewest = Number.POSITIVE_INFINITY;
  for (let h = 0; h < hosts.length; h++) {
    const f = failed.count[h]! === 0 && !combination ? Number.POSITIVE_INFINITY : failed.count[h]!;
    fewest = Math.min(fewest, f);
  }
  if (!Number.isFinite(fewest) || max <= 0) {
    return [];
  }
  const scored: { h: number; failed: StageConstraint[]; closeness: number }[] = [];
  for (let h = 0; h < hosts.length; h++) {
    if (failed.count[h] !== fewest) {
      continue;
    }
    const t = hosts[h]!;
    const missed = list.filter((_, i) => failed.has(h, i));
    scored.push({
      h,
      failed: missed,
      closeness: missed.reduce((s, c) => s + (c.nearness?.(t) ?? 0), 0),
    });
  }
  scored.sort(
    (a, b) =>
      b.closeness - a.closeness || compareText(index.name[hosts[a.h]!]!, index.name[hosts[b.h]!]!),
  );
  return scored.slice(0, max).map(({ h, failed }) => {
    const t = hosts[h]!;
    const misses: CandidateMiss[] = failed.map((c) => ({
      kind: c.kind,
      code: STAGE_CODES[c.kind],
      label: c.label,
      message: c.miss(t),
    }));
    if (failed.length === 0 && combination) {
      misses.push({
        kind: combination.kind,
        code: combination.code,
        label: combination.label,
        message: 'meets every constraint, but not all of them at once',
      });
    }
    return { hostUuid: index.uuid[t]!, hostName: index.name[t]!, misses };
  });
}

function summarise(
  total: number,
  found: number,
  rows: readonly CandidateStageConstraint[],
  blocking: readonly CandidateStageConstraint[],
  misses: readonly ClosestMiss[],
): string {
  if (found > 0) {
    return `${found} of ${total} hosts have allocation candidates`;
  }
  if (total === 0) {
    return 'no allocation candidates: there are no hosts';
  }
  const where = (r: CandidateStageConstraint) =>
    r.group === null || r.group === '' ? r.label : `${r.label} (group ${r.group})`;
  const first = rows.find((r) => r.hostsAfter === 0);
  const own = blocking.filter((r) => r.kind !== 'GROUP_TOGETHER');
  const why =
    own.length > 0
      ? `no host has ${own.map(where).join('; ')}`
      : blocking.length > 0
        ? blocking
            .map((r) =>
              r.group === null
                ? `no host meets ${r.label}`
                : `no host meets every constraint of the ${r.group === '' ? 'unsuffixed group' : `group ${r.group}`} at once`,
            )
            .join('; ')
        : first
          ? `no host meets ${where(first)} together with the constraints before it`
          : 'no host meets every constraint at once';
  const near = misses[0];
  const closestText = near
    ? `; closest: ${near.hostName} (${near.misses.map((m) => m.message).join('; ')})`
    : '';
  return `no allocation candidates: ${why}${closestText}`;
}

/**
 * Hosts an engine answer uses: the root of each allocation request's first provider that is not
 * a sharing provider (the scheduler's host of that request); all-sharing requests name none.
 */
export function candidateHostCount(
  index: CapacityIndex,
  requests: readonly { readonly allocations: readonly { readonly providerUuid: string }[] }[],
): number {
  const hosts = new Set<number>();
  for (const ar of requests) {
    for (const a of ar.allocations) {
      const slot = index.slotOfUuid(a.providerUuid);
      if (slot >= 0 && index.sharing[slot] !== 1) {
        hosts.add(index.root[slot]!);
        break;
      }
    }
  }
  return hosts.size;
}
