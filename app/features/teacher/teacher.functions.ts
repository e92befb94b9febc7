import { createServerFn } from '@tanstack/react-start'
import type { ToggleResult } from '~/components/shell/optimistic-toggle'
import type { FollowState } from '~/contract/v1/follows'
import { toClassCardView } from '~/lib/card-view'
import { idInput, idPageInput, toggleInput } from '~/lib/ids'
import { ApiError, api } from '~/server/api-client'
import { setPageStatus, setRefusalStatus } from '~/server/server-fn-errors.server'
import { currentAccessToken } from '~/server/session-token.server'

/**
 * A teacher's public page and one page of their public classes (TEACHER_CLASSES_PER_PAGE, newest first, as the
 * cards show them), or null when there is no such teacher (404), or `{ gone }` when the account is suspended (410).
 */
export const getTeacherPage = createServerFn({ method: 'GET' })
  .validator(idPageInput)
  .handler(async ({ data }) => {
    try {
      const [profile, classes] = await Promise.all([
        api.getTeacher(data.id),
        api.listTeacherClassWorks(data.id, data.page),
      ])
      return profile ? { profile, classes: (classes ?? []).map(toClassCardView) } : null
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 410)) throw error
      setPageStatus(410)
      return { gone: error.message }
    }
  })

/**
 * Whether the signed-in member follows this teacher. Apart from the public page on purpose (see
 * getFavoriteState in the class detail): the page stays the same for everyone. Null for visitors.
 */
export const getFollowState = createServerFn({ method: 'GET' })
  .validator(idInput)
  .handler(async ({ data }): Promise<FollowState | null> => {
    const token = await currentAccessToken()
    if (!token) return null
    try {
      return await api.getFollowState(token, data)
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return null
      throw error
    }
  })

/** Follows or unfollows the teacher (idempotent on the API; following oneself is refused with 422). */
export const setFollow = createServerFn({ method: 'POST' })
  .validator(toggleInput)
  .handler(async ({ data }): Promise<ToggleResult<FollowState>> => {
    const token = await currentAccessToken()
    if (!token) {
      setRefusalStatus(401)
      return { ok: false, status: 401, message: 'ログインしてください' }
    }
    try {
      const state = data.on
        ? await api.followTeacher(token, data.id)
        : await api.unfollowTeacher(token, data.id)
      return { ok: true, state }
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        setRefusalStatus(error.status)
        return { ok: false, status: error.status, message: error.message }
      }
      throw error
    }
  })
