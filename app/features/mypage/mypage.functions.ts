import { createServerFn } from '@tanstack/react-start'
import { idInput } from '~/lib/ids'
import { informationKey } from '~/lib/information-key'
import { memberActionResult } from '~/server/action-result.server'
import { api } from '~/server/api-client'
import { getConfig } from '~/server/config'
import { requireAccessToken } from '~/server/session-token.server'

const NEXT_LESSONS = 3

/** My page: the member, their next lessons, unread notices and messages, learner profiles. */
export const getMyPage = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await requireAccessToken()
  const [me, upcoming, notices, announcements, rooms, unreadMessages, schoolTypes, targetGrades, waitlist] =
    await Promise.all([
      api.getDeepMe(token),
      api.listPurchases(token, 'upcoming'),
      api.listNotices(token),
      api.listClassAnnouncements(token),
      api.listRooms(token),
      api.unreadMessageCount(token),
      api.getMaster('school_types'),
      api.getMaster('target_grades'),
      api.listWaitlist(token),
    ])
  const nameOf = (list: { id: number; name: string }[] | undefined, id: number) =>
    list?.find((m) => m.id === id)?.name ?? ''
  return {
    me: {
      nickname: me.nickname,
      avatar_url: me.avatar_url,
      role: me.role,
      is_teacher: me.is_teacher,
      following_count: me.following_count,
      favorite_count: me.favorite_count,
      upcoming_reservation_count: me.upcoming_reservation_count,
    },
    learners: me.learners.map((l) => ({
      id: l.id,
      nickname: l.nickname,
      label: [nameOf(schoolTypes, l.school_type_id), nameOf(targetGrades, l.target_grade_id)]
        .filter(Boolean)
        .join('・'),
    })),
    nextLessons: upcoming
      .filter((p) => p.status === 'reserved' && !p.schedule.is_canceled)
      .slice(0, NEXT_LESSONS),
    unreadNotices: [
      ...notices
        .filter((n) => !n.is_read)
        .map((n) => ({ key: informationKey('notice', n.id), title: n.title, at: n.published_at })),
      ...announcements
        .filter((a) => !a.is_read)
        .map((a) => ({ key: informationKey('class', a.id), title: a.title, at: a.created_at })),
    ]
      .sort((a, b) => b.at.localeCompare(a.at))
      .slice(0, 5),
    unreadNoticeCount:
      notices.filter((n) => !n.is_read).length + announcements.filter((a) => !a.is_read).length,
    unreadRooms: rooms.filter((r) => r.unread_count > 0).slice(0, 5),
    // Over every room, as the header counts: the list above holds the newest rooms only.
    unreadMessageCount: unreadMessages.count,
    waitlist,
  }
})

const calendarUrl = (token: string) => `${getConfig().siteOrigin}/calendar/${token}.ics`

/** The address of the member's calendar feed (made on first use). */
export const getCalendarUrl = createServerFn({ method: 'GET' }).handler(async () => {
  const { token } = await api.getCalendarSubscription(await requireAccessToken())
  return { url: calendarUrl(token) }
})

/** A new address for the feed; the old one stops working. */
export const regenerateCalendarUrl = createServerFn({ method: 'POST' }).handler(async () => {
  return memberActionResult(async (token) => ({
    url: calendarUrl((await api.regenerateCalendar(token)).token),
  }))
})

/** Leaves one of the member's キャンセル待ち (a seat held for them goes to the next in line). */
export const leaveWaitlistEntry = createServerFn({ method: 'POST' })
  .validator(idInput)
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.leaveWaitlist(token, data))
  })
