// Uuids of a source database as the API reads them: any case, dashes optional, normalised by
// normalizeUuidOrThrow. Two source rows whose uuids normalise to one are two objects berth would
// hold as one, so neither is imported (never merged): sharedUuids finds them.
import { normalizeUuidOrThrow } from '../../placement/uuid';
import { brokenRule, type FindingKind, type Findings } from './source-findings';

/**
 * The canonical form of a source uuid, or undefined after adding an invalid-uuid finding.
 * @param what as the API names it, e.g. 'resource provider uuid'.
 * @param row how the finding names the row (a function: built only for a finding).
 */
export function canonicalUuid(
  raw: string | null,
  what: string,
  kind: FindingKind,
  row: string | (() => string),
  findings: Findings,
): string | undefined {
  const label = () => (typeof row === 'string' ? row : row());
  if (raw === null) {
    findings.add(kind, label(), 'invalid-uuid', `Invalid ${what}: NULL is not a valid UUID.`);
    return undefined;
  }
  let canonical: string | undefined;
  const broken = brokenRule(() => {
    canonical = normalizeUuidOrThrow(raw, what);
  });
  if (broken !== undefined) {
    findings.add(kind, label(), 'invalid-uuid', broken.message);
  }
  return canonical;
}

/**
 * Rows that share their canonical uuid with another row, each with the labels of the others
 * (rows without a canonical uuid are ignored).
 */
export function sharedUuids<T>(
  rows: readonly T[],
  canonicalOf: (r: T) => string | undefined,
  label: (r: T) => string,
): Map<T, string[]> {
  // One map entry per uuid; arrays only for the (rare) uuids held by more than one row.
  const first = new Map<string, T>();
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    const c = canonicalOf(r);
    if (c === undefined) {
      continue;
    }
    const holder = first.get(c);
    if (holder === undefined) {
      first.set(c, r);
    } else {
      groups.set(c, [...(groups.get(c) ?? [holder]), r]);
    }
  }
  const out = new Map<T, string[]>();
  for (const g of groups.values()) {
    for (const r of g) {
      out.set(r, g.filter((o) => o !== r).map(label));
    }
  }
  return out;
}

/** Adds a duplicate-uuid finding for every row of `shared`. */
export function addSharedUuidFindings<T>(
  shared: ReadonlyMap<T, string[]>,
  kind: FindingKind,
  rowLabel: (r: T) => string,
  findings: Findings,
): void {
  for (const [r, others] of shared) {
    findings.add(
      kind,
      rowLabel(r),
      'duplicate-uuid',
      `its uuid is the uuid of ${kind} ${others.join(' and ')} once normalised (case and dashes are not significant): berth would hold them as one`,
    );
  }
}
