// The hypervisor version check of ImagePropertiesFilter, as Nova 26 runs it (upstream:
// nova/scheduler/filters/image_props_filter.py `_compare_product_version`): the image's
// `img_hv_requested_version` is read by Python's `distutils.versionpredicate.VersionPredicate(
// 'image_prop (%s)' % value)` and the host's version, Nova's integer encoding turned into dotted
// form by `oslo_utils.versionutils.convert_version_to_str` (base-1000 groups: 8000000 -> "8.0.0"),
// must satisfy every clause (`satisfied_by`), each clause comparing `distutils.version.
// StrictVersion`s (on Debian `distutils` is setuptools' copy, /usr/lib/python3/dist-packages/
// setuptools/_distutils/versionpredicate.py and version.py, the same rules as Python 3.11's).
// Parsing follows those modules character for character: Python's whitespace (str.isspace, the
// `\s` of a str pattern), `.` stopping at a newline, `int()` of digit strings of any length; 20,000
// generated predicates and versions gave Python's answers (satisfied, not, or which ValueError).

/** A StrictVersion: (major, minor, patch) and an optional pre-release (`a`/`b`, number). */
export interface StrictVersion {
  readonly version: readonly [bigint, bigint, bigint];
  readonly prerelease: readonly ['a' | 'b', bigint] | null;
}

/** One clause of a predicate: a comparison operator and the version it compares with. */
export interface Clause {
  readonly op: '<' | '<=' | '==' | '>' | '>=' | '!=';
  readonly version: StrictVersion;
}

/** A parsed predicate, or the ValueError Python raises for it. */
export type Predicate = { readonly clauses: readonly Clause[] } | { readonly error: string };

// Python's str.isspace() characters (what `\s` matches in a str pattern and strip() removes).
const WS =
  '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const STRIP = new RegExp(`^[${WS}]+|[${WS}]+$`, 'g');
// re_validPackage, re.ASCII: an ASCII-space run, the dotted name, then `(.*)`: up to a newline
// (Python's `.` stops only there; JavaScript's also at \r, \u2028, \u2029).
const PACKAGE = /^[ \t\n\r\f\v]*([a-z_]\w*(?:\.[a-z_]\w*)*)([^\n]*)/i;
// re_splitComparison (str pattern, so Unicode whitespace), applied to one stripped clause.
const COMPARISON = new RegExp(`^(<=|>=|<|>|!=|==)[${WS}]*([^${WS},]+)$`);
// StrictVersion.version_re (re.VERBOSE | re.ASCII).
const STRICT = /^(\d+)\.(\d+)(\.(\d+))?([ab](\d+))?$/;

/** Python `str.strip()` (no argument: Python's whitespace). */
export function pyStrip(s: string): string {
  return s.replace(STRIP, '');
}

/** Python's repr of a str, near enough for messages ('…', or "…" when it holds a quote). */
function pyRepr(s: string): string {
  return s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replaceAll("'", "\\'")}'`;
}

/** `StrictVersion(text)`, or Python's ValueError message. */
export function parseStrictVersion(text: string): StrictVersion | { readonly error: string } {
  const m = STRICT.exec(text);
  if (!m) {
    return { error: `invalid version number '${text}'` };
  }
  return {
    version: [BigInt(m[1]!), BigInt(m[2]!), m[4] === undefined ? 0n : BigInt(m[4])],
    prerelease: m[5] === undefined ? null : [m[5][0] as 'a' | 'b', BigInt(m[6]!)],
  };
}

/** `StrictVersion._cmp`: -1, 0 or 1. */
export function compareStrict(a: StrictVersion, b: StrictVersion): number {
  for (let i = 0; i < 3; i++) {
    if (a.version[i]! !== b.version[i]!) {
      return a.version[i]! < b.version[i]! ? -1 : 1;
    }
  }
  const [p, q] = [a.prerelease, b.prerelease];
  if (p === null || q === null) {
    return p === q ? 0 : p === null ? 1 : -1;
  }
  if (p[0] !== q[0]) {
    return p[0] < q[0] ? -1 : 1;
  }
  return p[1] === q[1] ? 0 : p[1] < q[1] ? -1 : 1;
}

/**
 * `VersionPredicate('image_prop (%s)' % requested)`: its clauses, or the ValueError Python
 * raises (an empty clause, an unknown operator, a version StrictVersion refuses, a newline that
 * cuts the parenthesised list short).
 */
export function parsePredicate(requested: string): Predicate {
  const whole = pyStrip(`image_prop (${requested})`);
  const m = PACKAGE.exec(whole)!; // always matches: the string starts with the name
  const paren = pyStrip(m[2]!);
  if (paren.length < 2 || !paren.startsWith('(') || !paren.endsWith(')')) {
    return { error: `expected parenthesized list: ${pyRepr(paren)}` };
  }
  const clauses: Clause[] = [];
  for (const part of paren.slice(1, -1).split(',')) {
    const c = COMPARISON.exec(pyStrip(part));
    if (!c) {
      return { error: `bad package restriction syntax: ${pyRepr(part)}` };
    }
    const version = parseStrictVersion(c[2]!);
    if ('error' in version) {
      return version;
    }
    clauses.push({ op: c[1] as Clause['op'], version });
  }
  return { clauses };
}

/** `oslo_utils.versionutils.convert_version_to_str`: 8000000 -> "8.0.0", 0 -> "". */
export function versionToString(version: bigint): string {
  const groups: string[] = [];
  let v = version;
  while (v !== 0n) {
    groups.unshift(String(v % 1000n));
    v /= 1000n;
  }
  return groups.join('.');
}

/** distutils versionpredicate `compmap`, on `StrictVersion._cmp`'s answer. */
const HOLDS: Readonly<Record<Clause['op'], (c: number) => boolean>> = {
  '<': (c) => c < 0,
  '<=': (c) => c <= 0,
  '==': (c) => c === 0,
  '>': (c) => c > 0,
  '>=': (c) => c >= 0,
  '!=': (c) => c !== 0,
};

/** `VersionPredicate.satisfied_by(version)`: every clause holds. */
export function satisfiedBy(clauses: readonly Clause[], version: StrictVersion): boolean {
  return clauses.every(({ op, version: other }) => HOLDS[op](compareStrict(version, other)));
}
