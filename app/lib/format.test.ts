import { describe, expect, it } from 'vitest'
import {
  addressName,
  formatDateJa,
  formatPrice,
  formatScheduleJa,
  formatShortDateJa,
  formatTimeJa,
  groupDigits,
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
  it('agrees with Intl in Asia/Tokyo over a century of instants', () => {
    const intl = (options: Intl.DateTimeFormatOptions, locale = 'ja-JP') =>
      new Intl.DateTimeFormat(locale, { timeZone: 'Asia/Tokyo', ...options })
    const date = intl({ year: 'numeric', month: 'numeric', day: 'numeric', weekday: 'short' })
    const short = intl({ month: 'numeric', day: 'numeric', weekday: 'short' })
    const time = intl({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    const ymd = intl({ year: 'numeric', month: '2-digit', day: '2-digit' }, 'en-CA')
    const from = Date.UTC(1970, 0, 1)
    const span = Date.UTC(2070, 0, 1) - from
    // Deterministic spread over the span, plus the minutes either side of Tokyo midnight and New Year.
    const instants = Array.from({ length: 5000 }, (_, i) => from + Math.floor((span * i) / 5000) + i * 60_007)
    instants.push(Date.UTC(2026, 11, 31, 14, 59), Date.UTC(2026, 11, 31, 15, 0), Date.UTC(2028, 1, 28, 15, 0))
    for (const ms of instants) {
      const at = new Date(ms)
      expect(formatDateJa(at)).toBe(date.format(at))
      expect(formatShortDateJa(at.toISOString())).toBe(short.format(at))
      expect(formatTimeJa(at)).toBe(time.format(at))
      expect(tokyoDay(at)).toBe(ymd.format(at))
    }
  })
  it('rejects a value that is not a date, as Intl does', () => {
    expect(() => formatDateJa('not a date')).toThrow(RangeError)
    // Every time: a bad value is never kept as a clock.
    expect(() => formatTimeJa('not a date')).toThrow(RangeError)
  })
  it('gives a timestamp read again the same text, also once the kept clocks have been emptied', () => {
    const iso = '2026-11-21T01:30:00.000Z'
    expect(formatScheduleJa(iso, iso)).toBe('2026/11/21(土) 10:30〜10:30')
    const texts = Array.from({ length: 2500 }, (_, i) =>
      new Date(Date.UTC(2026, 0, 1, 15) + i * 60_000).toISOString(),
    )
    expect(texts.map(formatTimeJa).slice(0, 2)).toEqual(['00:00', '00:01'])
    expect(texts.map(formatDateJa).at(-1)).toBe('2026/1/3(土)')
    expect(formatScheduleJa(iso, iso)).toBe('2026/11/21(土) 10:30〜10:30')
  })
  it('shows 無料 for free classes and yen otherwise', () => {
    expect(formatPrice(0)).toBe('無料')
    expect(formatPrice(3000)).toBe('¥3,000')
    expect(formatPrice(1234567)).toBe('¥1,234,567')
  })
  it('groups digits as ja-JP does', () => {
    for (const n of [0, 7, 999, 1000, 12345, 999999, 1000000, -1234, -100, 2 ** 40, 123456789012])
      expect(groupDigits(n)).toBe(n.toLocaleString('ja-JP'))
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
