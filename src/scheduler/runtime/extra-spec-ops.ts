// Nova's extra-spec operators (upstream: nova/scheduler/filters/extra_specs_ops.py): how one
// flavor requirement such as `>= 4`, `s== gold`, `<in> ssd` or `<or> a <or> b` matches one value.
// Plugins reach these through helpers.ts.

/** Result of matching one value against one extra-spec requirement. `error` is set when a number was expected. */
export interface MatchResult {
  readonly matched: boolean;
  readonly error?: string;
}

const NUMERIC_OPS: Readonly<Record<string, (x: number, y: number) => boolean>> = {
  '=': (x, y) => x >= y,
  '==': (x, y) => x === y,
  '!=': (x, y) => x !== y,
  '>=': (x, y) => x >= y,
  '<=': (x, y) => x <= y,
};

const STRING_OPS: Readonly<Record<string, (x: string, y: string) => boolean>> = {
  '<in>': (x, y) => x.includes(y),
  's==': (x, y) => x === y,
  's!=': (x, y) => x !== y,
  's<': (x, y) => x < y,
  's<=': (x, y) => x <= y,
  's>': (x, y) => x > y,
  's>=': (x, y) => x >= y,
};

const FLOAT_RE = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|inf|infinity|nan)$/i;

/** Parses a number the way Python's `float()` does (surrounding blanks allowed); `null` when it is not one. */
export function parseNovaFloat(raw: string): number | null {
  const s = raw.trim();
  if (!FLOAT_RE.test(s)) {
    return null;
  }
  const lower = s.toLowerCase().replace(/^\+/, '');
  if (lower.endsWith('nan')) {
    return Number.NaN;
  }
  if (lower.endsWith('inf') || lower.endsWith('infinity')) {
    return lower.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  return Number(s);
}

/** True when `req` starts with one of Nova's comparison operators (`<or>` excluded). */
export function isOperatorExpression(req: string): boolean {
  const op = req.trim().split(/\s+/)[0] ?? '';
  return op in NUMERIC_OPS || op in STRING_OPS || op === '<all-in>';
}

/**
 * Matches an aggregate value against a flavor requirement with Nova's extra_specs_ops semantics:
 * `=` (numeric >=), `==`, `!=`, `>=`, `<=`, `s==` ... `s>=`, `<in>` (substring), `<all-in>`,
 * `<or> a <or> b`, otherwise literal equality. Never throws: a non-numeric operand of a numeric
 * operator yields `{ matched: false, error }`.
 */
export function matchExtraSpec(value: string, req: string): MatchResult {
  const words = req.split(/\s+/).filter((w) => w !== '');
  const op = words.shift();
  if (
    op === undefined ||
    (op !== '<or>' && op !== '<all-in>' && !(op in NUMERIC_OPS || op in STRING_OPS))
  ) {
    return { matched: value === req };
  }
  if (op === '<or>') {
    // Nova pops value, keyword, value, ...: words at even positions are the alternatives.
    return { matched: words.some((w, i) => i % 2 === 0 && w === value) };
  }
  const operand = words[0];
  if (operand === undefined) {
    return { matched: false };
  }
  if (op === '<all-in>') {
    return { matched: words.every((w) => value.includes(w)) };
  }
  const stringOp = STRING_OPS[op];
  if (stringOp !== undefined) {
    return { matched: stringOp(value, operand) };
  }
  const x = parseNovaFloat(value);
  const y = parseNovaFloat(operand);
  if (x === null || y === null) {
    const bad = x === null ? value : operand;
    return { matched: false, error: `operator "${op}" needs numbers, got "${bad}"` };
  }
  return { matched: NUMERIC_OPS[op]!(x, y) };
}
