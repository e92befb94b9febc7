import { createRoute } from '@hono/zod-openapi'
import { IdParams } from '../../contract/v1/common'
import {
  AdminReportList,
  AdminReportQuery,
  AdminSuspensionList,
  AdminSuspensionQuery,
  AdminVerification,
  AdminVerificationList,
  AdminVerificationQuery,
  CreateReportBody,
  DecideVerificationBody,
  LiftSuspensionBody,
  LiftSuspensionResult,
  MyVerification,
  ReportReceipt,
  ResolveReportBody,
  ResolveReportResult,
  SubmitVerificationBody,
  VerificationDocument,
  VerificationDocumentParams,
} from '../../contract/v1/trust'
import { requireOperator, requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { adminListReports, adminResolveReport, createReport } from '../services/reports'
import { adminLiftSuspension, adminListSuspensions } from '../services/suspensions'
import {
  adminDecideVerification,
  adminListVerifications,
  adminVerificationDocument,
  getMyVerification,
  submitVerification,
} from '../services/verifications'

/**
 * Trust and safety (issue 15): a member's identity verification and reports, and the operator's side of both
 * under /admin (operators only: a visitor is 401, anyone else 404).
 */
export function registerTrustRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)
  const operator = requireOperator(deps.auth, deps.getDb)
  const address = (raw: Request) => raw.headers.get('x-real-ip') ?? undefined

  app.openapi(
    createRoute({
      method: 'get',
      path: '/users/teacher_verification',
      tags: ['users'],
      summary: '自分の本人確認の状況',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(MyVerification, '本人確認の状況'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await getMyVerification(await deps.getDb(), c.var.user), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/users/teacher_verification',
      tags: ['users'],
      summary: '先生として活動する：本人確認を申請する（下書きのクラスはすぐ作れます）',
      security: bearer,
      middleware: [member] as const,
      request: {
        body: { content: { 'application/json': { schema: SubmitVerificationBody } }, required: true },
      },
      responses: { 201: json(MyVerification, '申請後の状況'), ...errors(400, 401, 404, 409, 422, 503) },
    }),
    async (c) =>
      c.json(await submitVerification(await deps.getDb(), c.var.user, c.req.valid('json'), deps.now()), 201),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/reports',
      tags: ['reports'],
      summary: '通報する（クラス・先生・受け取ったメッセージ）',
      security: bearer,
      middleware: [member] as const,
      request: { body: { content: { 'application/json': { schema: CreateReportBody } }, required: true } },
      responses: { 201: json(ReportReceipt, '受け付けた通報'), ...errors(400, 401, 404, 422, 429, 503) },
    }),
    async (c) => {
      await deps.rateLimit('reportsPerMember', String(c.var.user.id))
      return c.json(await createReport(await deps.getDb(), c.var.user, c.req.valid('json'), deps.now()), 201)
    },
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/verifications',
      tags: ['admin'],
      summary: '本人確認の申請（審査待ちは古い順）',
      security: bearer,
      middleware: [operator] as const,
      request: { query: AdminVerificationQuery },
      responses: { 200: json(AdminVerificationList, '申請の一覧'), ...errors(400, 401, 404, 503) },
    }),
    async (c) => {
      const query = c.req.valid('query')
      return c.json(await adminListVerifications(await deps.getDb(), query.status, query.page), 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/verifications/{id}/documents/{kind}',
      tags: ['admin'],
      summary: '本人確認の画像の保存場所（閲覧は監査ログに残ります）',
      security: bearer,
      middleware: [operator] as const,
      request: { params: VerificationDocumentParams },
      responses: { 200: json(VerificationDocument, '画像の保存場所'), ...errors(400, 401, 404, 503) },
    }),
    async (c) => {
      const { id, kind } = c.req.valid('param')
      return c.json(
        await adminVerificationDocument(await deps.getDb(), c.var.user, id, kind, address(c.req.raw)),
        200,
      )
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/verifications/{id}/decision',
      tags: ['admin'],
      summary: '本人確認を承認または却下する（本人にメールが届きます）',
      security: bearer,
      middleware: [operator] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: DecideVerificationBody } }, required: true },
      },
      responses: { 200: json(AdminVerification, '審査後の申請'), ...errors(400, 401, 404, 409, 503) },
    }),
    async (c) =>
      c.json(
        await adminDecideVerification(
          await deps.getDb(),
          c.var.user,
          Number(c.req.valid('param').id),
          c.req.valid('json'),
          deps.now(),
          address(c.req.raw),
        ),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/reports',
      tags: ['admin'],
      summary: '通報（未対応は古い順）',
      security: bearer,
      middleware: [operator] as const,
      request: { query: AdminReportQuery },
      responses: { 200: json(AdminReportList, '通報の一覧'), ...errors(400, 401, 404, 503) },
    }),
    async (c) => c.json(await adminListReports(await deps.getDb(), c.req.valid('query'), c.var.user.id), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/reports/{id}/resolve',
      tags: ['admin'],
      summary: '通報に対応する：対応不要・非表示・アカウントの利用停止',
      security: bearer,
      middleware: [operator] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: ResolveReportBody } }, required: true },
      },
      responses: { 200: json(ResolveReportResult, '対応の結果'), ...errors(400, 401, 404, 409, 422, 503) },
    }),
    async (c) =>
      c.json(
        await adminResolveReport(
          await deps.getDb(),
          c.var.user,
          Number(c.req.valid('param').id),
          c.req.valid('json'),
          deps.now(),
          address(c.req.raw),
        ),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/suspensions',
      tags: ['admin'],
      summary: '利用停止中のアカウント（新しい順、200件ずつ）',
      security: bearer,
      middleware: [operator] as const,
      request: { query: AdminSuspensionQuery },
      responses: {
        200: json(AdminSuspensionList, '利用停止中のアカウントの1ページ'),
        ...errors(400, 401, 404, 503),
      },
    }),
    async (c) => c.json(await adminListSuspensions(await deps.getDb(), c.req.valid('query').page), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/suspensions/{id}/lift',
      tags: ['admin'],
      summary: 'アカウントの利用停止を解除する（停止で非公開にしたクラスは下書きに戻る）',
      security: bearer,
      middleware: [operator] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: LiftSuspensionBody } }, required: true },
      },
      responses: { 200: json(LiftSuspensionResult, '解除の結果'), ...errors(400, 401, 404, 409, 503) },
    }),
    async (c) =>
      c.json(
        await adminLiftSuspension(
          await deps.getDb(),
          c.var.user,
          Number(c.req.valid('param').id),
          c.req.valid('json'),
          deps.now(),
          address(c.req.raw),
        ),
        200,
      ),
  )
}
