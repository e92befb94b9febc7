/**
 * Flags message text that looks like contact details: a phone number, an e-mail address, a LINE ID, another
 * SNS account (@handle, Instagram, X, Discord…) or an outside URL (PRODUCT.md "Safety": the operator's guideline
 * forbids taking a lesson relationship off the platform). Pure and framework-free: the composer warns with it,
 * and the API recomputes the stored flag.
 *
 * The text is NFKC-normalized first (full-width letters, digits, ＠, ．, ： become ASCII), lower-cased, and
 * dash-like characters, the long vowel mark ー included, become '-'. Then:
 * - phone: digits may be ASCII, kanji (〇九〇, 零) or words (ぜろきゅうぜろ, ゼロキューゼロ, いち に さん), split
 *   by spaces, symbols or の (- . / _ ・ ( ) , 、 *). A number is 10–11 digits starting with 0 whose second digit is
 *   not 0, or '+' and 10–15 digits. Plain ASCII digits must also be grouped like a phone number (090 1234 5678,
 *   0 9 0 1 2 …), so prices (¥3,000), dates (2026/11/21, 09/12 9/19), times (10:30〜11:30), decimals and lists
 *   of numbers are not flagged.
 * - email: local part, then '@', (at), アット, あっと, アットマーク…, then a domain whose dots may be spelled
 *   (ドット, どっと, (dot)) or a well-known provider (gmail, ジーメール, ヤフー…).
 * - line / sns: a service name (LINE, ライン, インスタ, Discord, TikTok…; X only with 'ID'/'アカウント') next to
 *   something shaped like an account id, before or after it; or an @handle (@hanako_123).
 * - url: http(s):// (also spaced out), www., a bare domain, or a spelled one (example ドット com, 〜ドットコム).
 *
 * Mentions without an id ('LINEで連絡はできません', 'Xの値', '@の使い方', 'ドットの絵') are not flagged.
 */

export type ContactKind = 'phone' | 'email' | 'line' | 'sns' | 'url'

export type ContactDetection = { flagged: boolean; kinds: ContactKind[] }

const KIND_ORDER: ContactKind[] = ['phone', 'email', 'line', 'sns', 'url']

const DASHES = /[\u2010-\u2015\u2212\u30fc\u2500\u2501\uff70\ufe63\u02d7]/g

// Characters a reader does not see (zero-width spaces and joiners, soft hyphens, direction marks, variation
// selectors, Hangul fillers): '090\u200b1234\u200b5678' reads as a phone number and must be checked as one.
const INVISIBLE = /\p{Cf}|\p{Variation_Selector}|\u034f|\u115f|\u1160|\u3164|\uffa0/gu
// Pictographs (emoji) read as a gap between the parts of a number or an id: '090 🍎 1234 🍎 5678'.
const PICTOGRAPHS = /\p{Extended_Pictographic}/gu

// Marks left after NFKC sit on the character before them and read as nothing: the keycap of an emoji digit
// ('0️⃣9️⃣0️⃣…', digit + U+FE0F + U+20E3), underlines and accents put on digits ('0̲9̲0̲'). (Kana voicing marks are
// composed by NFKC before this.)
const MARKS = /\p{M}/gu
// Circled digits NFKC keeps as they are (①–⑳ and ⓪ it turns into digits itself): negative and double circled, and
// the dingbat sets. Each reads as its number.
const CIRCLED_DIGITS = /[\u24eb-\u24ff\u2776-\u2793]/gu
function circledDigit(c: string): string {
  const code = c.codePointAt(0)!
  if (code === 0x24ff) return '0'
  if (code <= 0x24f4) return String(code - 0x24eb + 11) // ⓫–⓴
  if (code <= 0x24fe) return String(code - 0x24f5 + 1) // ⓵–⓾
  return String(((code - 0x2776) % 10) + 1) // ❶–❿, ➀–➉, ➊–➓
}

/**
 * Invisible characters removed, NFKC, marks removed, circled digits as digits, lower case, dash-like characters
 * as '-', pictographs as spaces.
 */
export function normalizeForContact(text: string): string {
  return text
    .replace(INVISIBLE, '')
    .normalize('NFKC')
    .replace(MARKS, '')
    .replace(CIRCLED_DIGITS, circledDigit)
    .toLowerCase()
    .replace(DASHES, '-')
    .replace(PICTOGRAPHS, ' ')
}

// ---------------------------------------------------------------------------------------------------------
// Phone numbers

