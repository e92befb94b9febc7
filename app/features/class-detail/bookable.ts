import type { PublicSchedule } from '~/contract/v1/class-works'

/**
 * Whether a class has a lesson that can still be booked at `now`: one not cancelled that has not started. Without
 * one the page offers 「リクエスト開催」 (the server takes a request then, createClassRequest).
 */
export function hasBookableLesson(
  schedules: Pick<PublicSchedule, 'started_at' | 'is_canceled'>[],
  now: string,
): boolean {
  const at = new Date(now).getTime()
  return schedules.some((s) => !s.is_canceled && new Date(s.started_at).getTime() > at)
}
