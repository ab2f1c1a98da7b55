// What `berth import placement` found wrong in a source database: one finding per row that breaks
// a rule (the API's own, through the shared validators, or a whole-database one: duplicate uuids,
// parent cycles, roots), and one per valid row left out because it depends on such a row. Text
// taken from the source is cut to a bounded length here; it is escaped where it is printed (the
// CLI: escapeForTerminal of src/lib/text-table.ts; GraphQL: JSON).
import { isPlacementError, type PlacementError } from '../../placement/errors';

/** The kinds of source rows a finding names. */
export type FindingKind =
  | 'resource class'
  | 'trait'
  | 'aggregate'
  | 'project'
  | 'user'
  | 'consumer type'
  | 'provider'
  | 'inventory'
  | 'provider trait'
  | 'provider aggregate'
  | 'consumer'
  | 'allocation';

/**
 * The rules, stable names (the `rule` of a finding). API rules (the shared validators of
 * src/placement, whose message the finding carries): invalid-uuid, invalid-name, unknown-name,
 * invalid-generation, invalid-inventory, invalid-amount, invalid-parent, no-inventory. Rules of a
 * whole database: duplicate-uuid, duplicate-name, duplicate-row, missing-reference, parent-cycle,
 * root-mismatch. And depends-on-skipped: a valid row left out with a row it needs.
 */
export type FindingRule =
  | 'invalid-uuid'
  | 'duplicate-uuid'
  | 'invalid-name'
  | 'unknown-name'
  | 'duplicate-name'
  | 'invalid-generation'
  | 'invalid-inventory'
  | 'invalid-amount'
  | 'no-inventory'
  | 'duplicate-row'
  | 'missing-reference'
  | 'invalid-parent'
  | 'parent-cycle'
  | 'root-mismatch'
  | 'depends-on-skipped';

/** One source row refused (or, with depends-on-skipped, left out). Strings are shortened. */
export interface SourceFinding {
  readonly kind: FindingKind;
  /** Which row: its source id and uuid or name, e.g. `id 7, uuid "5b0c…"`. */
  readonly row: string;
  readonly rule: FindingRule;
  /** What is wrong, in the API's words where the rule is the API's. */
  readonly message: string;
}

/** `s` cut at `max` characters (a source string may be as long as its column allows). */
export function shortened(s: string, max = 300): string {
  if (s.length <= max) {
    return s;
  }
  const chars = [...s];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : s;
}

/** A source value as a quoted, shortened label (`NULL` for null), e.g. for a uuid or a name. */
export function quoted(v: string | null, max = 80): string {
  return v === null ? 'NULL' : `"${shortened(v, max)}"`;
}

/**
 * Runs a shared validator: undefined when it accepts, else the PlacementError it threw. Anything
 * else it throws is a bug and propagates.
 */
export function brokenRule(check: () => unknown): PlacementError | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    if (isPlacementError(err)) {
      return err;
    }
    throw err;
  }
}

/** Collects findings (messages shortened). */
export class Findings {
  readonly list: SourceFinding[] = [];

  add(kind: FindingKind, row: string, rule: FindingRule, message: string): void {
    this.list.push({ kind, row, rule, message: shortened(message) });
  }
}

/** Most findings a message or summary lists one by one. */
export const MAX_LISTED_FINDINGS = 50;

/** One finding as a line: `provider id 7, uuid "…": invalid-inventory: …`. */
export function findingLine(f: SourceFinding): string {
  return `${f.kind} ${f.row}: ${f.rule}: ${f.message}`;
}

/** At most `max` finding lines, indented, and `… and N more` for the rest. */
export function findingLines(
  findings: readonly SourceFinding[],
  max = MAX_LISTED_FINDINGS,
): string[] {
  const lines = findings.slice(0, max).map((f) => `  ${findingLine(f)}`);
  if (findings.length > max) {
    lines.push(`  … and ${findings.length - max} more`);
  }
  return lines;
}
