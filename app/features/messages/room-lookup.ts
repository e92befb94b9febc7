import type { Room } from '~/contract/v1/rooms'

export type RoomLookup = { roomId: number } | { partnerId: number }

/**
 * What `/message?room=` or `?to=` asks for that the room list does not hold (it holds the newest rooms only): the
 * room to look up by itself, if any.
 */
export function roomLookupFor(
  rooms: Room[],
  roomId: number | undefined,
  to: number | undefined,
): RoomLookup | undefined {
  if (roomId !== undefined) return rooms.some((r) => r.id === roomId) ? undefined : { roomId }
  if (to !== undefined) return rooms.some((r) => r.partner.id === to) ? undefined : { partnerId: to }
  return undefined
}
