/**
 * The rows of a raw `db.execute(sql…)`: the two drivers answer differently — postgres-js an array of rows, PGlite
 * a result object with `rows`. Typed by the caller, who wrote the statement's select list.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[]
  const rows = (result as { rows?: unknown } | null | undefined)?.rows
  if (Array.isArray(rows)) return rows as T[]
  throw new TypeError('rowsOf: not a result of db.execute')
}
