import '@tanstack/react-start/server-only'
import type { RoomPartner } from '~/contract/v1/rooms'
import { ApiError, api, meOf } from '~/server/api-client'

/**
 * Whom a new conversation (`/message?to=`) would be with: one of the member's destinations, or a teacher with a
 * published class (「先生に質問する」); null for anyone else (the API would refuse the room too).
 */
export async function messagePartner(token: string, id: number): Promise<RoomPartner | null> {
  const me = meOf(await api.getMe(token))
  // Asked for this person only: a teacher's students can be thousands.
  const [teachers, students] = await Promise.all([
    api.listDestinations(token, 'teachers', id),
    me?.is_teacher ? api.listDestinations(token, 'students', id) : Promise.resolve([]),
  ])
  const known = [...teachers, ...students].find((d) => d.id === id)
  if (known)
    return {
      id: known.id,
      nickname: known.nickname,
      avatar_url: known.avatar_url,
      is_teacher: known.is_teacher,
    }
  if (me?.id === id) return null
  // A suspended teacher's page answers 410: nobody to write to, as for anyone without a public class (not an
  // error page for a link from an old tab).
  const teacher = await api.getTeacher(id).catch((error) => {
    if (error instanceof ApiError && error.status === 410) return null
    throw error
  })
  if (!teacher || teacher.class_work_count === 0) return null
  return { id: teacher.id, nickname: teacher.nickname, avatar_url: teacher.avatar_url, is_teacher: true }
}
