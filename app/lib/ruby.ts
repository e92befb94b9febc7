/**
 * Furigana (issue 19): a text as segments, each plain text or a base with its reading. Joining the bases gives the
 * text back, so the segments render in place of it (line breaks and spaces included).
 * Readings come from a morphological analyser (kuromoji) when content is written, never per request
 * (docs/decisions/0028).
 */
export type RubySegment = string | [base: string, reading: string]
export type Ruby = RubySegment[]

/** An analyser token: what it read and how (katakana), or no reading for unknown words. */
export type Token = readonly [surface: string, reading: string | undefined]

const KANJI = /[\p{Script=Han}々〆ヶ]/u
const KANJI_RUN = /([\p{Script=Han}々〆ヶ]+)/u

export const hasKanji = (text: string) => KANJI.test(text)

/** Katakana → hiragana (ヴ and the small forms included); other characters unchanged. */
export function toHiragana(text: string): string {
  return text.replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60))
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * One token's segments: the kana around and between kanji (okurigana) stay plain, each run of kanji gets its part
 * of the reading (読み聞かせ → 読[よ]み聞[き]かせ). When the reading cannot be split that way, the whole word
 * carries it; when there is no reading, or no kanji, the word stays plain.
 */
function tokenRuby([surface, reading]: Token): RubySegment[] {
  if (!hasKanji(surface) || !reading || reading === '*') return [surface]
  const kana = toHiragana(reading)
  const parts = surface.split(KANJI_RUN).filter((p) => p !== '')
  const pattern = parts.map((p) => (hasKanji(p) ? '(.+?)' : escapeRegExp(toHiragana(p)))).join('')
  const match = new RegExp(`^${pattern}$`, 'u').exec(kana)
  if (!match) return [[surface, kana]]
  let group = 1
  return parts.map((p) => (hasKanji(p) ? ([p, match[group++] as string] as RubySegment) : p))
}

/** The segments of a whole text from its tokens, with neighbouring plain parts joined. */
export function rubyOfTokens(tokens: readonly Token[]): RubySegment[] {
  const out: RubySegment[] = []
  for (const segment of tokens.flatMap(tokenRuby)) {
    const last = out[out.length - 1]
    if (typeof segment === 'string' && typeof last === 'string') out[out.length - 1] = last + segment
    else out.push(segment)
  }
  return out
}

/** The text the segments stand for. */
export const rubyText = (ruby: Ruby) => ruby.map((s) => (typeof s === 'string' ? s : s[0])).join('')

/** Segments that add nothing (no reading anywhere) are not worth storing or sending. */
export const hasReadings = (ruby: Ruby) => ruby.some((s) => typeof s !== 'string')
