import { z } from 'zod'
import { DateTime, Id, PersonRef } from './common'

export const RoomPartner = PersonRef.extend({ is_teacher: z.boolean() })

export const Room = z.object({
  id: Id,
  partner: RoomPartner,
  last_message: z.object({ id: Id, sender_id: Id, body: z.string(), created_at: DateTime }).nullable(),
  /** Messages from the partner after the caller last read the room. */
  unread_count: z.number().int().nonnegative(),
  updated_at: DateTime,
})
export type Room = z.infer<typeof Room>
export const RoomList = z.array(Room)

export const Message = z.object({
  id: Id,
  room_id: Id,
  sender_id: Id,
  body: z.string(),
  created_at: DateTime,
  is_mine: z.boolean(),
})
export type Message = z.infer<typeof Message>
export const MessageList = z.array(Message)

export const destinationCandidates = ['teachers', 'students'] as const
export const DestinationQuery = z.object({ candidate: z.enum(destinationCandidates) })

/** Someone the caller may start (or continue) a room with. */
export const Destination = RoomPartner.extend({ room_id: Id.nullable() })
export type Destination = z.infer<typeof Destination>
export const DestinationList = z.array(Destination)
