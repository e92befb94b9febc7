import { describe, expect, it } from 'vitest'
import {
  addressName,
  formatDateJa,
  formatPrice,
  formatScheduleJa,
  formatShortDateJa,
  formatTimeJa,
  seatsLeft,
  tokyoDay,
} from './format'

describe('format', () => {
  it('renders dates and times in Asia/Tokyo whatever the machine zone', () => {
    // 2026-11-21T01:30Z is 10:30 in Tokyo
    expect(formatTimeJa('2026-11-21T01:30:00Z')).toBe('10:30')
    expect(formatDateJa('2026-11-21T01:30:00Z')).toBe('2026/11/21(土)')
    expect(formatShortDateJa('2026-11-21T16:00:00Z')).toBe('11/22(日)')
    expect(formatScheduleJa('2026-11-21T01:00:00Z', '2026-11-21T02:00:00Z')).toBe(
      '2026/11/21(土) 10:00〜11:00',
    )
    expect(tokyoDay('2026-11-21T15:30:00Z')).toBe('2026-11-22')
  })
  it('shows 無料 for free classes and yen otherwise', () => {
    expect(formatPrice(0)).toBe('無料')
    expect(formatPrice(3000)).toBe('¥3,000')
    expect(formatPrice(1234567)).toBe('¥1,234,567')
  })
  it('counts seats left, never below zero', () => {
    expect(seatsLeft({ capacity: 5, purchased_count: 2 })).toBe(3)
    expect(seatsLeft({ capacity: 5, purchased_count: 7 })).toBe(0)
  })
})

describe('addressName', () => {
  it.each([
    ['けんた', true, 'けんた 先生'],
    ['けんた先生', true, 'けんた先生'],
    ['エミリー先生 ', true, 'エミリー先生 '],
    ['みか せんせい', true, 'みか せんせい'],
    ['はなこ', false, 'はなこ'],
    ['先生が好き', true, '先生が好き 先生'],
  ])('%s (teacher: %s) → %s', (nickname, isTeacher, expected) => {
    expect(addressName(nickname, isTeacher)).toBe(expected)
  })
})
