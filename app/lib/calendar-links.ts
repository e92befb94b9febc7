/** 「カレンダーに追加」 links (issue 16), pure so that the page can build them. */

const compactUtc = (iso: string) =>
  new Date(iso)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')

/** Google Calendar's "add event" page for one lesson (opened by the member's browser; we fetch nothing). */
export function googleCalendarUrl(lesson: {
  title: string
  startedAt: string
  endedAt: string
  details: string
}): string {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: lesson.title,
    dates: `${compactUtc(lesson.startedAt)}/${compactUtc(lesson.endedAt)}`,
    details: lesson.details,
    ctz: 'Asia/Tokyo',
  })
  return `https://calendar.google.com/calendar/render?${params}`
}
