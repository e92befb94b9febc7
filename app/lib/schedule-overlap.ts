/** Schedule period rules shared by the API and the class management form. */

export interface Period {
  startedAt: Date
  endedAt: Date
}

/** Half-open periods [start, end) overlap when each starts before the other ends (touching is fine). */
export function periodsOverlap(a: Period, b: Period): boolean {
  return a.startedAt.getTime() < b.endedAt.getTime() && b.startedAt.getTime() < a.endedAt.getTime()
}

/** The first of `others` that overlaps `period`, if any. */
export function findOverlap<T extends Period>(period: Period, others: readonly T[]): T | undefined {
  return others.find((o) => periodsOverlap(period, o))
}

/** An instant typed in a `datetime-local` field, read as Tokyo time (YYYY-MM-DDTHH:mm). */
export function tokyoLocalToIso(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return undefined
  const d = new Date(`${value}:00+09:00`)
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString()
}

/** The `datetime-local` value (Tokyo time) of an instant. */
export function isoToTokyoLocal(iso: string): string {
  const t = new Date(new Date(iso).getTime() + 9 * 3_600_000)
  return t.toISOString().slice(0, 16)
}
