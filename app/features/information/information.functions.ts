import { createServerFn } from '@tanstack/react-start'
import { type InformationKind, informationKey, parseInformationKey } from '~/lib/information-key'
import { InvalidInputError } from '~/lib/input-error'
import { memberActionResult } from '~/server/action-result.server'
import { ApiError, api } from '~/server/api-client'
import { sanitizeArticleHtml } from '~/server/sanitize-article.server'
import { requireAccessToken } from '~/server/session-token.server'

export type InformationItem = {
  key: string
  kind: InformationKind
  id: number
  title: string
  body: string
  /** An operator notice written in Markdown, as sanitised HTML (detail only); null: `body` is plain text. */
  body_html: string | null
  at: string
  is_read: boolean
  class_work: { id: number; title: string } | null
}

function keyInput(value: unknown): string {
  const parsed = parseInformationKey(value)
  if (!parsed) throw new InvalidInputError('お知らせのIDが正しくありません')
  return informationKey(parsed.kind, parsed.id)
}

/** Operator notices and the announcements of reserved classes, unread first, then newest first. */
export const getInformation = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await requireAccessToken()
  const [notices, announcements] = await Promise.all([
    api.listNotices(token),
    api.listClassAnnouncements(token),
  ])
  const items: InformationItem[] = [
    ...notices.map((n) => ({
      key: informationKey('notice', n.id),
      kind: 'notice' as const,
      id: n.id,
      title: n.title,
      body: n.body,
      body_html: null,
      at: n.published_at,
      is_read: n.is_read,
      class_work: null,
    })),
    ...announcements.map((a) => ({
      key: informationKey('class', a.id),
      kind: 'class' as const,
      id: a.id,
      title: a.title,
      body: a.body,
      body_html: null,
      at: a.created_at,
      is_read: a.is_read,
      class_work: { id: a.class_work_id, title: a.class_work_title },
    })),
  ]
  items.sort((a, b) => Number(a.is_read) - Number(b.is_read) || b.at.localeCompare(a.at))
  return items
})

/** One notice or class announcement; null when it does not exist for this member (the page is a 404). */
export const getInformationItem = createServerFn({ method: 'GET' })
  .validator(keyInput)
  .handler(async ({ data }): Promise<InformationItem | null> => {
    const token = await requireAccessToken()
    const { kind, id } = parseInformationKey(data)!
    try {
      if (kind === 'notice') {
        const n = await api.getNotice(token, id)
        return {
          key: data,
          kind,
          id,
          title: n.title,
          body: n.body,
          // Sanitised when written; again here, right before it is rendered (defence in depth).
          body_html: n.body_html ? sanitizeArticleHtml(n.body_html) : null,
          at: n.published_at,
          is_read: n.is_read,
          class_work: null,
        }
      }
      const a = await api.getClassAnnouncement(token, id)
      return {
        key: data,
        kind,
        id,
        title: a.title,
        body: a.body,
        body_html: null,
        at: a.created_at,
        is_read: a.is_read,
        class_work: { id: a.class_work_id, title: a.class_work_title },
      }
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null
      throw error
    }
  })

/** Marks one read (POST /v1/notices/{id}/read or /v1/class_announcements/{id}/read). */
export const markInformationRead = createServerFn({ method: 'POST' })
  .validator(keyInput)
  .handler(async ({ data }) => {
    const { kind, id } = parseInformationKey(data)!
    return memberActionResult((token) =>
      kind === 'notice' ? api.markNoticeRead(token, id) : api.markClassAnnouncementRead(token, id),
    )
  })
