/** Calendar months in Asia/Tokyo (UTC+9 all year: Japan has no daylight saving time). */

const TOKYO_OFFSET_MS = 9 * 3_600_000
/**
 * YYYY-MM of this century or the last: Date.UTC reads years 0–99 as 1900–1999, so 0024-03 would mean March 1924.
 */
export const MONTH = /^((?:19|20)\d{2})-(0[1-9]|1[0-2])$/

/** The Tokyo month (YYYY-MM) a moment falls in. */
export function tokyoMonth(at: Date): string {
  const t = new Date(at.getTime() + TOKYO_OFFSET_MS)
  return `${t.getUTCFullYear()}-${String(t.getUTCMonth() + 1).padStart(2, '0')}`
}

export function isMonth(value: string): boolean {
  return MONTH.test(value)
}

/** [start, end) of a Tokyo month as instants. */
export function tokyoMonthRange(month: string): { start: Date; end: Date } {
  const m = MONTH.exec(month)
  if (!m) throw new RangeError(`not a month: ${month}`)
  const year = Number(m[1])
  const index = Number(m[2]) - 1
  return {
    start: new Date(Date.UTC(year, index, 1) - TOKYO_OFFSET_MS),
    end: new Date(Date.UTC(year, index + 1, 1) - TOKYO_OFFSET_MS),
  }
}

/** The month `delta` months away (negative for earlier). */
export function shiftMonth(month: string, delta: number): string {
  const { start } = tokyoMonthRange(month)
  const t = new Date(start.getTime() + TOKYO_OFFSET_MS)
  const d = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + delta, 1))
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`
}

/** 2026年11月 */
export function formatMonthJa(month: string): string {
  const m = MONTH.exec(month)
  return m ? `${m[1]}年${Number(m[2])}月` : month
}