const KANJI_DIGITS: Record<string, string> = {
  〇: '0',
  零: '0',
  '○': '0',
  '◯': '0',
  一: '1',
  壱: '1',
  二: '2',
  弐: '2',
  三: '3',
  参: '3',
  四: '4',
  五: '5',
  六: '6',
  七: '7',
  八: '8',
  九: '9',
}
const TO_KANJI = '〇一二三四五六七八九'

// Digits read aloud, in kana or English. (The long vowel mark is '-' by now, so キュー is 'キュ' + a separator.)
const WORD_DIGITS: Record<string, string> = {
  ぜろ: '0',
  ゼロ: '0',
  れい: '0',
  レイ: '0',
  まる: '0',
  マル: '0',
  zero: '0',
  いち: '1',
  イチ: '1',
  one: '1',
  に: '2',
  ニ: '2',
  two: '2',
  さん: '3',
  サン: '3',
  three: '3',
  よん: '4',
  ヨン: '4',
  し: '4',
  シ: '4',
  four: '4',
  ご: '5',
  ゴ: '5',
  five: '5',
  ろく: '6',
  ロク: '6',
  six: '6',
  なな: '7',
  ナナ: '7',
  しち: '7',
  シチ: '7',
  seven: '7',
  はち: '8',
  ハチ: '8',
  eight: '8',
  きゅう: '9',
  キュウ: '9',
  きゅ: '9',
  キュ: '9',
  く: '9',
  ク: '9',
  nine: '9',
}

const DIGIT_CHARS = `0-9${Object.keys(KANJI_DIGITS).join('')}`
// What may stand between the digits of one number ('ぜろきゅうぜろのいちにさんよん…' is how numbers are read).
const BASE_SEP_CHARS = '\\s\\-./_・(),、*の'
// Written to slip past a filter ('090:1234:5678', '090|1234|5678', '090〜1234〜5678', '090→1234→5678'): read
// between plain digits only. Times use them too, and a kanji digit after one ('14:00 一緒に', '参加') would join a
// date and its time into one number on the kanji path, where any 10–11 digits count.
const EXTRA_SEP_CHARS = ':|~〜=+→'
const SEP = `[${BASE_SEP_CHARS}${EXTRA_SEP_CHARS}]`
const BASE_SEP = `[${BASE_SEP_CHARS}]`
const EXTRA_SEPS = new RegExp(`[${EXTRA_SEP_CHARS}]+`)
const DIGIT_WORD = Object.keys(WORD_DIGITS)
  .sort((a, b) => b.length - a.length)
  .join('|')
const DIGIT_UNIT = new RegExp(`${DIGIT_WORD}|[${DIGIT_CHARS}]`, 'g')
// A stretch of digits and digit words; converted only when it holds 3+ words or ゼロ ('ゼロ90-…'), so that a
// lone 'に' or 'ご' next to a number ('5678にお電話を', '順に 0 45 90') is left alone.
const WORD_CLUSTER = new RegExp(
  `(?:${DIGIT_WORD}|[${DIGIT_CHARS}])(?:${BASE_SEP}{0,3}(?:${DIGIT_WORD}|[${DIGIT_CHARS}]))*`,
  'g',
)
const DIGIT_RUN = new RegExp(`\\+?\\s?[${DIGIT_CHARS}](?:${SEP}{0,3}[${DIGIT_CHARS}])*`, 'g')
const SEP_SPLIT = new RegExp(`(${SEP}+)`)
const KANJI_DIGIT = new RegExp(`[${Object.keys(KANJI_DIGITS).join('')}]`, 'g')
const HAS_KANJI_DIGIT = new RegExp(`[${Object.keys(KANJI_DIGITS).join('')}]`)
const ASCENDING = '0123456789012'

/** 10–11 digits starting with 0, second digit not 0; not 0123456789 or a '090-○○○○-○○○○' placeholder. */
function isPhoneDigits(d: string): boolean {
  return (
    d.length >= 10 &&
    d.length <= 11 &&
    d[0] === '0' &&
    d[1] !== '0' &&
    !ASCENDING.includes(d) &&
    !/0{6}/.test(d)
  )
}

/** '0.1 0.2 0.3' or '09/12 9/19': tight dots or slashes mixed with plain spaces are decimals or dates. */
function mixedSeparators(seps: string[]): boolean {
  return seps.some((s) => s.trim() === '') && seps.some((s) => /^[./,、]$/.test(s))
}

