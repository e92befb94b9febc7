import { queryOptions } from '@tanstack/react-query'
import { getMessagePartner, getRoomMessages, getRooms } from './messages.functions'

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
