import { createRoute } from '@hono/zod-openapi'
import {
  AnnouncementCreated,
  AnnouncementInput,
  ClassWorkInput,
  ClassWorkPatch,
  Deleted,
  ScheduleCancelResult,
  ScheduleInput,
  SchedulePatch,
  TeacherClassWork,
  TeacherSchedule,
} from '../../contract/v1/class-management'
import { IdParams } from '../../contract/v1/common'
import { requireUser } from '../auth'
import { ApiError } from '../errors'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import {
  addSchedule,
  cancelSchedule,
  createClassWork,
  deleteClassWork,
  postAnnouncement,
  teacherClassWork,
  updateClassWork,
  updateSchedule,
} from '../services/class-management'

const body = <T>(schema: T) => ({ content: { 'application/json': { schema } }, required: true })

/**
 * Class management for teachers (issue #7). Not a teacher → 403 `not_teacher`; another teacher's class or
 * schedule → 404. Registered before the teacher routes so that `/teachers/class_works` is never an id.
 */
export function registerClassManagementRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)
  const tags = ['class management']

  app.openapi(
    createRoute({
      method: 'post',
      path: '/teachers/class_works',
      tags,
      summary: 'クラスを作成する（is_published を省略すると非公開）',
      security: bearer,
      middleware: [member] as const,
      request: { body: body(ClassWorkInput) },
      responses: { 201: json(TeacherClassWork, '作成したクラス'), ...errors(400, 401, 403, 404, 413, 503) },
    }),
    async (c) =>
      c.json(await createClassWork(await deps.getDb(), c.var.user, c.req.valid('json'), deps.now()), 201),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/class_works/{id}',
      tags,
      summary: '自分のクラスの詳細（非公開・全スケジュール・ミーティングURLを含む）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(TeacherClassWork, 'クラス'), ...errors(400, 401, 403, 404, 503) },
    }),
    async (c) =>
      c.json(
        await teacherClassWork(await deps.getDb(), c.var.user, c.req.valid('param').id, deps.now()),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/teachers/class_works/{id}',
      tags,
      summary: '自分のクラスを変更する（公開・非公開の切り替えを含む）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams, body: body(ClassWorkPatch) },
      responses: { 200: json(TeacherClassWork, '変更後のクラス'), ...errors(400, 401, 403, 404, 413, 503) },
    }),
    async (c) =>
      c.json(
        await updateClassWork(
          await deps.getDb(),
          c.var.user,
          c.req.valid('param').id,
          c.req.valid('json'),
          deps.now(),
        ),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/teachers/class_works/{id}',
      tags,
      summary: '自分のクラスを削除する（予約が一度でもあれば 409 has_reservations）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(Deleted, '削除しました'), ...errors(400, 401, 403, 404, 409, 503) },
    }),
    async (c) => {
      const id = c.req.valid('param').id
      await deleteClassWork(await deps.getDb(), c.var.user, id)
      return c.json({ id, deleted: true as const }, 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/teachers/class_works/{id}/schedules',
      tags,
      summary:
        'スケジュールを追加する（終了が開始以前なら 422 invalid_period、他の回と重なれば 409 schedule_overlap、同じ先生の別のクラスの授業と重なれば 409 teacher_schedule_overlap）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams, body: body(ScheduleInput) },
      responses: {
        201: json(TeacherSchedule, '追加したスケジュール'),
        ...errors(400, 401, 403, 404, 409, 413, 422, 503),
      },
    }),
    async (c) =>
      c.json(
        await addSchedule(
          await deps.getDb(),
          c.var.user,
          c.req.valid('param').id,
          c.req.valid('json'),
          deps.now(),
        ),
        201,
      ),
  )

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/teachers/class_work_schedules/{id}',
      tags,
      summary:
        'スケジュールを変更する（開始後は終了まで meeting_url のみ変更可、それ以外は 409 schedule_started。定員が予約数未満なら 409 capacity_below_sold。移動先が同じ先生の別のクラスの授業と重なれば 409 teacher_schedule_overlap）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams, body: body(SchedulePatch) },
      responses: {
        200: json(TeacherSchedule, '変更後のスケジュール'),
        ...errors(400, 401, 403, 404, 409, 413, 422, 503),
      },
    }),
    async (c) =>
      c.json(
        await updateSchedule(
          await deps.getDb(),
          c.var.user,
          c.req.valid('param').id,
          c.req.valid('json'),
          deps.now(),
        ),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/teachers/class_work_schedules/{id}/cancel',
      tags,
      summary: 'スケジュールを休講にする（予約はすべて canceled_by_teacher・全額返金、受講者へお知らせ）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: {
        200: json(ScheduleCancelResult, '休講にしました'),
        ...errors(400, 401, 403, 404, 409, 503),
      },
    }),
    async (c) =>
      c.json(await cancelSchedule(await deps.getDb(), c.var.user, c.req.valid('param').id, deps.now()), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/teachers/class_works/{id}/announcements',
      tags,
      summary: 'クラスのお知らせを予約中の受講者へ送る',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams, body: body(AnnouncementInput) },
      responses: {
        201: json(AnnouncementCreated, '送ったお知らせ'),
        ...errors(400, 401, 403, 404, 413, 422, 429, 503),
      },
    }),
    async (c) => {
      const key = String(c.var.user.id)
      // Counted before posting, so that concurrent posts cannot pass the limit together; a refused one (contact
      // details, another teacher's class) mailed nobody and is given back.
      await deps.rateLimit('announcementsPerTeacher', key)
      try {
        const created = await postAnnouncement(
          await deps.getDb(),
          c.var.user,
          c.req.valid('param').id,
          c.req.valid('json'),
          deps.now(),
        )
        return c.json(created, 201)
      } catch (err) {
        if (err instanceof ApiError && err.status < 500)
          await deps.giveBack('announcementsPerTeacher', key).catch(() => {})
        throw err
      }
    },
  )
}
