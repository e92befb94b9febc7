import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import {
  AnnouncementInput,
  ClassWorkInput,
  ClassWorkPatch,
  ScheduleInput,
  SchedulePatch,
} from '~/contract/v1/class-management'
import { Id } from '~/contract/v1/common'
import { parseImageCrop } from '~/lib/image-type'
import { fileInput, InvalidInputError } from '~/lib/input-error'
import { memberActionResult, sessionEnded } from '~/server/action-result.server'
import { ApiError, api, meOf } from '~/server/api-client'
import { recordClassImage } from '~/server/class-images.server'
import { setRefusalStatus } from '~/server/server-fn-errors.server'
import { currentAccessToken, requireAccessToken } from '~/server/session-token.server'
import { refuseImageUploadOverLimit } from '~/server/upload-limit.server'
import { recordOrDelete } from '~/server/upload-store.server'
import { saveClassImage } from '~/server/uploads.server'

/** /class_management: the caller's classes in one tab (published or not), and whether they teach at all. */
export const getMyClasses = createServerFn({ method: 'GET' })
  .validator(z.object({ published: z.boolean() }))
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    const me = meOf(await api.getMe(token))
    const isTeacher = me?.is_teacher ?? false
    const isVerified = me?.is_verified_teacher ?? false
    const classes = isTeacher ? await api.listMyClassWorks(token, { isPublished: data.published }) : []
    return { isTeacher, isVerified, classes }
  })

/** Master lists the class form offers. */
export const getClassFormOptions = createServerFn({ method: 'GET' }).handler(async () => {
  const [categories, classStyles, targetGrades] = await Promise.all([
    api.getMaster('categories'),
    api.getMaster('class_styles'),
    api.getMaster('target_grades'),
  ])
  return { categories: categories ?? [], classStyles: classStyles ?? [], targetGrades: targetGrades ?? [] }
})

/** The owner's view of a class; null when it is not theirs (or they do not teach). */
export const getOwnClass = createServerFn({ method: 'GET' })
  .validator(z.object({ id: Id }))
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    try {
      return await api.getTeacherClassWork(token, data.id)
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null
      throw error
    }
  })

export const createClass = createServerFn({ method: 'POST' })
  .validator(ClassWorkInput)
  .handler(async ({ data }) => {
    return memberActionResult(async (token) => (await api.createClassWork(token, data)).id)
  })

export const updateClass = createServerFn({ method: 'POST' })
  .validator(z.object({ id: Id, patch: ClassWorkPatch }))
  .handler(async ({ data }) => {
    return memberActionResult(async (token) => (await api.updateClassWork(token, data.id, data.patch)).id)
  })

export const deleteClass = createServerFn({ method: 'POST' })
  .validator(z.object({ id: Id }))
  .handler(async ({ data }) => {
    return memberActionResult(async (token) => (await api.deleteClassWork(token, data.id)).id)
  })

export const addSchedule = createServerFn({ method: 'POST' })
  .validator(z.object({ classWorkId: Id, body: ScheduleInput }))
  .handler(async ({ data }) => {
    return memberActionResult(async (token) => (await api.addSchedule(token, data.classWorkId, data.body)).id)
  })

export const updateSchedule = createServerFn({ method: 'POST' })
  .validator(z.object({ scheduleId: Id, body: SchedulePatch }))
  .handler(async ({ data }) => {
    return memberActionResult(
      async (token) => (await api.updateSchedule(token, data.scheduleId, data.body)).id,
    )
  })

export const cancelSchedule = createServerFn({ method: 'POST' })
  .validator(z.object({ scheduleId: Id }))
  .handler(async ({ data }) => {
    return memberActionResult(async (token) => {
      const r = await api.cancelSchedule(token, data.scheduleId)
      return { canceled: r.canceled_reservations, refunded: r.refunded_amount }
    })
  })

export const getScheduleStudents = createServerFn({ method: 'GET' })
  .validator(z.object({ scheduleId: Id }))
  .handler(async ({ data }) => {
    const token = await requireAccessToken()
    return api.listScheduleStudents(token, data.scheduleId)
  })

export const postAnnouncement = createServerFn({ method: 'POST' })
  .validator(z.object({ classWorkId: Id, body: AnnouncementInput }))
  .handler(async ({ data }) => {
    return memberActionResult(
      async (token) => (await api.postClassAnnouncement(token, data.classWorkId, data.body)).recipient_count,
    )
  })

/** Stores a class image (PNG/JPEG/WebP by content, ≤ 5 MB) for a teacher; the form then saves its URL. */
export const uploadClassImage = createServerFn({ method: 'POST' })
  .validator((input: unknown) => {
    const file = fileInput(input)
    // The part chosen in the crop step (percent of the picture); without one, the whole picture.
    const crop = parseImageCrop((input as FormData).get('crop'))
    if (!crop.ok) throw new InvalidInputError('切り抜く範囲が正しくありません')
    return { file, crop: crop.crop }
  })
  .handler(async ({ data }) => {
    const token = await currentAccessToken()
    if (!token) return sessionEnded()
    const me = meOf(await api.getMe(token))
    if (!me?.is_teacher) {
      setRefusalStatus(403)
      return { ok: false as const, message: '先生として登録すると利用できます' }
    }
    const limited = await refuseImageUploadOverLimit(me.id)
    if (limited) {
      setRefusalStatus(429, 'rate_limited', limited.retryAfterS)
      return { ok: false as const, message: limited.message }
    }
    const saved = await saveClassImage(data.file, undefined, data.crop)
    if (!saved.ok) {
      setRefusalStatus(400)
      return saved
    }
    // Only its uploader may put it on a class (0035); an upload never saved on one is swept a day later.
    const path = saved.url.slice('/uploads/'.length)
    const ownerId = me.id
    await recordOrDelete(path, () => recordClassImage(path, ownerId))
    return saved
  })

/** The open リクエスト開催 of one of the teacher's classes. */
export const getClassRequests = createServerFn({ method: 'GET' })
  .validator(z.object({ classWorkId: Id }))
  .handler(async ({ data }) => api.listClassRequests(await requireAccessToken(), data.classWorkId))
