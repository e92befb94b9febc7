import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import { type RoomPartner, SendMessageBody } from '~/contract/v1/rooms'
import { containsContactInfo } from '~/lib/contact-detector'
import { idInput } from '~/lib/ids'
import { STUDENT_LIMIT } from '~/lib/page-sizes'
import { memberActionResult } from '~/server/action-result.server'
import { ApiError, api, meOf } from '~/server/api-client'
import { requireAccessToken } from '~/server/session-token.server'
import { messagePartner } from './partner.server'

/** The member's rooms and whom they may start a room with (teachers; for teachers also their students). */
export const getRooms = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await requireAccessToken()
  const me = meOf(await api.getMe(token))
  const [rooms, teachers, students] = await Promise.all([
    api.listRooms(token),
    api.listDestinations(token, 'teachers'),
    me?.is_teacher ? api.listDestinations(token, 'students') : Promise.resolve([]),
  ])
  // A destination whose room is listed is reached there; one whose room is not (empty, or only a held message,
  // rooms.ts) stays a destination, so that nobody drops out of both lists.
  const listed = new Set(rooms.map((r) => r.id))
  const seen = new Set<number>()
  const destinations = [...teachers, ...students].filter((d) => {
    if ((d.room_id !== null && listed.has(d.room_id)) || seen.has(d.id)) return false
    seen.add(d.id)
    return true
  })
  // The API lists a teacher's most recent students only (STUDENT_LIMIT): the others are found by nickname
  // (searchStudents) or from their class's list of students.
  return {
    rooms,
    destinations,
    moreStudents: students.length >= STUDENT_LIMIT,
    studentSearch: students.length > 0,
  }
})

/**
 * The member's room by id (`/message?room=`) or with a person (`?to=`), wherever it stands in their list: the list
 * holds the newest rooms only, and a popular teacher's older conversation must still open. Null when none.
 */
export const findRoom = createServerFn({ method: 'GET' })
  .validator(
    z
      .object({
        roomId: z.number().int().positive().optional(),
        partnerId: z.number().int().positive().optional(),
      })
      .strict()
      .refine((v) => (v.roomId === undefined) !== (v.partnerId === undefined)),
  )
  .handler(async ({ data }) => (await api.findRoom(await requireAccessToken(), data)) ?? null)

/** A teacher's students whose nickname contains `q` (all of them, not only the most recent; at most 50). */
export const searchStudents = createServerFn({ method: 'GET' })
  .validator(z.object({ q: z.string().trim().min(1).max(50) }).strict())
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    return api.listDestinations(token, 'students', undefined, data.q)
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

/** The page of a room's messages just older than `before` (oldest first); null when the room is not the caller's. */
export const getOlderRoomMessages = createServerFn({ method: 'GET' })
  .validator(z.object({ room_id: z.number().int().positive(), before: z.number().int().positive() }))
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    try {
      return await api.listRoomMessages(token, data.room_id, data.before)
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    }
  })

export const sendRoomMessage = createServerFn({ method: 'POST' })
  .validator(SendMessageBody.extend({ room_id: z.number().int().positive() }))
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.sendMessage(token, data.room_id, data.body))
  })

/**
 * Starts the conversation with a destination: the room and its first message together (POST /v1/rooms with a
 * body), so that opening a new conversation and leaving it creates nothing. `held` is the API's judgement, as a
 * send's answer carries it: a room that existed already may hold this message as the rest of contact details
 * begun in an earlier one, which the body alone does not show.
 */
export const startRoom = createServerFn({ method: 'POST' })
  .validator(SendMessageBody.extend({ partner_id: z.number().int().positive() }))
  .handler(async ({ data }) => {
    return memberActionResult(async (token) => {
      const room = await api.openRoom(token, data.partner_id, data.body)
      // This message, not one another tab sent at the same moment; read back failing, or not found, the body's own
      // check says what the notice says (it was sent all the same).
      const held = await api
        .listRoomMessages(token, room.id)
        .then((page) => page.filter((m) => m.is_mine && m.body === data.body).at(-1)?.status)
        .then((status) => (status === undefined ? containsContactInfo(data.body) : status === 'held'))
        .catch(() => containsContactInfo(data.body))
      return { roomId: room.id, held }
    })
  })

/** Whom a new conversation (`/message?to=`) would be with (partner.server.ts). */
export const getMessagePartner = createServerFn({ method: 'GET' })
  .validator(idInput)
  .handler(async ({ data }): Promise<RoomPartner | null> => messagePartner(await requireAccessToken(), data))

export const markRoomRead = createServerFn({ method: 'POST' })
  .validator(idInput)
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.markRoomRead(token, data))
  })
