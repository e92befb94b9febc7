import { createRoute } from '@hono/zod-openapi'
import { ClassAnnouncementList } from '../../contract/v1/announcements'
import { IdParams } from '../../contract/v1/common'
import { DestinationList, DestinationQuery, MessageList, RoomList } from '../../contract/v1/rooms'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { myClassAnnouncements } from '../services/announcements'
import { destinations, listRooms, roomMessages } from '../services/rooms'

export function registerMessageRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)

  app.openapi(
    createRoute({
      method: 'get',
      path: '/class_announcements',
      tags: ['messages'],
      summary: '予約したクラスからのお知らせ（既読状態つき）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(ClassAnnouncementList, 'クラスのお知らせ'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await myClassAnnouncements(await deps.getDb(), c.var.user.id), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/rooms',
      tags: ['messages'],
      summary: 'メッセージルームの一覧（未読数つき）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(RoomList, 'ルーム'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await listRooms(await deps.getDb(), c.var.user.id), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/rooms/{id}/messages',
      tags: ['messages'],
      summary: 'ルームのメッセージ（新しい200件を古い順に）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(MessageList, 'メッセージ'), ...errors(400, 401, 404, 503) },
    }),
    async (c) => c.json(await roomMessages(await deps.getDb(), c.var.user.id, c.req.valid('param').id), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/destinations',
      tags: ['messages'],
      summary:
        'メッセージを送れる相手（teachers: 予約・フォローした先生 / students: 自分のクラスを予約した会員）',
      security: bearer,
      middleware: [member] as const,
      request: { query: DestinationQuery },
      responses: { 200: json(DestinationList, '送信先'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(await destinations(await deps.getDb(), c.var.user.id, c.req.valid('query').candidate), 200),
  )
}
