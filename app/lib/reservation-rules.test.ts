import { describe, expect, it } from 'vitest'
import { canCancel, cancelDeadline, commissionOf, isMeetingOpen } from './reservation-rules'

const start = new Date('2026-11-21T10:00:00+09:00')
const end = new Date('2026-11-21T11:00:00+09:00')
const at = (iso: string) => new Date(iso)

describe('reservation rules', () => {
  it('rounds the commission to the yen', () => {
    expect(commissionOf(3000, 0.2)).toBe(600)
    expect(commissionOf(1234, 0.2)).toBe(247)
    expect(commissionOf(1232, 0.2)).toBe(246)
    expect(commissionOf(0, 0.2)).toBe(0)
  })

  it('allows cancelling until exactly 24 hours before the start', () => {
    expect(cancelDeadline(start).toISOString()).toBe('2026-11-20T01:00:00.000Z')
    expect(canCancel('reserved', start, at('2026-11-20T09:59:59+09:00'))).toBe(true)
    expect(canCancel('reserved', start, at('2026-11-20T10:00:00+09:00'))).toBe(true)
    expect(canCancel('reserved', start, at('2026-11-20T10:00:01+09:00'))).toBe(false)
    expect(canCancel('canceled_by_user', start, at('2026-11-01T10:00:00+09:00'))).toBe(false)
  })

  it('opens the meeting 15 minutes before the start until the end', () => {
    expect(isMeetingOpen(start, end, at('2026-11-21T09:44:59+09:00'))).toBe(false)
    expect(isMeetingOpen(start, end, at('2026-11-21T09:45:00+09:00'))).toBe(true)
    expect(isMeetingOpen(start, end, at('2026-11-21T10:30:00+09:00'))).toBe(true)
    expect(isMeetingOpen(start, end, at('2026-11-21T11:00:00+09:00'))).toBe(true)
    expect(isMeetingOpen(start, end, at('2026-11-21T11:00:01+09:00'))).toBe(false)
  })
})
