/**
 * Display formats, always in Asia/Tokyo so that the server and the browser render the same text
 * (a mismatch would break hydration).
 */
// Japan has kept UTC+9 without daylight saving since 1951, so a Tokyo wall clock is the UTC clock of the moment
// shifted by nine hours. Done by hand rather than with Intl.DateTimeFormat: building a formatter with a time zone
// loads the zone's data and cost ~20 ms of a phone's start-up on every page that shows a date
// (docs/decisions/0031); format.test.ts checks these against Intl over many instants.
const TOKYO_OFFSET_MS = 9 * 60 * 60 * 1000
const WEEKDAYS = ['日', '月', '火', '水', '木', '金', '土'] as const

interface TokyoClock {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly weekday: (typeof WEEKDAYS)[number]
  readonly hour: number
  readonly minute: number
}

/**
 * Clocks of the ISO strings read lately. A page formats the same few API timestamps several times (a card's date,
 * start and end), and parsing the string was the costly part (~0.5 µs a call, ~30 µs of a rendered home page).
 * Emptied when full, so that it stays small on a server that renders many pages.
 */
const clocks = new Map<string, TokyoClock>()
const CLOCKS_KEPT = 1000

function tokyoClock(value: string | Date): TokyoClock {
  if (typeof value !== 'string') return clockAt(value.getTime())
  let clock = clocks.get(value)
  if (!clock) {
    clock = clockAt(new Date(value).getTime())
    if (clocks.size >= CLOCKS_KEPT) clocks.clear()
    clocks.set(value, clock)
  }
  return clock
}

function clockAt(ms: number): TokyoClock {
  // As Intl does, so that a bad value fails loudly instead of rendering NaN.
  if (Number.isNaN(ms)) throw new RangeError('Invalid time value')
  const d = new Date(ms + TOKYO_OFFSET_MS)
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    weekday: WEEKDAYS[d.getUTCDay()]!,
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
  }
}

const pad2 = (n: number) => String(n).padStart(2, '0')

/** 2026/11/21(土) */
export function formatDateJa(value: string | Date): string {
  const t = tokyoClock(value)
  return `${t.year}/${t.month}/${t.day}(${t.weekday})`
}

/** 11/21(土) */
export function formatShortDateJa(value: string | Date): string {
  const t = tokyoClock(value)
  return `${t.month}/${t.day}(${t.weekday})`
}

/** 09:30 */
export function formatTimeJa(value: string | Date): string {
  const t = tokyoClock(value)
  return `${pad2(t.hour)}:${pad2(t.minute)}`
}

/** 2026/11/21(土) 10:00〜11:00 */
export function formatScheduleJa(startedAt: string | Date, endedAt: string | Date): string {
  return `${formatDateJa(startedAt)} ${formatTimeJa(startedAt)}〜${formatTimeJa(endedAt)}`
}

/**
 * A schedule as one line: a single lesson as formatScheduleJa, a course run (全N回) as
 * 全4回（2026/12/5(土)〜2026/12/26(土)）, from its span (the first lesson's start to the last one's end).
 */
export function formatRunJa(startedAt: string | Date, endedAt: string | Date, lessonCount: number): string {
  return lessonCount > 1
    ? `全${lessonCount}回（${formatDateJa(startedAt)}〜${formatDateJa(endedAt)}）`
    : formatScheduleJa(startedAt, endedAt)
}

/** The Tokyo calendar day of a moment, as YYYY-MM-DD. */
export function tokyoDay(value: string | Date): string {
  const t = tokyoClock(value)
  return `${t.year}-${pad2(t.month)}-${pad2(t.day)}`
}

/** ¥3,000, or 無料 for a free class. */
export function formatPrice(yen: number): string {
  return yen === 0 ? '無料' : `¥${groupDigits(yen)}`
}

/**
 * 1234567 → 1,234,567 (an integer, as ja-JP writes it). By hand for the same reason as the dates: the first
 * toLocaleString of a page loads the locale's number data and cost more than the rest of the page's start-up.
 */
export function groupDigits(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

export function seatsLeft(schedule: {
  capacity: number
  purchased_count: number
  held_count?: number
}): number {
  return Math.max(0, schedule.capacity - schedule.purchased_count - (schedule.held_count ?? 0))
}

/**
 * A member's name as a learner addresses them: a teacher gets 「先生」 unless their nickname already ends with it
 * (「けんた先生」 must not read 「けんた先生 先生」).
 */
export function addressName(nickname: string, isTeacher: boolean): string {
  if (!isTeacher || /(先生|せんせい|センセイ)$/.test(nickname.trim())) return nickname
  return `${nickname} 先生`
}
