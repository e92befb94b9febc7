import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import type { CalendarLesson } from '~/contract/v1/calendar'
import { lessonsCalendar } from './calendar.server'

const lesson = (over: Partial<CalendarLesson> = {}): CalendarLesson => ({
  purchase_id: 7,
  class_work_id: 3,
  class_title: 'はじめての将棋, 入門; 初級',
  teacher_nickname: 'けんた先生',
  attendee: 'たろう',
  started_at: '2026-12-05T10:00:00.000Z',
  ended_at: '2026-12-05T11:00:00.000Z',
  lesson_number: 1,
  lesson_count: 1,
  status: 'confirmed',
  updated_at: '2026-11-20T00:00:00.000Z',
  sequence: 0,
  ...over,
})

/** Parsed back with ical.js: what a calendar app would read. */
function parse(text: string) {
  const component = new ICAL.Component(ICAL.parse(text))
  const zone = component.getFirstSubcomponent('vtimezone')
  if (zone) ICAL.TimezoneService.register(new ICAL.Timezone(zone))
  return component.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v))
}

describe('lessonsCalendar', () => {
  it('writes each lesson of a course run (全N回) as its own event, numbered', () => {
    const text = lessonsCalendar({
      name: 'まなびのたね',
      siteOrigin: 'https://manabi.example',
      lessons: [1, 2, 3].map((n) =>
        lesson({
          lesson_number: n,
          lesson_count: 3,
          started_at: `2026-12-${String(n * 7).padStart(2, '0')}T10:00:00.000Z`,
          ended_at: `2026-12-${String(n * 7).padStart(2, '0')}T11:00:00.000Z`,
        }),
      ),
    })
    const events = parse(text)
    expect(events.map((e) => e.uid)).toEqual([
      'lesson-7-1@manabi.example',
      'lesson-7-2@manabi.example',
      'lesson-7-3@manabi.example',
    ])
    expect(events.map((e) => e.summary)).toEqual([
      'はじめての将棋, 入門; 初級（第1回／全3回）',
      'はじめての将棋, 入門; 初級（第2回／全3回）',
      'はじめての将棋, 入門; 初級（第3回／全3回）',
    ])
    expect(events.map((e) => e.startDate.toJSDate().toISOString())).toEqual([
      '2026-12-07T10:00:00.000Z',
      '2026-12-14T10:00:00.000Z',
      '2026-12-21T10:00:00.000Z',
    ])
  })

  it('writes each lesson in Asia/Tokyo, with the class, teacher, attendee and the join page', () => {
    const text = lessonsCalendar({
      name: 'まなびのたね',
      siteOrigin: 'https://manabi.example',
      lessons: [lesson()],
    })
    expect(text).toContain('TZID:Asia/Tokyo')
    expect(text).toContain('DTSTART;TZID=Asia/Tokyo:20261205T190000')
    const [event] = parse(text)
    expect(event!.summary).toBe('はじめての将棋, 入門; 初級')
    expect(event!.uid).toBe('lesson-7@manabi.example')
    expect(event!.startDate.toJSDate().toISOString()).toBe('2026-12-05T10:00:00.000Z')
    expect(event!.endDate.toJSDate().toISOString()).toBe('2026-12-05T11:00:00.000Z')
    expect(event!.description).toContain('先生：けんた先生')
    expect(event!.description).toContain('受講する人：たろう')
    expect(event!.description).toContain('https://manabi.example/class_attendance')
    expect(event!.component.getFirstPropertyValue('status')).toBe('CONFIRMED')
  })

  it('keeps a cancelled lesson as CANCELLED with the higher sequence the feed gives, so calendars remove it', () => {
    const [event] = parse(
      lessonsCalendar({
        name: 'x',
        siteOrigin: 'https://manabi.example',
        lessons: [lesson({ status: 'cancelled', updated_at: '2026-11-22T00:00:00.000Z', sequence: 2 })],
      }),
    )
    expect(event!.component.getFirstPropertyValue('status')).toBe('CANCELLED')
    expect(event!.sequence).toBe(2)
    expect(event!.component.getFirstPropertyValue('dtstamp')?.toString()).toBe('2026-11-22T00:00:00Z')
    expect(event!.summary).toBe('【中止】はじめての将棋, 入門; 初級')
  })

  it('stamps each event in UTC, whatever the server zone, and escapes the calendar name', () => {
    const text = lessonsCalendar({
      name: 'a,b;c\\d のレッスン',
      siteOrigin: 'https://manabi.example',
      lessons: [lesson()],
    })
    // RFC 5545 §3.8.7.2: DTSTAMP is UTC. A floating stamp is read in the reader's own zone.
    expect(text).toMatch(/^DTSTAMP:20261120T000000Z\r$/m)
    const [event] = parse(text)
    const stamp = event!.component.getFirstPropertyValue('dtstamp') as ICAL.Time
    expect(stamp.toJSDate().toISOString()).toBe('2026-11-20T00:00:00.000Z')
    // TEXT escaping (RFC 5545 §3.3.11); ical.js leaves these two properties' values as written.
    expect(text).toContain('\r\nNAME:a\\,b\\;c\\\\d のレッスン\r\n')
    expect(text).toContain('X-WR-CALNAME:a\\,b\\;c\\\\d のレッスン\r\n')
    // Calendar properties before the events (RFC 5545 §3.4): nothing is written after the last one.
    expect(text.slice(text.lastIndexOf('END:VEVENT'))).toBe('END:VEVENT\r\nEND:VCALENDAR')
  })

  it('is a valid empty calendar without lessons', () => {
    expect(parse(lessonsCalendar({ name: 'x', siteOrigin: 'https://manabi.example', lessons: [] }))).toEqual(
      [],
    )
  })
})
