import { describe, expect, it } from 'vitest'
import { reservationStatusLabel } from './reservation-status'

describe('reservationStatusLabel', () => {
  const r = (
    status: 'pending' | 'reserved' | 'canceled_by_user' | 'canceled_by_teacher',
    is_canceled = false,
  ) => ({
    status,
    schedule: { is_canceled },
  })
  it.each([
    [r('reserved'), false, '予約中'],
    // A lesson that has ended is no longer 予約中 (the defect: past lessons kept that label).
    [r('reserved'), true, '受講済み'],
    [r('canceled_by_user'), false, 'キャンセル済み'],
    [r('canceled_by_user'), true, 'キャンセル済み'],
    [r('canceled_by_teacher'), false, '開催中止'],
    [r('canceled_by_teacher'), true, '開催中止'],
    // The teacher cancelled the lesson itself, before the reservation was moved.
    [r('reserved', true), false, '開催中止'],
    [r('reserved', true), true, '開催中止'],
    [r('pending'), false, 'お支払い待ち'],
    [r('pending'), true, 'お支払い未完了'],
  ])('%o, past %s → %s', (p, past, text) => {
    expect(reservationStatusLabel(p, past).text).toBe(text)
  })
})
