/** `text` as a literal inside a LIKE pattern: its %, _ and \ match themselves (\ is PostgreSQL's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}
