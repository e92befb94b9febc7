import { createRoute } from '@hono/zod-openapi'
import { ClassAnnouncementList } from '../../contract/v1/announcements'
import { IdParams } from '../../contract/v1/common'
import {
  CreateRoomBody,
  DestinationList,
  DestinationQuery,
  Message,
  MessageList,
  Room,
  RoomList,
  RoomListQuery,
  RoomMessagesQuery,
  RoomReadResult,
  SendMessageBody,
  UnreadMessageCount,
} from '../../contract/v1/rooms'
import { requireUser } from '../auth'
import { ApiError } from '../errors'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { myClassAnnouncements } from '../services/announcements'
import {
  destinations,
  listRooms,
  markRoomRead,
  openRoom,
  roomMessages,
  sendMessage,
  unreadMessageCount,
} from '../services/rooms'

export function registerMessageRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)

  /**
   * A send counted against the member's message limit; one refused (a room that is not theirs, a partner who was
   * suspended: 4xx) delivered nothing and is given back, so retrying into a closed room cannot lock a parent out
   * of every other room for the rest of the minute.
   */
  async function sentWithinLimit<T>(userId: number, send: () => Promise<T>): Promise<T> {
    const key = String(userId)
    await deps.rateLimit('messagesPerMember', key)
    try {
      return await send()
    } catch (err) {
      if (err instanceof ApiError && err.status < 500)
        await deps.giveBack('messagesPerMember', key).catch(() => {})
      throw err
    }
  }

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
      summary:
        'メッセージルームの一覧（未読数つき、新しい順に最大200件）。room_id・partner_id を指定すると、そのルームだけ（なければ空の一覧）',
      security: bearer,
      middleware: [member] as const,
      request: { query: RoomListQuery },
      responses: { 200: json(RoomList, 'ルーム'), ...errors(400, 401, 404, 503) },
    }),
    async (c) => {
      const { room_id, partner_id } = c.req.valid('query')
      const filter = { roomId: room_id, partnerId: partner_id }
      return c.json(await listRooms(await deps.getDb(), c.var.user.id, filter), 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/rooms/unread_count',
      tags: ['messages'],
      summary: 'すべてのルームの未読メッセージ数（ヘッダーの件数）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(UnreadMessageCount, '未読数'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json({ count: await unreadMessageCount(await deps.getDb(), c.var.user.id) }, 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/rooms/{id}/messages',
      tags: ['messages'],
      summary: 'ルームのメッセージ（新しい200件を古い順に。before: そのメッセージより前の200件）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams, query: RoomMessagesQuery },
      responses: { 200: json(MessageList, 'メッセージ'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(
        await roomMessages(
          await deps.getDb(),
          c.var.user.id,
          c.req.valid('param').id,
          c.req.valid('query').before,
        ),
        200,
      ),
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
    async (c) => {
      const query = c.req.valid('query')
      return c.json(
        await destinations(await deps.getDb(), c.var.user.id, query.candidate, query.partner_id, query.q),
        200,
      )
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/rooms',
      tags: ['messages'],
      summary:
        'ルームを開く（送信先の相手のみ。既存のルームがあればそれを 200 で返す）。body を添えると最初のメッセージと一緒に作る',
      security: bearer,
      middleware: [member] as const,
      request: { body: { content: { 'application/json': { schema: CreateRoomBody } }, required: true } },
      responses: {
        200: json(Room, '既存のルーム'),
        201: json(Room, '新しいルーム'),
        ...errors(400, 401, 404, 413, 429, 503),
      },
    }),
    async (c) => {
      const { partner_id, body } = c.req.valid('json')
      const db = await deps.getDb()
      const open = () => openRoom(db, c.var.user, partner_id, deps.now(), body)
      // With a first message, the message limit applies as to any other.
      const { room, created } = body === undefined ? await open() : await sentWithinLimit(c.var.user.id, open)
      return created ? c.json(room, 201) : c.json(room, 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/rooms/{id}/messages',
      tags: ['messages'],
      summary: 'メッセージを送る（連絡先らしき内容は contains_contact_info としてサーバーで判定・記録）',
      security: bearer,
      middleware: [member] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: SendMessageBody } }, required: true },
      },
      responses: { 201: json(Message, '送ったメッセージ'), ...errors(400, 401, 404, 410, 413, 429, 503) },
    }),
    async (c) => {
      const db = await deps.getDb()
      const { id } = c.req.valid('param')
      const { body } = c.req.valid('json')
      return c.json(
        await sentWithinLimit(c.var.user.id, () => sendMessage(db, c.var.user.id, id, body, deps.now())),
        201,
      )
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/rooms/{id}/read',
      tags: ['messages'],
      summary: 'ルームのメッセージをすべて既読にする',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(RoomReadResult, '既読'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(await markRoomRead(await deps.getDb(), c.var.user.id, c.req.valid('param').id, deps.now()), 200),
  )
}
