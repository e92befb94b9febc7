import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import { CreateLearnerBody } from '~/contract/v1/users'
import { getDb } from '~/db/client'
import type { ActionResult } from '~/lib/action-result'
import { idInput } from '~/lib/ids'
import { fileInput } from '~/lib/input-error'
import { memberActionResult, sessionEnded, toActionResult } from '~/server/action-result.server'
import { api } from '~/server/api-client'
import { recordAvatarImage, releaseAvatarPath } from '~/server/avatar-images.server'
import { saveAvatar } from '~/server/avatar-upload.server'
import { logger } from '~/server/logger.server'
import { setRefusalStatus } from '~/server/server-fn-errors.server'
import { currentAccessToken, requireAccessToken } from '~/server/session-token.server'
import { refuseImageUploadOverLimit } from '~/server/upload-limit.server'
import { recordOrDelete } from '~/server/upload-store.server'
import { ProfileEditInput } from './profile-schema'

/** The signed-in member's basic information (GET /v1/users/deep_me) with the master lists to name its ids. */
export const getProfile = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await requireAccessToken()
  const [me, schoolTypes, targetGrades, professions] = await Promise.all([
    api.getDeepMe(token),
    api.getMaster('school_types'),
    api.getMaster('target_grades'),
    api.getMaster('professions'),
  ])
  if (!me) throw Object.assign(new Error('プロフィールを読み込めませんでした'), { status: 502 })
  return {
    me,
    masters: {
      schoolTypes: schoolTypes ?? [],
      targetGrades: targetGrades ?? [],
      professions: professions ?? [],
    },
  }
})

export const updateProfile = createServerFn({ method: 'POST' })
  .validator(ProfileEditInput)
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.updateMe(token, data))
  })

export const addLearner = createServerFn({ method: 'POST' })
  .validator(CreateLearnerBody)
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.addLearner(token, data))
  })

export const updateLearner = createServerFn({ method: 'POST' })
  .validator(CreateLearnerBody.extend({ id: z.number().int().positive() }))
  .handler(async ({ data: { id, ...body } }) => {
    return memberActionResult((token) => api.updateLearner(token, id, body))
  })

export const removeLearner = createServerFn({ method: 'POST' })
  .validator(idInput)
  .handler(async ({ data }) => {
    return memberActionResult(async (token) => {
      await api.removeLearner(token, data)
      return { id: data }
    })
  })

/** Stores a new avatar (PNG/JPEG/WebP by content, ≤ 2 MB) and points the profile at it; the old file goes. */
export const uploadAvatar = createServerFn({ method: 'POST' })
  .validator(fileInput)
  .handler(async ({ data }): Promise<ActionResult<{ avatar_url: string | null }>> => {
    const token = await currentAccessToken()
    if (!token) return sessionEnded()
    // Who uploads, before anything is decoded (the limit counts per member); the API's answer when it cannot say.
    const before = await api.getMe(token)
    if (!before.data) {
      const status = before.status === 200 ? 503 : before.status
      setRefusalStatus(status, before.code)
      return {
        ok: false,
        status,
        code: before.code ?? 'unregistered',
        message: before.message ?? 'プロフィールを登録すると利用できます',
        fieldErrors: {},
      }
    }
    const limited = await refuseImageUploadOverLimit(before.data.id)
    if (limited) {
      setRefusalStatus(429, 'rate_limited', limited.retryAfterS)
      return { ok: false, status: 429, code: 'rate_limited', message: limited.message, fieldErrors: {} }
    }
    const saved = await saveAvatar(data)
    if (!saved.ok) {
      setRefusalStatus(400)
      return { ok: false, status: 400, code: 'invalid_image', message: saved.message, fieldErrors: {} }
    }
    // Only its uploader may show it (0038).
    const path = saved.url.slice('/uploads/'.length)
    const ownerId = before.data.id
    await recordOrDelete(path, () => recordAvatarImage(path, ownerId))
    // The API queues the release of the photo this one replaces, in the same transaction.
    const result = await toActionResult(async () => {
      const user = await api.updateMe(token, { avatar_url: saved.url })
      return { avatar_url: user.avatar_url }
    })
    // Refused: the new photo goes now (or, if this fails too, with the hourly sweep a day later).
    if (!result.ok)
      await releaseAvatarPath(await getDb(), path).catch((err) =>
        logger.warn({ err }, 'an avatar upload that was not shown could not be released'),
      )
    return result
  })

/** Goes back to the initial letter (the API queues the release of the stored file). */
export const clearAvatar = createServerFn({ method: 'POST' }).handler(async () => {
  const token = await currentAccessToken()
  if (!token) return sessionEnded()
  return toActionResult(async () => {
    const user = await api.updateMe(token, { avatar_url: null })
    return { avatar_url: user.avatar_url }
  })
})
