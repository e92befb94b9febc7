/**
 * The reservation rules of PRODUCT.md ("Money", "Lessons") as pure functions: the API enforces them, the
 * pages only mirror them.
 */

export const CANCEL_DEADLINE_MS = 24 * 60 * 60 * 1000
export const MEETING_OPENS_BEFORE_MS = 15 * 60 * 1000

/** The platform's commission on a price, rounded to the yen. */
export function commissionOf(price: number, rate: number): number {
  return Math.round(price * rate)
}

/** The last moment a member may cancel: 24 hours before the start. */
export function cancelDeadline(startedAt: Date): Date {
  return new Date(startedAt.getTime() - CANCEL_DEADLINE_MS)
}

/** A member may cancel a live reservation until 24 hours before the start (inclusive). */
export function canCancel(status: string, startedAt: Date, now: Date): boolean {
  return status === 'reserved' && now.getTime() <= cancelDeadline(startedAt).getTime()
}

/** The meeting link is shown from 15 minutes before the start until the end. */
export function isMeetingOpen(startedAt: Date, endedAt: Date, now: Date): boolean {
  const t = now.getTime()
  return t >= startedAt.getTime() - MEETING_OPENS_BEFORE_MS && t <= endedAt.getTime()
}