/**
 * Digits typed one at a time read as one group ('090 1 2 3 4 5 6 7 8', '0 9 0 1234 5678'), unless their separators
 * mix dots and spaces like a list of decimals ('0.1 0.2 0.3'). `joined` holds the indexes of such groups.
 */
function joinSingleDigits(
  groups: string[],
  seps: string[],
): { groups: string[]; seps: string[]; joined: Set<number> } {
  const single = (i: number) => groups[i]?.length === 1
  const out: string[] = []
  const between: string[] = []
  const joined = new Set<number>()
  for (let i = 0; i < groups.length; ) {
    let end = i
    while (single(end) && single(end + 1)) end++
    if (i > 0) between.push(seps[i - 1]!)
    if (end > i && !mixedSeparators(seps.slice(i, end))) {
      joined.add(out.length)
      out.push(groups.slice(i, end + 1).join(''))
    } else {
      // Kept apart, as typed (the one-digit path below checks them with their separators).
      out.push(...groups.slice(i, end + 1))
      between.push(...seps.slice(i, end))
    }
    i = end + 1
  }
  return { groups: out, seps: between, joined }
}

/** Plain ASCII digits must be grouped like a phone number: 09012345678, 090-1234-5678, 0 9 0 1 2 3 … */
function asciiRunHasPhone(run: string): boolean {
  const parts = run.split(SEP_SPLIT)
  const { groups, seps, joined } = joinSingleDigits(
    parts.filter((_, i) => i % 2 === 0),
    parts.filter((_, i) => i % 2 === 1),
  )
  for (let i = 0; i < groups.length; i++) {
    const first = groups[i]!
    if (first[0] !== '0') continue
    if (isPhoneDigits(first)) return true
    let acc = first
    if (first.length >= 2) {
      // 090 1234 5678, (03) 1234-5678, 0120-123-456, 0901234 5678: up to four groups of 2+ digits. With digits
      // typed one at a time among them, a number ends in 4 or more ('0 9 0 1234 5678'): a list that counts up
      // ('0 2 4 6 8 10 12 14', 'フィボナッチ 0, 1, 1, 2, 3, 5, 8, 13, 21') does not.
      let single = joined.has(i)
      for (let j = i + 1; j < groups.length && j <= i + 3; j++) {
        if (groups[j]!.length < 2 || mixedSeparators(seps.slice(i, j))) break
        acc += groups[j]
        single ||= joined.has(j)
        if (isPhoneDigits(acc) && (!single || groups[j]!.length >= 4)) return true
        if (acc.length >= 11) break
      }
    } else if (first.length === 1) {
      // 0 9 0 - 1 2 3 4 - 5 6 7 8: one digit at a time.
      for (let j = i + 1; j < groups.length && groups[j]!.length === 1 && acc.length < 11; j++) {
        acc += groups[j]
        if (isPhoneDigits(acc) && !mixedSeparators(seps.slice(i, j))) return true
      }
    }
  }
  return false
}

function hasPhone(text: string): boolean {
  const withWords = text.replace(WORD_CLUSTER, (cluster) => {
    const units = cluster.match(DIGIT_UNIT) ?? []
    const words = units.filter((u) => u in WORD_DIGITS)
    if (words.length < 3 && !words.some((w) => /^(?:ぜろ|ゼロ|zero)$/.test(w))) return cluster
    return cluster.replace(DIGIT_UNIT, (u) => (u in WORD_DIGITS ? TO_KANJI[Number(WORD_DIGITS[u])]! : u))
  })
  for (const m of withWords.matchAll(DIGIT_RUN)) {
    const run = m[0].trim()
    const digits = run.replace(KANJI_DIGIT, (c) => KANJI_DIGITS[c]!).replace(/\D/g, '')
    if (run.startsWith('+')) {
      if (digits.length >= 10 && digits.length <= 15) return true
      continue
    }
    if (HAS_KANJI_DIGIT.test(run)) {
      // The plain digits between kanji ones, with every separator ('090:1234:5678 一度'), by the plain rule.
      for (const plain of run.split(KANJI_DIGIT)) if (asciiRunHasPhone(plain.trim())) return true
      // Kanji or spoken digits are never prices or dates: any 10–11 digit stretch counts, however split, but
      // only across the separators numbers are read with.
      for (const piece of run.split(EXTRA_SEPS)) {
        if (!HAS_KANJI_DIGIT.test(piece)) continue
        const d = piece.replace(KANJI_DIGIT, (c) => KANJI_DIGITS[c]!).replace(/\D/g, '')
        for (let i = 0; i + 10 <= d.length; i++) {
          if (isPhoneDigits(d.slice(i, i + 10)) || isPhoneDigits(d.slice(i, i + 11))) return true
        }
      }
    } else if (asciiRunHasPhone(run)) return true
  }
  return false
}

