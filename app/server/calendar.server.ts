import '@tanstack/react-start/server-only'
import { ICalCalendar, ICalEventStatus } from 'ical-generator'
import type { CalendarLesson } from '~/contract/v1/calendar'

/**
 * iCalendar for lessons (issue 16): one lesson as a download, or the member's whole feed. Times are written in
 * Asia/Tokyo with its VTIMEZONE (no daylight saving: one STANDARD block), so every calendar shows the times the
 * site shows. A cancelled lesson is kept as STATUS:CANCELLED with a higher SEQUENCE, so subscribed calendars
 * drop it instead of keeping a stale entry.
 */

const TOKYO_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Asia/Tokyo',
  'X-LIC-LOCATION:Asia/Tokyo',
  'BEGIN:STANDARD',
  'DTSTART:19700101T000000',
  'TZOFFSETFROM:+0900',
  'TZOFFSETTO:+0900',
  'TZNAME:JST',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n')

/**
 * Tokyo wall time of an instant, as ical-generator takes it with a TZID: a plain Date would be written in the
 * server's own zone under the Tokyo name.
 */
const tokyoWallTime = (iso: string) =>
  new Date(new Date(iso).getTime() + 9 * 3600_000).toISOString().slice(0, 19)

/** RFC 5545 TEXT escaping (§3.3.11), for the values ical-generator writes without it. */
const escapeText = (text: string) => text.replace(/([\\;,])/g, '\\$1').replace(/\r?\n/g, '\\n')

export function lessonsCalendar(input: {
  name: string
  siteOrigin: string
  lessons: CalendarLesson[]
}): string {
  const host = new URL(input.siteOrigin).hostname || 'manabi.example'
  const calendar = new ICalCalendar({
    // ical-generator writes the calendar's name as it is given; a nickname may hold TEXT's special characters.
    name: escapeText(input.name),
    prodId: { company: 'manabi', product: 'lessons', language: 'JA' },
    // No calendar-wide zone name: with one, ical-generator writes DTSTAMP as a floating local time (RFC 5545 wants
    // UTC). Every event names its zone (TZID), which brings in the VTIMEZONE; no time here is floating.
    timezone: { name: null, generator: (tz) => (tz === 'Asia/Tokyo' ? TOKYO_VTIMEZONE : null) },
    ttl: 60 * 30,
  })
  const attendanceUrl = `${input.siteOrigin}/class_attendance`
  for (const l of input.lessons) {
    const cancelled = l.status === 'cancelled'
    const course = l.lesson_count > 1
    calendar.createEvent({
      // A single lesson keeps the id it always had; each lesson of a course run (全N回) has its own.
      id: course ? `lesson-${l.purchase_id}-${l.lesson_number}@${host}` : `lesson-${l.purchase_id}@${host}`,
      start: tokyoWallTime(l.started_at),
      end: tokyoWallTime(l.ended_at),
      timezone: 'Asia/Tokyo',
      stamp: new Date(l.updated_at),
      summary: `${cancelled ? '【中止】' : ''}${l.class_title}${course ? `（第${l.lesson_number}回／全${l.lesson_count}回）` : ''}`,
      description: [
        `先生：${l.teacher_nickname}`,
        `受講する人：${l.attendee}`,
        cancelled
          ? 'この予約はキャンセルされました。'
          : `授業の15分前から、参加ページにリンクが表示されます：${attendanceUrl}`,
        `クラスのページ：${input.siteOrigin}/class_search/detail/${l.class_work_id}`,
      ].join('\n'),
      location: cancelled ? undefined : { title: 'オンライン（まなびのたね）' },
      url: attendanceUrl,
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      sequence: l.sequence,
    })
  }
  return calendar.toString()
}
