/**
 * Display formats, always in Asia/Tokyo so that the server and the browser render the same text
 * (a mismatch would break hydration).
 */
const TZ = 'Asia/Tokyo'

const dateFmt = new Intl.DateTimeFormat('ja-JP', {
  timeZone: TZ,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  weekday: 'short',
})
const timeFmt = new Intl.DateTimeFormat('ja-JP', {
  timeZone: TZ,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})
const shortDateFmt = new Intl.DateTimeFormat('ja-JP', {
  timeZone: TZ,
  month: 'numeric',
  day: 'numeric',
  weekday: 'short',
})
const ymdFmt = new Intl.DateTimeFormat('en-CA', {
  timeZone: TZ,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})
const yenFmt = new Intl.NumberFormat('ja-JP')

/** 2026/11/21(土) */
export function formatDateJa(value: string | Date): string {
  return dateFmt.format(new Date(value))
}

/** 11/21(土) */
export function formatShortDateJa(value: string | Date): string {
  return shortDateFmt.format(new Date(value))
}

/** 09:30 */
export function formatTimeJa(value: string | Date): string {
  return timeFmt.format(new Date(value))
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
  return ymdFmt.format(new Date(value))
}

/** ¥3,000, or 無料 for a free class. */
export function formatPrice(yen: number): string {
  return yen === 0 ? '無料' : `¥${yenFmt.format(yen)}`
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
