import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import { SendMessageBody } from '~/contract/v1/rooms'
import { idInput } from '~/lib/ids'
import { toActionResult } from '~/server/action-result.server'
import { ApiError, api } from '~/server/api-client'
import { requireAccessToken } from '~/server/session-token.server'

/** The member's rooms and whom they may start a room with (teachers; for teachers also their students). */
export const getRooms = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await requireAccessToken()
  const me = await api.getMe(token)
  const [rooms, teachers, students] = await Promise.all([
    api.listRooms(token),
    api.listDestinations(token, 'teachers'),
    me.data?.is_teacher ? api.listDestinations(token, 'students') : Promise.resolve([]),
  ])
  const seen = new Set<number>()
  const destinations = [...teachers, ...students].filter((d) => {
    if (d.room_id !== null || seen.has(d.id)) return false
    seen.add(d.id)
    return true
  })
  return { rooms, destinations }
})

/** A room's messages (oldest first); null when the room is not the caller's. */
export const getRoomMessages = createServerFn({ method: 'GET' })
  .validator(idInput)
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    try {
      return await api.listRoomMessages(token, data)
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    }
  })

export const sendRoomMessage = createServerFn({ method: 'POST' })
  .validator(SendMessageBody.extend({ room_id: z.number().int().positive() }))
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    return toActionResult(() => api.sendMessage(token, data.room_id, data.body))
  })

/** Opens (or finds) the room with a destination (POST /v1/rooms). */
export const startRoom = createServerFn({ method: 'POST' })
  .validator(z.object({ partner_id: z.number().int().positive() }))
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    return toActionResult(() => api.openRoom(token, data.partner_id))
  })

export const markRoomRead = createServerFn({ method: 'POST' })
  .validator(idInput)
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    return toActionResult(() => api.markRoomRead(token, data))
  })
