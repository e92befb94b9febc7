/** The fields of a class schedule entry the summary reads (spec §3). Dates may be Date or ISO strings. */
export interface ScheduleEntry {
  started_at: Date | string
  ended_at: Date | string
  purchased_count: number
  is_canceled: boolean
}

export interface ScheduleSummary {
  /** Non-canceled entries that have ended with purchased_count above 0. */
  timesHeld: number
  /** Sum of purchased_count over the entries counted in timesHeld. */
  countsPurchased: number
  /** Some entry starts now or later with purchased_count above 0. */
  hasReservation: boolean
}

/**
 * Spec §3 summary of a class's schedule entries.
 * hasReservation: the spec does not exclude canceled entries; we do, because a teacher's cancellation cancels
 * every reservation on the schedule, so a canceled entry never holds a live reservation.
 */
export function summarizeSchedules(
  entries: readonly ScheduleEntry[],
  now: Date | number = Date.now(),
): ScheduleSummary {
  const t = typeof now === 'number' ? now : now.getTime()
  let timesHeld = 0
  let countsPurchased = 0
  let hasReservation = false
  for (const e of entries) {
    if (e.is_canceled || e.purchased_count <= 0) continue
    if (new Date(e.ended_at).getTime() <= t) {
      timesHeld += 1
      countsPurchased += e.purchased_count
    }
    if (new Date(e.started_at).getTime() >= t) hasReservation = true
  }
  return { timesHeld, countsPurchased, hasReservation }
}
