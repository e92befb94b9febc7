import { createFileRoute } from '@tanstack/react-router'
import { api } from '~/server/api-client'
import { lessonsCalendar } from '~/server/calendar.server'
import { getConfig } from '~/server/config'
import { signedInFile } from '~/server/signed-in-file.server'
import { appConfig } from '../../../app.config'

/** GET /downloads/lesson/{purchaseId} — one upcoming reservation of the signed-in member as an .ics file. */
export const Route = createFileRoute('/downloads/lesson/$id')({
  server: {
    handlers: {
      GET: ({ request, params }) =>
        signedInFile(request, 'lesson-ics', async ({ accessToken, headers, text }) => {
          const id = /^[1-9]\d{0,8}$/.test(params.id) ? Number(params.id) : undefined
          const upcoming = await api.listPurchases(accessToken, 'upcoming')
          const p = upcoming.find((x) => x.id === id && x.status === 'reserved' && !x.schedule.is_canceled)
          if (!p) return text(404, '予約が見つかりませんでした')
          const body = lessonsCalendar({
            name: appConfig.siteName,
            siteOrigin: getConfig().siteOrigin,
            // Every lesson of the reservation: one, or N for a course run (全N回).
            lessons: p.schedule.lessons.map((l, i) => ({
              purchase_id: p.id,
              class_work_id: p.class_work.id,
              class_title: p.class_work.title,
              teacher_nickname: p.teacher.nickname,
              attendee:
                p.attendee.kind === 'member' ? `${p.attendee.nickname}（ご本人）` : p.attendee.nickname,
              started_at: l.started_at,
              ended_at: l.ended_at,
              lesson_number: i + 1,
              lesson_count: p.schedule.lessons.length,
              status: 'confirmed' as const,
              // The later of booking and the last move (moved before it was booked: the booking).
              updated_at:
                p.schedule.moved_at && p.schedule.moved_at > p.created_at
                  ? p.schedule.moved_at
                  : p.created_at,
              sequence: p.schedule.revision,
            })),
          })
          headers.set('Content-Type', 'text/calendar; charset=utf-8')
          headers.set('Content-Disposition', `attachment; filename="lesson-${p.id}.ics"`)
          return new Response(body, { status: 200, headers })
        }),
    },
  },
})