// ---------------------------------------------------------------------------------------------------------
// E-mail addresses

const EMAIL_PROVIDERS =
  'gmail|yahoo|icloud|hotmail|outlook|docomo|ezweb|softbank|ジ-メ-ル|gメ-ル|ヤフ-|ドコモ|アイクラウド|ホットメ-ル'
const AT =
  '@ま-く|@マ-ク|@|\\(at\\)|\\[at\\]|<at>|\\{at\\}|\\(@\\)|\\[@\\]|アットマ-ク|あっとま-く|アット|あっと|\\s+at\\s+'
const SPELLED_DOT = '\\(dot\\)|\\[dot\\]|\\(\\.\\)|\\[\\.\\]|<dot>|ドット|どっと'
const EMAIL_DOT = `\\s*(?:\\.|。|・|${SPELLED_DOT})\\s*|\\s+dot\\s+`
const KANA_TLD = 'コム|こむ|ジェ-ピ-?|じぇ-ぴ-?|ジェイピ-?|じぇいぴ-?|ネット|ねっと'
const EMAIL = new RegExp(
  `[a-z0-9._%+-]+\\s*(?:${AT})\\s*(?:[a-z0-9-]+(?:(?:${EMAIL_DOT})(?:[a-z0-9-]+|${KANA_TLD}))+|(?:${EMAIL_PROVIDERS})(?![a-z0-9]))`,
  'g',
)

// ---------------------------------------------------------------------------------------------------------
// LINE and other SNS accounts

// Words that say "this is an id" ('LINEのIDは…', 'インスタのアカウント名は…').
const ID_WORD =
  'id|アイディ-?|あいでぃ-?|アカウント名?|あかうんと|ユ-ザ-(?:名|ネ-ム|id)?|ユ-ザ名|名前|なまえ|ハンドル(?:ネ-ム)?|アドレス|あどれす'
const ASCII_SERVICE =
  '(?:line|insta(?:gram)?|twitter|discord|tiktok|skype|kakao(?:talk)?|facebook|wechat|gmail|yahoo|icloud|hotmail|outlook)(?:(?=id(?![a-z]))|(?![a-z]))'
const KANA_SERVICE =
  'ライン|らいん|インスタ(?:グラム)?|いんすた(?:ぐらむ)?|ツイッタ-|ついった-|ディスコ-ド|でぃすこ-ど|ディスコ|でぃすこ|ティックトック|てぃっくとっく|スカイプ|すかいぷ|カカオ(?:ト-ク)?|フェイスブック|ジ-メ-ル|gメ-ル|ヤフ-(?:メ-ル)?|メアド|めあど|メ-ルアド(?:レス)?'
const SERVICE = `${ASCII_SERVICE}|${KANA_SERVICE}`
// Not after a letter or katakana: 'online', 'オンライン', 'ガイドライン' are not LINE.
const SERVICE_START = '(?:^|[^a-z0-9_ァ-ヶ-])'
const ACCOUNT_ID = '[a-z0-9_](?:[a-z0-9._-]*[a-z0-9_])?(?:#\\d{4})?'
const FILLER = `(?:\\s|[:=@→>「『"'()\\[\\]-]|の|は|を|も|が|で|なら|って|${ID_WORD})`

