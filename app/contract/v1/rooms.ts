import { z } from 'zod'
import { DateTime, Id, IdString, PersonRef, paragraph } from './common'

export const RoomPartner = PersonRef.extend({ is_teacher: z.boolean() })
export type RoomPartner = z.infer<typeof RoomPartner>

export const Room = z.object({
  id: Id,
  partner: RoomPartner,
  last_message: z.object({ id: Id, sender_id: Id, body: z.string(), created_at: DateTime }).nullable(),
  /** Messages from the partner after the caller last read the room. */
  unread_count: z.number().int().nonnegative(),
  updated_at: DateTime,
  /** False while the partner's account is suspended: a message to them is refused (410), so none is offered. */
  can_send: z.boolean(),
})
export type Room = z.infer<typeof Room>
export const RoomList = z.array(Room)

/**
 * GET /v1/rooms: the most recent rooms; with `room_id` and/or `partner_id`, only that room wherever it stands (an
 * empty list when the caller has none such), so a conversation older than the newest ones can still be opened.
 */
export const RoomListQuery = z.object({ room_id: IdString.optional(), partner_id: IdString.optional() })

/** GET /v1/rooms/unread_count: unread messages from partners over all of the caller's rooms. */
export const UnreadMessageCount = z.object({ count: z.number().int().nonnegative() })

export const Message = z.object({
  id: Id,
  room_id: Id,
  sender_id: Id,
  body: z.string(),
  created_at: DateTime,
  is_mine: z.boolean(),
  /** Computed by the API when the message was sent (app/lib/contact-detector.ts). */
  contains_contact_info: z.boolean(),
  /**
   * visible; or, only ever shown to its sender: held (確認中 — it contained contact details and waits for an
   * operator) or deleted (an operator removed it).
   */
  status: z.enum(['visible', 'held', 'deleted']),
})
export type Message = z.infer<typeof Message>
export const MessageList = z.array(Message)

/** GET /v1/rooms/{id}/messages: `before` (a message's id) pages back through the history. */
export const RoomMessagesQuery = z.object({ before: IdString.optional() })

export const destinationCandidates = ['teachers', 'students'] as const
/** `partner_id`: only that person, when they are a destination (an empty list when not). */
export const DestinationQuery = z.object({
  candidate: z.enum(destinationCandidates),
  partner_id: IdString.optional(),
  /**
   * Only those whose nickname contains this (case-insensitive), at most 50, searched among everyone the caller may
   * write to (a teacher's students beyond the 300 most recent too).
   */
  q: z.string().trim().min(1).max(50).optional(),
})

/** Someone the caller may start (or continue) a room with. */
export const Destination = RoomPartner.extend({ room_id: Id.nullable() })
export type Destination = z.infer<typeof Destination>
export const DestinationList = z.array(Destination)

/** POST /v1/rooms: open (or find) the room with someone from GET /v1/destinations. */
const messageText = paragraph(2000).refine((v) => v.trim().length > 0, 'メッセージを入力してください')

/**
 * POST /v1/rooms. With `body`, the room is opened together with its first message (one transaction): the app
 * opens a conversation only when something is sent, so no one is listed an empty room.
 */
export const CreateRoomBody = z.object({ partner_id: Id, body: messageText.optional() }).strict()
export type CreateRoomBody = z.input<typeof CreateRoomBody>

/** POST /v1/rooms/{id}/messages */
export const SendMessageBody = z.object({ body: messageText }).strict()
export type SendMessageBody = z.input<typeof SendMessageBody>

/** POST /v1/rooms/{id}/read */
export const RoomReadResult = z.object({ room_id: Id, unread_count: z.number().int().nonnegative() })
