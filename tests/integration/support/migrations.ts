import { readFileSync } from 'node:fs'

/**
 * The statement of a migration file (app/db/migrations/<file>) that starts with `comment`: a backfill, replayed by
 * a test against rows written the old way.
 */
export function migrationStatement(file: string, comment: string): string {
  const text = readFileSync(new URL(`../../../app/db/migrations/${file}`, import.meta.url), 'utf8')
  const statement = text.split('--> statement-breakpoint').find((s) => s.trim().startsWith(comment))
  if (!statement) throw new Error(`${file}: no statement starting with ${comment}`)
  return statement
}
