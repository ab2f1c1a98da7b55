// Normalises TypeORM's raw query results: UPDATE/DELETE ... RETURNING come back as [rows, count].

/** The returned rows of a raw query, whatever statement produced them. */
export function rowsOf<T>(result: unknown): T[] {
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}
