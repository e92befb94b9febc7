import { describe, expect, it } from 'vitest'
import type { Room } from '~/contract/v1/rooms'
import { roomLookupFor } from './room-lookup'

const room = (id: number, partnerId: number): Room => ({
  id,
  partner: { id: partnerId, nickname: 'はなこ', avatar_url: null, is_teacher: false },
  last_message: null,
  unread_count: 0,
  can_send: true,
  updated_at: '2026-12-01T00:00:00.000Z',
})

describe('roomLookupFor', () => {
  const listed = [room(1, 10), room(2, 20)]

  it('nothing to look up for a room the list holds, or when no room is asked for', () => {
    expect(roomLookupFor(listed, 2, undefined)).toBeUndefined()
    expect(roomLookupFor(listed, undefined, 10)).toBeUndefined()
    expect(roomLookupFor(listed, undefined, undefined)).toBeUndefined()
  })

  it('a room outside the list is looked up by id, or by partner for `to`', () => {
    expect(roomLookupFor(listed, 3, undefined)).toEqual({ roomId: 3 })
    expect(roomLookupFor(listed, undefined, 30)).toEqual({ partnerId: 30 })
    // `room` wins over `to`, as the page reads them.
    expect(roomLookupFor(listed, 3, 10)).toEqual({ roomId: 3 })
  })
})
