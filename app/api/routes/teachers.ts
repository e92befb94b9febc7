import { createRoute } from '@hono/zod-openapi'
import {
  ClassWorkCardList,
  MyClassWorkList,
  MyClassWorksQuery,
  StudentList,
} from '../../contract/v1/class-works'
import { IdParams } from '../../contract/v1/common'
import { TeacherClassWorksQuery, TeacherProfile } from '../../contract/v1/teachers'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { myClassWorks, teacherClassWorks } from '../services/class-works'
import { assertTeacher, scheduleStudents, teacherProfile } from '../services/teachers'

export function registerTeacherRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)

  // The fixed paths first, so that `my_class_works` is never taken for a teacher id.
  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/my_class_works',
      tags: ['teachers'],
      summary: '自分のクラス（is_published で公開・非公開を絞り込み）',
      security: bearer,
      middleware: [member] as const,
      request: { query: MyClassWorksQuery },
      responses: { 200: json(MyClassWorkList, '自分のクラス'), ...errors(400, 401, 404, 503) },
    }),
    async (c) => {
      const flag = c.req.valid('query').is_published
      const isPublished = flag === undefined ? undefined : flag === 'true'
      return c.json(await myClassWorks(await deps.getDb(), c.var.user.id, isPublished, deps.now()), 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/my_class_work_schedules/{id}/students',
      tags: ['teachers'],
      summary: '自分のクラスのスケジュールを予約した生徒',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(StudentList, '生徒'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(await scheduleStudents(await deps.getDb(), c.var.user.id, c.req.valid('param').id), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/{id}',
      tags: ['teachers'],
      summary: '先生の紹介（公開情報のみ）',
      request: { params: IdParams },
      responses: { 200: json(TeacherProfile, '先生'), ...errors(400, 404, 410, 503) },
    }),
    async (c) => c.json(await teacherProfile(await deps.getDb(), c.req.valid('param').id, deps.now()), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/{id}/class_works',
      tags: ['teachers'],
      summary: '先生の公開中のクラス（新しい順、1ページ24件）',
      request: { params: IdParams, query: TeacherClassWorksQuery },
      responses: { 200: json(ClassWorkCardList, 'クラス'), ...errors(400, 404, 410, 503) },
    }),
    async (c) => {
      const db = await deps.getDb()
      const id = c.req.valid('param').id
      await assertTeacher(db, id)
      return c.json(await teacherClassWorks(db, id, deps.now(), c.req.valid('query').page ?? 1), 200)
    },
  )
}