// 'インスタは hanako.mama です', 'discord: abc#1234', 'LINEのIDは→ taro99'.
const SERVICE_THEN_ID = new RegExp(
  `${SERVICE_START}(${SERVICE})(${FILLER}{0,8})(${ACCOUNT_ID})(?![a-z0-9_])`,
  'g',
)
// 'Xのアカウントは hanako': X (or エックス) only with an id word, so 'Xの値', 'x=3', 'x: int' stay unflagged.
const X_THEN_ID = new RegExp(
  `(?:^|[^a-z0-9_ァ-ヶ-])(?:x|エックス)\\s*の?\\s*(?:${ID_WORD})(${FILLER}{0,6})(${ACCOUNT_ID})(?![a-z0-9_])`,
  'g',
)
// 'hanako_123 というインスタアカウント', 'hanako.mama (インスタ)', 'abc123がLINEのIDです'. Each optional part takes the
// spaces after it: optional parts with spaces on both sides split a run of spaces in ~n⁵ ways (a message of
// 2,000 spaces held the server for hours).
const ID_THEN_SERVICE = new RegExp(
  `(?:^|[^a-z0-9_.@/-])(${ACCOUNT_ID})\\s*(?:[)」』"']\\s*)?(?:(?:が|で|は|って|っていう|という|の)\\s*)?(?:(?:名前で|なまえで)\\s*)?(?:([(【])\\s*)?(${SERVICE})\\s*(?:の?\\s*(${ID_WORD})|([)】])|で(?:検索|探|追加|フォロ-|やって|活動)|を?(?:フォロ-|やって)|です|だよ)`,
  'g',
)
// An @handle: '@hanako_123', '＠hanako'. Not '@の使い方', '@500円' (a unit price) or code ('@media', '@property').
const HANDLE = /(?:^|[^a-z0-9_.%+])@([a-z0-9_](?:[a-z0-9_.]*[a-z0-9_])?)(?![a-z0-9_@])/g

const STRONG_FILLER =
  /[:=@→>「『"]|id|アイディ|あいでぃ|アカウント|あかうんと|ユ-ザ|名前|なまえ|ハンドル|アドレス|あどれす/
// After a plain-letter id that followed only 'は', 'で'…: 'インスタは hanako です', 'LINEで hanako を検索'.
const ID_END =
  /^\s*(?:です|でした|だよ|だ(?=[。!?\s]|$)|っす|まで|って|っていう|という|と(?:検索|いい)|[でを](?:検索|探|追加|登録|フォロ-)|に(?:追加|登録|連絡|dm)|[。!?、,)」』]|$)/
// Ordinary words that can follow 'LINEは', 'TikTokは' without being an id.
const NOT_IDS = new Set(
  'iphone ipad android windows mac macbook pc app apps free web ok okay zoom chrome safari edge wifi pro plus premium lite yes no pay media import keyframes charset supports layer property staticmethod classmethod dataclass override param return returns everyone here channel home'.split(
    ' ',
  ),
)
const AMBIGUOUS_SERVICE = /^(?:line|ライン|らいん|ディスコ|でぃすこ)$/
const EMAIL_SERVICE = /^(?:gmail|yahoo|icloud|hotmail|outlook|ジ-メ-ル|gメ-ル|ヤフ-|メアド|めあど|メ-ルアド)/

function serviceKind(service: string): ContactKind {
  if (/^(?:line|ライン|らいん)$/.test(service)) return 'line'
  return EMAIL_SERVICE.test(service) ? 'email' : 'sns'
}

/** At least 3 characters and a letter (not a common word), or 5+ digits. */
function plausibleId(id: string): boolean {
  if (id.length < 3) return false
  return /[a-z]/.test(id) ? !NOT_IDS.has(id) : /^\d{5,}$/.test(id)
}

/** Starts with a letter or '_' and has digits, '_' or '.': 'hanako.mama', 'taro_0501' (not '2px', '3d'). */
const handleLike = (id: string) => /^[a-z_]/.test(id) && /[0-9_.]/.test(id)

type Opt = string | undefined

/** Each match: its kind and where it is, so that the URL check can skip it. */
type Found = { kind: ContactKind; start: number; end: number }

function findAccounts(t: string): Found[] {
  const found: Found[] = []
  const add = (kind: ContactKind, m: RegExpMatchArray) =>
    found.push({ kind, start: m.index!, end: m.index! + m[0].length })
  for (const m of t.matchAll(SERVICE_THEN_ID)) {
    const [, service, filler, id] = m as unknown as [string, string, string, string]
    if (!plausibleId(id)) continue
    const after = t.slice(m.index! + m[0].length)
    // 'ラインは 2px', 'ラインは red です' are drawing: LINE and ディスコ need more than 'は' before a plain word.
    const weakOk = AMBIGUOUS_SERVICE.test(service) ? handleLike(id) : handleLike(id) || ID_END.test(after)
    if (STRONG_FILLER.test(filler) || weakOk) add(serviceKind(service), m)
  }
  for (const m of t.matchAll(X_THEN_ID)) if (plausibleId(m[2]!)) add('sns', m)
  for (const m of t.matchAll(ID_THEN_SERVICE)) {
    const [, id, open, service, idWord, close] = m as unknown as [string, string, Opt, string, Opt, Opt]
    if (!plausibleId(id) || !(handleLike(id) || /^\d+$/.test(id))) continue
    // 'python3でライン' is drawing: LINE and ディスコ need an id word or brackets here.
    if (AMBIGUOUS_SERVICE.test(service) && !(open && close) && !idWord) continue
    add(serviceKind(service), m)
  }
  for (const m of t.matchAll(HANDLE)) {
    const handle = m[1]!
    // 'LINE: @abc' is already a LINE ID.
    if (found.some((f) => m.index! + m[0].length > f.start && m.index! < f.end)) continue
    if (handle.length >= 3 && /[a-z_]/.test(handle) && !NOT_IDS.has(handle.split('.')[0]!)) add('sns', m)
  }
  return found
}

