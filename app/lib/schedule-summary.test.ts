import { describe, expect, it } from 'vitest'
import { type ScheduleEntry, summarizeSchedules } from './schedule-summary'

const now = new Date('2025-06-01T10:00:00Z')
const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString()
const entry = (start: number, end: number, purchased: number, canceled = false): ScheduleEntry => ({
  started_at: at(start),
  ended_at: at(end),
  purchased_count: purchased,
  is_canceled: canceled,
})

describe('summarizeSchedules', () => {
  it('is all zero for no entries', () => {
    expect(summarizeSchedules([], now)).toEqual({ timesHeld: 0, countsPurchased: 0, hasReservation: false })
  })

  it('counts ended, non-canceled entries with purchases', () => {
    const s = summarizeSchedules([entry(-200, -140, 3), entry(-100, -40, 2)], now)
    expect(s).toEqual({ timesHeld: 2, countsPurchased: 5, hasReservation: false })
  })

  it('ignores canceled entries for every figure', () => {
    const s = summarizeSchedules([entry(-200, -140, 3, true), entry(60, 120, 2, true)], now)
    expect(s).toEqual({ timesHeld: 0, countsPurchased: 0, hasReservation: false })
  })

  it('ignores entries with zero purchases', () => {
    const s = summarizeSchedules([entry(-200, -140, 0), entry(60, 120, 0)], now)
    expect(s).toEqual({ timesHeld: 0, countsPurchased: 0, hasReservation: false })
  })

  it('does not count an entry that started but has not ended, nor treat it as upcoming', () => {
    const s = summarizeSchedules([entry(-30, 30, 4)], now)
    expect(s).toEqual({ timesHeld: 0, countsPurchased: 0, hasReservation: false })
  })

  it('counts an entry that ends exactly now as held and one starting exactly now as upcoming', () => {
    expect(summarizeSchedules([entry(-60, 0, 1)], now).timesHeld).toBe(1)
    expect(summarizeSchedules([entry(0, 60, 1)], now).hasReservation).toBe(true)
  })

  it('reports an upcoming reservation', () => {
    const s = summarizeSchedules([entry(-200, -140, 1), entry(1440, 1500, 2)], now)
    expect(s).toEqual({ timesHeld: 1, countsPurchased: 1, hasReservation: true })
  })

  it('accepts Date objects and a numeric now', () => {
    const e = { started_at: new Date(0), ended_at: new Date(1000), purchased_count: 1, is_canceled: false }
    expect(summarizeSchedules([e], 5000)).toEqual({ timesHeld: 1, countsPurchased: 1, hasReservation: false })
  })
})
