import { describe, expect, it } from 'vitest'
import { reportAge } from './report-age'

const created = '2026-12-01T00:00:00.000Z'
const at = (hours: number) => Date.parse(created) + hours * 3_600_000

describe('reportAge', () => {
  it('counts whole hours within the first day, then whole days', () => {
    expect(reportAge(created, at(0))).toBe('0時間前')
    expect(reportAge(created, at(23.9))).toBe('23時間前')
    expect(reportAge(created, at(24))).toBe('1日前')
    expect(reportAge(created, at(24 * 9 + 5))).toBe('9日前')
  })

  it('never says a negative age when the clock read is a moment before the report', () => {
    expect(reportAge(created, at(-0.5))).toBe('0時間前')
  })
})
