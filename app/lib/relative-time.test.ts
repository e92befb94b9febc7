import { describe, expect, it } from 'vitest'
import { relativeTimeJa } from './relative-time'

const now = new Date('2026-11-21T12:00:00+09:00')
const ago = (ms: number) => new Date(now.getTime() - ms)
const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

describe('relativeTimeJa', () => {
  it('says たった今 under a minute and for future moments', () => {
    expect(relativeTimeJa(now, now)).toBe('たった今')
    expect(relativeTimeJa(ago(59_999), now)).toBe('たった今')
    expect(relativeTimeJa(new Date(now.getTime() + 5 * MIN), now)).toBe('たった今')
  })
  it('counts minutes, hours and days', () => {
    expect(relativeTimeJa(ago(MIN), now)).toBe('1分前')
    expect(relativeTimeJa(ago(59 * MIN), now)).toBe('59分前')
    expect(relativeTimeJa(ago(HOUR), now)).toBe('1時間前')
    expect(relativeTimeJa(ago(23 * HOUR + 59 * MIN), now)).toBe('23時間前')
    expect(relativeTimeJa(ago(DAY), now)).toBe('1日前')
    expect(relativeTimeJa(ago(20 * DAY), now)).toBe('20日前')
  })
  it('counts calendar months and years', () => {
    expect(relativeTimeJa(new Date('2026-10-21T12:00:00+09:00'), now)).toBe('1ヶ月前')
    expect(relativeTimeJa(new Date('2026-01-01T00:00:00+09:00'), now)).toBe('10ヶ月前')
    expect(relativeTimeJa(new Date('2025-11-21T12:00:00+09:00'), now)).toBe('1年前')
    expect(relativeTimeJa(new Date('2020-05-01T00:00:00+09:00'), now)).toBe('6年前')
  })
  it('accepts ISO strings and epoch numbers', () => {
    expect(relativeTimeJa('2026-11-21T11:00:00+09:00', now)).toBe('1時間前')
    expect(relativeTimeJa(now.getTime() - 3 * MIN, now.getTime())).toBe('3分前')
  })
})
