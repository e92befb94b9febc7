/**
 * Character n-grams for keyword search (PRODUCT.md "Search"). The index side is the SQL function
 * `class_search_bigrams(search_text)` (migration 0002), which stores every character and every pair of adjacent
 * characters of the normalized text as tsvector lexemes. A query term matches a text only if all the term's
 * grams are present, so the GIN index narrows the candidates for terms of ANY length (pg_trgm cannot serve
 * 1–2 character terms such as 陶芸 or 将棋); the caller then rechecks the exact substring.
 *
 * Characters are Unicode code points (Array.from), as PostgreSQL counts them. Terms are already normalized
 * (app/lib/search-normalize.ts) and never contain white space.
 */

/** The grams of one normalized term that a query asks the index for: the character itself for a 1-character
 *  term, otherwise adjacent pairs that cover every character — at positions 0, 2, 4 … and the last pair (distinct,
 *  in order). A text holding the term holds all its pairs, so any of them narrow the candidates; half of them
 *  means half the posting lists read, and the caller rechecks the exact substring anyway. */
export function termGrams(term: string): string[] {
  const chars = Array.from(term).filter((c) => !/[ \t\n\r]/u.test(c))
  if (chars.length === 0) return []
  if (chars.length === 1) return chars
  const grams = new Set<string>()
  for (let i = 0; i + 1 < chars.length; i += 2) grams.add(chars[i]! + chars[i + 1]!)
  grams.add(chars[chars.length - 2]! + chars[chars.length - 1]!)
  return [...grams]
}

/** What `class_search_bigrams(text)` stores, sorted and distinct: every character and every adjacent pair of
 *  characters within the words between spaces, tabs and line breaks. Tests check the SQL function against it. */
export function textGrams(text: string): string[] {
  const grams = new Set<string>()
  for (const word of text.split(/[ \t\n\r]+/u)) {
    const chars = Array.from(word)
    chars.forEach((c, i) => {
      grams.add(c)
      if (i + 1 < chars.length) grams.add(c + chars[i + 1]!)
    })
  }
  grams.delete('')
  return [...grams].sort()
}

/** A tsquery lexeme in quotes, taken as-is by the `::tsquery` cast (no parser, no dictionary). */
export function tsqueryLexeme(gram: string): string {
  return `'${gram.replace(/\\/gu, '\\\\').replace(/'/gu, "''")}'`
}

/**
 * The tsquery text (for a `$1::tsquery` parameter) that every term must satisfy: all grams of all terms, AND-ed.
 * Returns null when there is nothing to match (no terms).
 */
export function gramsTsquery(terms: readonly string[]): string | null {
  const grams = [...new Set(terms.flatMap(termGrams))]
  return grams.length === 0 ? null : grams.map(tsqueryLexeme).join(' & ')
}
