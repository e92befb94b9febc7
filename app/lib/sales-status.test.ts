import { describe, expect, it } from 'vitest'
import { salesStatusLabel } from './sales-status'

describe('salesStatusLabel', () => {
  it('says whether a cancelled seat was paid back, is being paid back, or cost nothing', () => {
    expect(salesStatusLabel({ status: 'reserved', refund: 'none' })).toBe('予約済み')
    expect(salesStatusLabel({ status: 'reserved', refund: 'none' }, 'お支払い済み')).toBe('お支払い済み')
    expect(salesStatusLabel({ status: 'canceled_by_user', refund: 'refunded' })).toBe(
      'キャンセル（返金済み）',
    )
    expect(salesStatusLabel({ status: 'canceled_by_teacher', refund: 'pending' })).toBe(
      '休講（返金手続き中）',
    )
    // A free class: nothing was paid, so nothing is said to be refunded.
    expect(salesStatusLabel({ status: 'canceled_by_teacher', refund: 'none' })).toBe('休講')
  })
})
