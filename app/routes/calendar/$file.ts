import { createFileRoute } from '@tanstack/react-router'
import { CALENDAR_TOKEN } from '~/contract/v1/calendar'
import { api } from '~/server/api-client'
import { lessonsCalendar } from '~/server/calendar.server'
import { getConfig } from '~/server/config'
import { orUnavailable } from '~/server/unavailable.server'
import { appConfig } from '../../../app.config'

/**
 * GET /calendar/<secret>.ics — the member's lessons as an iCalendar feed for calendar apps (issue 16). The secret
 * is the only key: no cookie, since calendar apps fetch it on their own. Never cached by shared caches.
 */
export const Route = createFileRoute('/calendar/$file')({
  server: {
    handlers: {
      GET: async ({ params }) => {
        const token = params.file.endsWith('.ics') ? params.file.slice(0, -4) : ''
        const notFound = () =>
          new Response('カレンダーが見つかりません', {
            status: 404,
            headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
          })
        if (!CALENDAR_TOKEN.test(token)) return notFound()
        return orUnavailable('calendar', async () => {
          const feed = await api.getCalendarFeed(token)
          if (!feed) return notFound()
          const body = lessonsCalendar({
            name: `${appConfig.siteName}（${feed.owner}さんの授業）`,
            siteOrigin: getConfig().siteOrigin,
            lessons: feed.lessons,
          })
          return new Response(body, {
            headers: {
              'Content-Type': 'text/calendar; charset=utf-8',
              'Cache-Control': 'private, no-cache',
              'X-Content-Type-Options': 'nosniff',
              'Referrer-Policy': 'no-referrer',
            },
          })
        })
      },
    },
  },
})
