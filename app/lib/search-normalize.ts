import { readingsOf } from './readings'

/**
 * Folds text for keyword search so that the forms a Japanese reader treats as the same word match:
 * NFKC (full-width ASCII → ASCII, half-width kana → full-width), katakana → hiragana, lower case,
 * and runs of white space → one space. Used both for the stored `search_text` and for the query terms,
 * so both sides are folded the same way.
 */
export function normalizeSearchText(input: string): string {
  return foldKatakana(input.normalize('NFKC')).toLowerCase().replace(/\s+/gu, ' ').trim()
}

/**
 * NFKC and katakana as hiragana, nothing else: the part of normalizeSearchText that a database can apply alike
 * (`translate(normalize(x, NFKC), …)`); case is left to ILIKE, spacing as typed.
 */
export function foldKana(input: string): string {
  return foldKatakana(input.normalize('NFKC'))
}

/** Katakana ァ (U+30A1) … ヶ (U+30F6) and the iteration marks ヽヾ sit 0x60 above their hiragana. */
function foldKatakana(s: string): string {
  return s.replace(/[\u30A1-\u30F6\u30FD\u30FE]/gu, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0x60))
}

/**
 * Splits a keyword query into normalized terms (every term must match). Empty input gives no terms. All of them:
 * a term dropped would find classes without it; the API's 100-character keyword bounds their number.
 */
export function searchTerms(q: string | undefined | null): string[] {
  if (!q) return []
  const terms = normalizeSearchText(q)
    .split(' ')
    .filter((t) => t.length > 0)
  return [...new Set(terms)]
}

/**
 * The stored `class_works.search_text`: what the class keyword search matches against (PRODUCT.md "Search"), and
 * the kana readings of the words it contains (app/lib/readings.ts), so that えいご finds 英語.
 */
export function classSearchText(parts: {
  title: string
  description: string
  teacherNickname: string
  categoryName: string
}): string {
  const text = [parts.title, parts.description, parts.teacherNickname, parts.categoryName].join('\n')
  return normalizeSearchText([text, ...readingsOf(text.normalize('NFKC'))].join('\n'))
}
