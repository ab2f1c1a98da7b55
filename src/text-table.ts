// Plain-text tables for the CLI's reports: every column as wide as its widest cell, two spaces
// apart, no trailing spaces.

/** `rows` (the header first) as aligned lines; the columns named in `right` align right. */
export function alignedRows(
  rows: readonly (readonly string[])[],
  right: readonly number[] = [],
): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  return rows.map((r) =>
    r
      .map((c, i) => (right.includes(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
