import { describe, expect, it } from 'vitest'
import { googleCalendarUrl } from './calendar-links'

describe('googleCalendarUrl', () => {
  it('names the lesson with UTC times and the Tokyo zone', () => {
    const url = new URL(
      googleCalendarUrl({
        title: 'はじめての将棋',
        startedAt: '2026-12-05T10:00:00.000Z',
        endedAt: '2026-12-05T11:00:00.000Z',
        details: '参加ページ: https://manabi.example/class_attendance',
      }),
    )
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render')
    expect(url.searchParams.get('action')).toBe('TEMPLATE')
    expect(url.searchParams.get('text')).toBe('はじめての将棋')
    expect(url.searchParams.get('dates')).toBe('20261205T100000Z/20261205T110000Z')
    expect(url.searchParams.get('ctz')).toBe('Asia/Tokyo')
  })
})