// ---------------------------------------------------------------------------------------------------------
// Outside URLs

const TLD =
  'com|net|org|jp|io|me|info|biz|ly|co|app|dev|link|page|us|gg|gl|tv|cc|ee|xyz|site|shop|online|tokyo'
const URL_PATTERNS = [
  // http://, and 'h t t p s : / /' spelled out.
  /h\s{0,2}t\s{0,2}t\s{0,2}p\s{0,2}s?\s{0,2}:?\s{0,2}\/\s{0,2}\//,
  /(?:^|[^a-z0-9])www\./,
  /(?:^|[^a-z0-9])youtu\.be\//,
  // A bare domain with a common top-level domain (example.com, bit.ly/xyz, foo.co.jp, lin.ee/abc).
  new RegExp(`(?:^|[^a-z0-9@.])[a-z0-9][a-z0-9-]*(?:\\.[a-z0-9-]+)*\\.(?:${TLD})(?:[/?#:]|$|[^a-z0-9.-])`),
  // A spelled or spaced dot: 'example ドット com', 'example (dot) jp', 'example . com'.
  new RegExp(
    `(?:^|[^a-z0-9@.])[a-z0-9][a-z0-9-]*\\s*(?:${SPELLED_DOT}|\\s+dot\\s+|\\s+\\.\\s*|\\.\\s+)\\s*(?:com|net|org|jp|co\\.jp|ne\\.jp)(?![a-z0-9])`,
  ),
  // 'example ドットコム', 'ヤフードットコム', 'example どっと じぇーぴー'.
  /(?:[a-z0-9]|[ぁ-ゖァ-ヶ一-龠々]-?)\s*(?:ドット|どっと)\s*(?:コム|こむ|ジェ-ピ-?|じぇ-ぴ-?|ジェイピ-?|じぇいぴ-?)/,
  /[a-z0-9]\s*(?:ドット|どっと)\s*(?:ネット|ねっと)/,
]

// ---------------------------------------------------------------------------------------------------------

/** Blanks the given spans so that later checks do not see them again. */
function blank(text: string, spans: { start: number; end: number }[]): string {
  let out = text
  for (const { start, end } of spans)
    out = out.slice(0, start) + '\u0000'.repeat(end - start) + out.slice(end)
  return out
}

/** What kinds of contact details the text seems to contain. */
export function detectContactInfo(text: string): ContactDetection {
  const t = normalizeForContact(text)
  const kinds = new Set<ContactKind>()
  if (hasPhone(t)) kinds.add('phone')
  const emails = [...t.matchAll(EMAIL)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }))
  if (emails.length > 0) kinds.add('email')
  const accounts = findAccounts(t)
  for (const f of accounts) kinds.add(f.kind)
  // An e-mail address or an account is not also an outside URL ('line@taro.yamada', 'taro@example.com').
  const rest = blank(t, [...emails, ...accounts])
  if (URL_PATTERNS.some((p) => p.test(rest))) kinds.add('url')
  const list = KIND_ORDER.filter((k) => kinds.has(k))
  return { flagged: list.length > 0, kinds: list }
}

export const containsContactInfo = (text: string) => detectContactInfo(text).flagged

const LABELS: Record<ContactKind, string> = {
  phone: '電話番号',
  email: 'メールアドレス',
  line: 'LINE ID',
  sns: 'SNSのID',
  url: '外部サイトのURL',
}

/** '電話番号・メールアドレス' for the sender's warning. */
export function contactKindsLabel(kinds: ContactKind[]): string {
  return kinds.map((k) => LABELS[k]).join('・')
}
