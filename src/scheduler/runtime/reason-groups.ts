// Groups one filter's rejections by reason code, for "why no valid host" at a glance: twenty hosts
// short of RAM are one line with a count, not twenty (no Nova counterpart; Nova logs per host).
import { compareText } from '../../placement/compare-text';
import type { Rejection } from './explanation';

/** Most example rejections a group keeps. */
export const MAX_GROUP_EXAMPLES = 3;

/** The rejections of one filter that share a code. */
export interface RejectionGroup {
  readonly code: string;
  /** How many hosts were rejected with this code. */
  readonly count: number;
  /** The first rejection's reason. */
  readonly message: string;
  /** The first rejections with this code, at most {@link MAX_GROUP_EXAMPLES}, in host order. */
  readonly examples: readonly Rejection[];
}

/**
 * Groups rejections by code: largest group first, ties by code (so the order is stable for the
 * same rejections). Each group's message and examples come from its first rejections, in the order
 * given.
 */
export function groupRejections(rejections: readonly Rejection[]): RejectionGroup[] {
  const groups = new Map<string, { count: number; examples: Rejection[] }>();
  for (const r of rejections) {
    const group = groups.get(r.code);
    if (group === undefined) {
      groups.set(r.code, { count: 1, examples: [r] });
      continue;
    }
    group.count += 1;
    if (group.examples.length < MAX_GROUP_EXAMPLES) {
      group.examples.push(r);
    }
  }
  return [...groups]
    .map(([code, g]) => ({
      code,
      count: g.count,
      message: g.examples[0]!.reason,
      examples: g.examples,
    }))
    .sort((a, b) => b.count - a.count || compareText(a.code, b.code));
}
