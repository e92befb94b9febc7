/**
 * Flags message text that looks like contact details: a phone number, an e-mail address, a LINE ID or an
 * outside URL (PRODUCT.md "Safety": the operator's guideline forbids taking a lesson relationship off the
 * platform). Pure and framework-free: the composer warns with it, and the API recomputes the stored flag.
 *
 * The text is NFKC-normalized first (full-width letters, digits, ＠, ．, ： become ASCII), dash-like characters
 * become '-', and kanji digits count as digits for phone numbers. Prices (¥3,000, 3000円), dates (2026/11/21,
 * 11月21日) and times (10:30〜11:30) are not flagged: they never form a 10–11 digit run starting with 0.
 */

export type ContactKind = 'phone' | 'email' | 'line' | 'url'

export type ContactDetection = { flagged: boolean; kinds: ContactKind[] }

const DASHES = /[\u2010-\u2015\u2212\u30fc\u2500\u2501\uff70\ufe63\u02d7]/g
const KANJI_DIGITS: Record<string, string> = {
  〇: '0',
  零: '0',
  一: '1',
  二: '2',
  三: '3',
  四: '4',
  五: '5',
  六: '6',
  七: '7',
  八: '8',
  九: '9',
}

/** NFKC, lower case, dash-like characters as '-'. */
export function normalizeForContact(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(DASHES, '-')
}

// A run of digits joined by spaces, hyphens, dots or brackets; the digit count decides.
const PHONE_RUN = /\+?[0-9(][0-9\s\-.()]{6,}[0-9]/g

function hasPhone(text: string): boolean {
  const withDigits = text.replace(/[〇零一二三四五六七八九]/g, (c) => KANJI_DIGITS[c] ?? c)
  for (const m of withDigits.matchAll(PHONE_RUN)) {
    const run = m[0]
    const digits = run.replace(/\D/g, '')
    // Japanese numbers: 0 + 9 or 10 digits (03-1234-5678, 090-1234-5678, 0120-123-456); +81 without the 0.
    if (digits.startsWith('0') && digits.length >= 10 && digits.length <= 11) return true
    if (run.startsWith('+') && digits.length >= 10 && digits.length <= 15) return true
  }
  return false
}

const EMAIL =
  /[a-z0-9._%+-]+\s*(?:@|\(at\)|\[at\]|あっとま-?く|アットマ-?ク)\s*[a-z0-9-]+(?:\s*(?:\.|\(dot\)|\[dot\]|どっと|ドット)\s*[a-z0-9-]+)+/

// (Dash-like characters, the long vowel mark included, are '-' by now.)
// 'LINE ID: abc', 'ライン：abc', 'lineはabc_123', 'line@abc': a separator is required, so 'LINEで連絡します' and
// 'online class' stay unflagged.
const LINE_ID =
  /(?:^|[^a-z])(?:line|ライン|らいん)\s*の?\s*(?:id|アイディ-?|あいでぃ-?)?\s*(?:[:=@→]|は|を|\s)*(?:[:=@→]|は|を)\s*@?[a-z0-9][a-z0-9._-]{2,}/

const URL_PATTERNS = [
  /https?:\/\//,
  /(?:^|[^a-z0-9])www\./,
  // A bare domain with a common top-level domain (example.com, bit.ly/xyz, foo.co.jp).
  /(?:^|[^a-z0-9@.])[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|net|org|jp|io|me|info|biz|ly|co|app|dev|link|page)(?:[/?#:]|$|[^a-z0-9.-])/,
]

/** What kinds of contact details the text seems to contain. */
export function detectContactInfo(text: string): ContactDetection {
  const t = normalizeForContact(text)
  const kinds: ContactKind[] = []
  if (hasPhone(t)) kinds.push('phone')
  if (EMAIL.test(t)) kinds.push('email')
  if (LINE_ID.test(t)) kinds.push('line')
  if (!kinds.includes('email') && URL_PATTERNS.some((p) => p.test(t))) kinds.push('url')
  return { flagged: kinds.length > 0, kinds }
}

export const containsContactInfo = (text: string) => detectContactInfo(text).flagged

const LABELS: Record<ContactKind, string> = {
  phone: '電話番号',
  email: 'メールアドレス',
  line: 'LINE ID',
  url: '外部サイトのURL',
}

/** '電話番号・メールアドレス' for the sender's warning. */
export function contactKindsLabel(kinds: ContactKind[]): string {
  return kinds.map((k) => LABELS[k]).join('・')
}
