// String order by UTF-16 code units (what `<` does), as a comparator: the same in every locale,
// unlike localeCompare, so sorted answers are stable across machines.

/** -1, 0 or 1 as `a` sorts before, with or after `b` by code units. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
