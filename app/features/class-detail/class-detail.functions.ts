import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import type { ToggleResult } from '~/components/shell/optimistic-toggle'
import { Id } from '~/contract/v1/common'
import type { FavoriteState } from '~/contract/v1/follows'
import { CreateClassRequestBody, type MyClassRequest } from '~/contract/v1/requests'
import { ReplyReviewBody } from '~/contract/v1/reviews'
import { idInput, toggleInput } from '~/lib/ids'
import { toActionResult } from '~/server/action-result.server'
import { ApiError, api } from '~/server/api-client'
import { setPageStatus, setRefusalStatus } from '~/server/server-fn-errors.server'
import { currentAccessToken } from '~/server/session-token.server'

/**
 * A published class (GET /v1/class_works/{id}), or null when there is none (the route answers 404), or
 * `{ gone }` when an operator took it down (the page answers 410).
 * `now` is the server's clock at the answer: the page splits past and upcoming schedules by it, so the
 * server's HTML and the browser's first render agree.
 */
export const getClassDetail = createServerFn({ method: 'GET' })
  .validator(idInput)
  .handler(async ({ data }) => {
    try {
      const detail = await api.getClassWork(data)
      return detail ? { detail, now: new Date().toISOString() } : null
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 410)) throw error
      setPageStatus(410)
      return { gone: error.message }
    }
  })

/**
 * Whether the signed-in member has this class among their favorites. Kept apart from the detail on purpose:
 * the detail is the same for everyone (cacheable, no token involved), and this small authenticated call is
 * made only for members. Null for visitors or when the state cannot be read.
 */
export const getFavoriteState = createServerFn({ method: 'GET' })
  .validator(idInput)
  .handler(async ({ data }): Promise<FavoriteState | null> => {
    const token = await currentAccessToken()
    if (!token) return null
    try {
      return await api.getFavoriteState(token, data)
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return null
      throw error
    }
  })

/**
 * Whether the signed-in member has asked for a date of this class and not been answered yet (リクエスト開催), so
 * the page says so instead of offering the form again. Null for visitors or when it cannot be read: the form is
 * offered, and the API still refuses a second request (409).
 */
export const getMyClassRequest = createServerFn({ method: 'GET' })
  .validator(idInput)
  .handler(async ({ data }): Promise<MyClassRequest | null> => {
    const token = await currentAccessToken()
    if (!token) return null
    try {
      return await api.getMyClassRequest(token, data)
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return null
      throw error
    }
  })

/** Adds or removes the class from the member's favorites (idempotent on the API). */
export const setFavorite = createServerFn({ method: 'POST' })
  .validator(toggleInput)
  .handler(async ({ data }): Promise<ToggleResult<FavoriteState>> => {
    const token = await currentAccessToken()
    if (!token) {
      setRefusalStatus(401)
      return { ok: false, status: 401, message: 'ログインしてください' }
    }
    try {
      const state = data.on ? await api.addFavorite(token, data.id) : await api.removeFavorite(token, data.id)
      return { ok: true, state }
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        setRefusalStatus(error.status)
        return { ok: false, status: error.status, message: error.message }
      }
      throw error
    }
  })

/**
 * A page of the class's reviews. Read with the member's token when there is one, so the answer says which
 * reviews they may reply to (their class) or report; a visitor gets the same list without those.
 */
export const getClassReviews = createServerFn({ method: 'GET' })
  .validator(z.object({ id: Id, page: z.number().int().min(1).max(1000) }).strict())
  .handler(async ({ data }) => api.getClassReviews(await currentAccessToken(), data.id, data.page))

/** The class's teacher answers a review, once. */
export const replyToReview = createServerFn({ method: 'POST' })
  .validator(z.object({ id: Id, body: ReplyReviewBody }).strict())
  .handler(async ({ data }) => {
    const token = await currentAccessToken()
    if (!token) {
      setRefusalStatus(401)
      return {
        ok: false as const,
        status: 401,
        code: 'unauthorized',
        message: 'ログインしてください',
        fieldErrors: {},
      }
    }
    return toActionResult(() => api.replyReview(token, data.id, data.body))
  })

/** リクエスト開催: asks the teacher for a date of a class with none coming (members only). */
export const requestClassDate = createServerFn({ method: 'POST' })
  .validator(z.object({ id: Id, body: CreateClassRequestBody }).strict())
  .handler(async ({ data }) => {
    const token = await currentAccessToken()
    if (!token) {
      setRefusalStatus(401)
      return {
        ok: false as const,
        status: 401,
        code: 'unauthorized',
        message: 'ログインしてください',
        fieldErrors: {},
      }
    }
    return toActionResult(() => api.requestClass(token, data.id, data.body))
  })
