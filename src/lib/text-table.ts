// Plain-text output of the CLI's reports: aligned tables (every column as wide as its widest
// cell, two spaces apart, no trailing spaces) and the one escape every printed name or id goes
// through, so data can never move the cursor, erase a line or reorder text on a terminal.

/**
 * Characters a terminal acts on instead of showing: C0 controls (ESC, CR, LF, TAB, BS…), DEL,
 * C1 controls (U+0080–U+009F: 8-bit CSI, NEL…), the bidi marks, embeddings, overrides and
 * isolates (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) and the line and paragraph
 * separators (U+2028/2029).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) {
    return named;
  }
  const code = c.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every character a terminal would act on written as an escape: `\n`, `\r`, `\t`,
 * `\x1b`, `\x9b`, `\u202e`… Everything else, backslashes included, is left as it is.
 */
export function escapeForTerminal(text: string): string {
  UNPRINTABLE.lastIndex = 0;
  return UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE, escapeOne) : text;
}

/** The unprintable characters JSON.stringify leaves raw (its C0 escapes cover the rest). */
const LEFT_RAW_BY_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * `value` as indented JSON whose every unprintable character is a `\uXXXX` escape: JSON.stringify
 * escapes C0 controls inside strings, and leaves DEL, C1 controls, bidi controls and U+2028/9 as
 * they are. Those can stand only inside strings, so the JSON parses to the same value.
 */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    LEFT_RAW_BY_JSON,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * `rows` (the header first) as aligned lines, every cell escaped ({@link escapeForTerminal});
 * the columns named in `right` align right.
 */
export function alignedRows(
  rows: readonly (readonly string[])[],
  right: readonly number[] = [],
): string[] {
  const cells = rows.map((r) => r.map(escapeForTerminal));
  const widths = (cells[0] ?? []).map((_, i) => Math.max(...cells.map((r) => r[i]?.length ?? 0)));
  return cells.map((r) =>
    r
      .map((c, i) => (right.includes(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
