import { queryOptions } from '@tanstack/react-query'
import { findRoom, getMessagePartner, getRoomMessages, getRooms } from './messages.functions'
import type { RoomLookup } from './room-lookup'

/** How often an open room (and the room list) looks for new messages. */
export const MESSAGE_POLL_MS = 5_000

export const roomsQuery = () =>
  queryOptions({ queryKey: ['rooms'], queryFn: () => getRooms(), refetchInterval: 30_000 })

export const roomMessagesQuery = (roomId: number) =>
  queryOptions({
    queryKey: ['rooms', roomId, 'messages'],
    queryFn: () => getRoomMessages({ data: roomId }),
    refetchInterval: MESSAGE_POLL_MS,
  })

/** The person a new conversation (`/message?to=`) would be with; null when they cannot be written to. */
export const messagePartnerQuery = (userId: number) =>
  queryOptions({ queryKey: ['rooms', 'partner', userId], queryFn: () => getMessagePartner({ data: userId }) })

/** A room outside the newest ones the list holds, by id or by partner (null when the member has none such). */
export const roomLookupQuery = (which: RoomLookup) =>
  queryOptions({
    queryKey: ['rooms', 'lookup', which],
    queryFn: () => findRoom({ data: which }),
    refetchInterval: 30_000,
  })
